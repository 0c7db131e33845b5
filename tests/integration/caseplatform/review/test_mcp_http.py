"""MCP over Streamable HTTP on the review Lambda, through the MCP SDK's own HTTP client: a local HTTP
server turns its requests into API Gateway v2 events for the resolver (SQLite and DynamoDB)."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from caseplatform.query_tools import QUERY_TOOLS
from caseplatform.service import CaseService
from tests.integration.caseplatform.review.harness import ReviewClient, local_server, token
from tests.unit.caseplatform.factories import FakeClock

AGENT = token("memo-agent", "agents:ops_change", "agents:human_input", name="Memo agent")
REVIEWER = token("alice", "reviewers:ops_change", "reviewers:human_input", name="Alice")
HTTP_TOOLS = {
    "submit_case",
    "request_human_input",
    "get_case",
    "list_cases",
    "list_review_queue",
    "request_clarification",
    "provide_clarification",
    "record_decision",
    "get_case_history",
    "resubmit_case",  # the submitter revises a case sent back with changes requested
    "leave_feedback",  # where the adapter enables the feedback tool
    "redact_case",  # reviewers of the case's adapter
    "review_metrics",  # an adapter the caller reads, or all for reviewers:*
    *QUERY_TOOLS,  # the cross-case queries (reviewers:* only)
}


def _client(url: str, bearer: str | None) -> Client:
    headers = {"Authorization": f"Bearer {bearer}"} if bearer else {}
    return Client(
        streamable_http_client(f"{url}/review/mcp", http_client=create_mcp_http_client(headers=headers))
    )


async def _call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    answer = result.structured_content
    assert isinstance(answer, dict), result
    assert bool(result.is_error) == (answer["status"] == "error")
    return answer


def test_tools_submit_human_input_and_poll(api: ReviewClient, cases: CaseService) -> None:
    async def scenario(url: str) -> None:
        async with _client(url, AGENT) as agent:
            tools = await agent.list_tools()
            assert {t.name for t in tools.tools} == HTTP_TOOLS
            submit = next(t for t in tools.tools if t.name == "submit_case")
            assert "submitter" not in submit.input_schema["properties"]  # identity is the principal

            submitted = await _call(
                agent,
                "submit_case",
                adapter_id="ops_change",
                case_type="operation",
                title="Delete 3 notes",
                summary="The user asked to delete notes",
                payload={"action": "delete_notes", "count": 3},
                request_id="s1",
            )
            assert submitted["status"] == "success"
            envelope = cases.get_case(submitted["case_id"]).record.case
            assert (envelope.submitter.id, envelope.submitter.name) == ("memo-agent", "Memo agent")

            asked = await _call(
                agent, "request_human_input", questions=["Use React?", "Include tests?"], request_id="h1"
            )
            case_id = asked["case_id"]
            polled = await _call(agent, "get_case", case_id=case_id)
            assert polled["state"]["current_state"] == "pending" and polled["decision"] is None
            assert polled["case"]["payload"] == {
                "questions": ["Use React?", "Include tests?"],
                "allowed_decisions": ["approve", "edit", "reject"],
            }
            denied = await _call(
                agent, "record_decision", case_id=case_id, decision="approved", request_id="d"
            )
            assert denied["code"] == "FORBIDDEN"

        async with _client(url, REVIEWER) as reviewer:
            queue = await _call(reviewer, "list_review_queue", adapter_id="human_input")
            assert [i["case_id"] for i in queue["items"]] == [case_id]
            decided = await _call(
                reviewer,
                "record_decision",
                case_id=case_id,
                decision="rejected",
                notes="not now",
                request_id="d1",
            )
            assert decided["current_state"] == "rejected"

        async with _client(url, AGENT) as agent:
            polled = await _call(agent, "get_case", case_id=case_id)
            assert polled["state"]["current_state"] == "rejected"
            assert (polled["decision"]["notes"], polled["decision"]["actor"]["id"]) == ("not now", "alice")

    with local_server(api) as url:
        anyio.run(scenario, url)


def test_mcp_needs_a_token(api: ReviewClient) -> None:
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    headers = {"accept": "application/json, text/event-stream"}
    refused = api.call("POST", "/review/mcp", body=initialize, headers=headers)
    assert (refused.status, refused.body["code"]) == (401, "UNAUTHENTICATED")
    accepted = api.call("POST", "/review/mcp", body=initialize, headers=headers, bearer=AGENT)
    assert accepted.status == 200
    assert json.loads(accepted.body)["result"]["serverInfo"]["name"] == "hitl-case-platform"


@pytest.mark.parametrize("tool", ["submit_case"])
def test_an_agent_of_another_adapter_cannot_submit(api: ReviewClient, cases: CaseService, tool: str) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {
            "name": tool,
            "arguments": {
                "adapter_id": "lgv_troubleshooting",
                "case_type": "incident",
                "title": "t",
                "summary": "s",
                "payload": {},
                "request_id": "x",
            },
        },
    }
    headers = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18"}
    answer = api.call("POST", "/review/mcp", body=call, headers=headers, bearer=AGENT)
    result = json.loads(answer.body)["result"]
    assert result["isError"] is True and result["structuredContent"]["code"] == "FORBIDDEN"
    assert cases.list_cases(adapter_id="lgv_troubleshooting").items == []


def _tool(api: ReviewClient, bearer: str, name: str, **arguments: Any) -> dict[str, Any]:
    """One tools/call as a JSON-RPC request to the review function (stateless: no initialize)."""
    call = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    headers = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18"}
    answer = api.call("POST", "/review/mcp", body=call, headers=headers, bearer=bearer)
    result = json.loads(answer.body)["result"]
    content = result["structuredContent"]
    assert bool(result["isError"]) == (content["status"] == "error")
    return dict(content)


def _submitted(api: ReviewClient) -> str:
    answer = _tool(
        api,
        AGENT,
        "submit_case",
        adapter_id="ops_change",
        case_type="operation",
        title="Call the site",
        summary="Ring the contact",
        payload={"action": "delete_notes", "count": 3, "note": "ask Dana on +972501234567"},
        request_id="s-redact",
    )
    return str(answer["case_id"])


def test_a_reviewer_redacts_over_http_as_themselves(api: ReviewClient, cases: CaseService) -> None:
    case_id = _submitted(api)
    redacted = _tool(
        api,
        REVIEWER,
        "redact_case",
        case_id=case_id,
        fields=["note"],
        reason="GDPR",
        request_id="r1",
    )
    assert redacted["status"] == "success" and redacted["redacted_fields"] == ["note"]
    assert "+972501234567" not in json.dumps(cases.get_case(case_id).record.case.payload)
    (event,) = [e for e in cases.get_case_history(case_id) if e.event_type == "redacted"]
    assert event.actor.id == "alice"  # the principal, never a caller-supplied actor
    again = _tool(
        api,
        REVIEWER,
        "redact_case",
        case_id=case_id,
        fields=["note"],
        reason="GDPR",
        request_id="r1",
    )
    assert again["event_id"] == redacted["event_id"]  # a retry writes nothing new
    assert len([e for e in cases.get_case_history(case_id) if e.event_type == "redacted"]) == 1


@pytest.mark.parametrize(
    "bearer",
    [AGENT, token("bob", "viewers:ops_change"), token("carol", "reviewers:lgv_troubleshooting")],
    ids=["the submitting agent", "a viewer", "a reviewer of another adapter"],
)
def test_only_a_reviewer_of_the_adapter_may_redact(
    api: ReviewClient, cases: CaseService, bearer: str
) -> None:
    case_id = _submitted(api)
    refused = _tool(
        api, bearer, "redact_case", case_id=case_id, fields=["action"], reason="x", request_id="r2"
    )
    assert refused["code"] == "FORBIDDEN"
    assert [e.event_type for e in cases.get_case_history(case_id)] == ["submitted"]


def test_review_metrics_over_http_per_readable_adapter(
    api: ReviewClient, cases: CaseService, clock: FakeClock
) -> None:
    start = clock()
    case_id = _submitted(api)
    clock.advance(30 * 60_000)
    assert (
        _tool(api, REVIEWER, "record_decision", case_id=case_id, decision="approved", request_id="a1")[
            "status"
        ]
        == "success"
    )
    window = {"from_ms": start, "to_ms": clock() + 1}
    (row,) = _tool(api, REVIEWER, "review_metrics", adapter_id="ops_change", **window)["items"]
    assert (row["adapter_id"], row["review_latency"]["count"]) == ("ops_change", 1)
    assert row["review_latency"]["median_ms"] == 30 * 60_000
    other = _tool(api, REVIEWER, "review_metrics", adapter_id="lgv_troubleshooting", **window)
    assert other["code"] == "FORBIDDEN"
    every = _tool(api, REVIEWER, "review_metrics", **window)  # every adapter needs reviewers:*
    assert every["code"] == "FORBIDDEN"
    admin = token("root", "reviewers:*")
    assert [r["adapter_id"] for r in _tool(api, admin, "review_metrics", **window)["items"]] == ["ops_change"]
    # Arguments of the wrong type are refused by the tool's input schema before anything runs.
    call = {"name": "review_metrics", "arguments": {"from_ms": "yesterday", "to_ms": 1}}
    headers = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18"}
    body = {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": call}
    refused = json.loads(api.call("POST", "/review/mcp", body=body, headers=headers, bearer=admin).body)
    assert refused["result"]["isError"] is True and "from_ms" in json.dumps(refused["result"]["content"])
