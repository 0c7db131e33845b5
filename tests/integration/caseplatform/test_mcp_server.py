"""The MCP server through the SDK's own client over stdio, spawning `.venv/bin/hitl-mcp --db <tmp>`:
one server configured as the agent (`--actor agent:lgv --actor-kind agent`) and one as the operator
(`--actor op:dana`), on the same database."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests.unit.caseplatform.factories import lgv_payload

HITL_MCP = Path(sys.executable).parent / "hitl-mcp"
CORE_TOOLS = {
    "submit_case",
    "get_case",
    "list_cases",
    "list_review_queue",
    "request_clarification",
    "provide_clarification",
    "record_decision",
    "get_case_history",
    "register_adapter_schema",
    "activate_adapter_schema",
}

pytestmark = pytest.mark.slow


QUERY_TOOLS = {
    "list_reviewed",
    "list_by_principal",
    "cases_by_ref",
    "cases_by_payload_field",
    "decision_stats",
    "audit_decisions",
    "clarification_backlog",
    "escalations_due",
}
AGENT_ARGS = [
    "--actor",
    "agent:lgv",
    "--actor-name",
    "lgv-chatbot",
    "--actor-role",
    "agent",
    "--actor-kind",
    "agent",
]
OPERATOR_ARGS = ["--actor", "op:dana", "--actor-name", "Dana Levi", "--actor-role", "site engineer"]


def _params(db: Path, actor: list[str] | None = None) -> StdioServerParameters:
    return StdioServerParameters(command=str(HITL_MCP), args=["--db", str(db), *(actor or OPERATOR_ARGS)])


async def _call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    answer = result.structured_content
    assert isinstance(answer, dict), result
    assert json.loads(result.content[0].text) == answer  # type: ignore[union-attr]
    assert bool(result.is_error) == (answer["status"] == "error")
    return answer


def _submit_args(request_id: str, **overrides: Any) -> dict[str, Any]:
    return {
        "adapter_id": "lgv_troubleshooting",
        "case_type": "incident",
        "title": "LGV-07 navigation fault",
        "summary": "Reload the reflector map",
        "payload": lgv_payload(),
        "request_id": request_id,
        "priority": "high",
        "confidence": "low",
        "refs": [{"ref_type": "neo4j_node", "ref_key": "lgv_id", "ref_value": "LGV-07"}],
        **overrides,
    }


def test_the_whole_flow_and_every_error_code_over_stdio(tmp_path: Path) -> None:
    db = tmp_path / "hitl.db"

    async def scenario() -> None:
        async with Client(_params(db, AGENT_ARGS)) as agent, Client(_params(db)) as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            assert tools >= CORE_TOOLS | QUERY_TOOLS

            empty = await _call(client, "list_review_queue")
            assert (empty["status"], empty["count"], empty["items"]) == ("success", 0, [])

            submitted = await _call(agent, "submit_case", **_submit_args("s-1"))
            assert submitted["status"] == "success"
            assert submitted["current_state"] == "pending"
            case_id = submitted["case_id"]
            assert await _call(agent, "submit_case", **_submit_args("s-1")) == submitted

            asked = await _call(
                agent,
                "request_clarification",
                case_id=case_id,
                question="Which reflector map version is loaded?",
                notes="missing map version",
                request_id="q-1",
            )
            assert asked["current_state"] == "needs_clarification"
            queue = await _call(client, "list_review_queue", state="needs_clarification")
            assert [item["case_id"] for item in queue["items"]] == [case_id]

            answered = await _call(
                client,
                "provide_clarification",
                case_id=case_id,
                answer="v12, loaded yesterday",
                notes="",
                request_id="a-1",
            )
            assert answered["current_state"] == "pending"

            decided = await _call(
                client,
                "record_decision",
                case_id=case_id,
                decision="approved",
                notes="map reload is safe",
                request_id="d-1",
            )
            assert (decided["current_state"], decided["decision"]) == ("approved", "approved")

            history = await _call(client, "get_case_history", case_id=case_id)
            assert [e["event_type"] for e in history["items"]] == [
                "submitted",
                "needs_clarification",
                "clarification_provided",
                "decision_recorded",
            ]
            # The trust boundary: the actors are the configured ones, recorded as local-unverified.
            actors = [(e["actor"]["id"], e["actor"].get("assurance")) for e in history["items"]]
            assert actors == [
                ("agent:lgv", "local-unverified"),
                ("agent:lgv", "local-unverified"),
                ("op:dana", "local-unverified"),
                ("op:dana", "local-unverified"),
            ]
            # The agent's server cannot approve (only an operator does), nor the submitter its own case.
            own = (await _call(agent, "submit_case", **_submit_args("s-own")))["case_id"]
            refused = await _call(agent, "record_decision", case_id=own, decision="approve", request_id="x-1")
            assert refused["code"] == "ENVELOPE_INVALID"
            # The queries 3-9 as tools.
            audit = await _call(client, "audit_decisions", limit=10)
            assert [e["case_id"] for e in audit["items"]] == [case_id]
            assert (await _call(client, "list_reviewed", decision="approved"))["items"][0][
                "case_id"
            ] == case_id
            mine = await _call(client, "list_by_principal", principal="op:dana", limit=1)
            assert mine["count"] == 1 and mine["next_cursor"] is not None
            more = await _call(
                client, "list_by_principal", principal="op:dana", limit=1, cursor=mine["next_cursor"]
            )
            assert more["items"][0]["event_id"] != mine["items"][0]["event_id"]
            by_ref = await _call(
                client, "cases_by_ref", ref_type="neo4j_node", ref_key="lgv_id", ref_value="LGV-07"
            )
            assert case_id in [i["case_id"] for i in by_ref["items"]]
            by_field = await _call(
                client,
                "cases_by_payload_field",
                adapter_id="lgv_troubleshooting",
                field="lgv_id",
                value="LGV-07",
            )
            assert case_id in [i["case_id"] for i in by_field["items"]]
            stats = await _call(client, "decision_stats", from_ms=0, to_ms=2**42, bucket_ms=2**41)
            assert sum(b["approved"] for b in stats["buckets"]) == 1
            assert (await _call(client, "clarification_backlog"))["count"] == 0
            assert (await _call(client, "escalations_due", within_ms=1))["count"] == 0
            bad = await _call(client, "decision_stats", from_ms=10, to_ms=5)
            assert bad["code"] == "ENVELOPE_INVALID"

            case = await _call(client, "get_case", case_id=case_id)
            assert case["case"]["payload"] == lgv_payload()
            assert case["state"]["current_state"] == "approved"
            listed = await _call(client, "list_cases", state="approved", limit=10)
            assert [item["case_id"] for item in listed["items"]] == [case_id]

            # --- every error code
            codes = {}
            codes["ALREADY_TERMINAL"] = await _call(
                client,
                "record_decision",
                case_id=case_id,
                decision="rejected",
                notes="",
                request_id="d-2",
            )
            codes["IDEMPOTENCY_CONFLICT"] = await _call(
                client,
                "record_decision",
                case_id=case_id,
                decision="rejected",
                notes="",
                request_id="d-1",
            )
            codes["INVALID_STATE_TRANSITION"] = await _call(
                client, "provide_clarification", case_id=case_id, answer="x", request_id="a-2"
            )
            second = (await _call(agent, "submit_case", **_submit_args("s-2")))["case_id"]
            codes["QUESTION_REQUIRED"] = await _call(
                agent, "request_clarification", case_id=second, request_id="q-2"
            )
            await _call(agent, "request_clarification", case_id=second, question="?", request_id="q-3")
            codes["ANSWER_REQUIRED"] = await _call(
                client, "provide_clarification", case_id=second, answer="  ", request_id="a-3"
            )
            codes["ADAPTER_NOT_FOUND"] = await _call(
                client, "submit_case", **_submit_args("s-3", adapter_id="nope_adapter")
            )
            codes["PAYLOAD_INVALID"] = await _call(
                client, "submit_case", **_submit_args("s-4", payload={"symptom": ""})
            )
            not_found = await _call(client, "get_case", case_id="HITL-00000000-0000-4000-8000-000000000000")

            for code, answer in codes.items():
                assert (answer["status"], answer["code"]) == ("error", code), answer
            assert codes["INVALID_STATE_TRANSITION"]["from_state"] == "approved"
            assert codes["INVALID_STATE_TRANSITION"]["requested_action"] == "provide_clarification"
            assert codes["ALREADY_TERMINAL"]["existing_decision"]["event_id"] == decided["event_id"]
            assert codes["PAYLOAD_INVALID"]["details"]
            assert not_found == {
                "status": "not_found",
                "case_id": "HITL-00000000-0000-4000-8000-000000000000",
            }

            # --- admin tools
            registered = await _call(
                client,
                "register_adapter_schema",
                adapter_id="it_ops",
                schema_version=1,
                schema_json={"type": "object"},
            )
            assert registered["is_active"] is False
            activated = await _call(client, "activate_adapter_schema", adapter_id="it_ops", schema_version=1)
            assert (activated["is_active"], activated["previous_version"]) == (True, None)
            missing = await _call(client, "activate_adapter_schema", adapter_id="it_ops", schema_version=9)
            assert missing["code"] == "SCHEMA_VERSION_NOT_FOUND"

    anyio.run(scenario)


def test_stdout_carries_only_protocol(tmp_path: Path) -> None:
    """Every line the server writes to stdout is a JSON-RPC message; logs go to stderr."""
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw-test", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "list_cases", "arguments": {}},
        },
    ]
    process = subprocess.Popen(
        [str(HITL_MCP), "--db", str(tmp_path / "hitl.db")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    messages = []
    for request in requests:
        process.stdin.write(json.dumps(request) + "\n")
        process.stdin.flush()
        if "id" in request:
            while True:  # every stdout line must parse as JSON-RPC, up to the response
                message = json.loads(process.stdout.readline())
                messages.append(message)
                if message.get("id") == request["id"]:
                    break
    process.stdin.close()
    rest = process.stdout.read()
    stderr = process.stderr.read() if process.stderr else ""
    assert process.wait(timeout=30) == 0
    messages.extend(json.loads(line) for line in rest.splitlines() if line.strip())
    assert all(m.get("jsonrpc") == "2.0" for m in messages)
    listed = next(m for m in messages if m.get("id") == 2)
    assert listed["result"]["structuredContent"] == {
        "status": "success",
        "count": 0,
        "items": [],
        "next_cursor": None,
    }
    assert "HITL_MCP_START" in stderr
