"""The agent-facing tools over stdio, through the SDK's client, spawning `hitl-mcp` twice on one
database (an agent and an operator): the agent asks a human (`request_human_input`), registers a
signed callback and waits (`wait_for_case`); the operator answers with the literal structured edit
`{"decision": "edit", "feedback", "answers"}`; the agent is told (callback and wait), revises
(`resubmit_case`) and the revision is approved."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, ClassVar

import anyio
import pytest
from mcp import Client, StdioServerParameters

from caseplatform.notifications import SIGNATURE_HEADER
from tests.integration.caseplatform.test_mcp_server import AGENT_ARGS, HITL_MCP, OPERATOR_ARGS, _call

pytestmark = pytest.mark.slow

AGENT_TOOLS = {"request_human_input", "resubmit_case", "leave_feedback", "wait_for_case", "register_callback"}


def _params(db: Path, actor: list[str]) -> StdioServerParameters:
    # The SDK passes the child a minimal environment: keep the import path of the code under test.
    env = {k: os.environ[k] for k in ("PYTHONPATH", "MEMO_TEST_NOW") if k in os.environ}
    return StdioServerParameters(command=str(HITL_MCP), args=["--db", str(db), *actor], env=env)


class _Hook(BaseHTTPRequestHandler):
    received: ClassVar[list[tuple[dict[str, str], bytes]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append((dict(self.headers), body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def hook() -> Iterator[str]:
    _Hook.received.clear()
    server = HTTPServer(("127.0.0.1", 0), _Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    server.shutdown()
    server.server_close()


def _signed(secret: str) -> list[dict[str, Any]]:
    """The notices the hook received, each checked against its signature."""
    notices = []
    for headers, body in _Hook.received:
        expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        assert headers[SIGNATURE_HEADER] == expected
        notices.append(json.loads(body))
    return notices


def test_an_agent_asks_is_told_of_the_edit_revises_and_is_approved(tmp_path: Path, hook: str) -> None:
    db = tmp_path / "hitl.db"

    async def scenario() -> None:
        async with Client(_params(db, AGENT_ARGS)) as agent, Client(_params(db, OPERATOR_ARGS)) as operator:
            assert {tool.name for tool in (await agent.list_tools()).tools} >= AGENT_TOOLS
            asked = await _call(
                agent,
                "request_human_input",
                questions=["Which map version?", "Include dock 4?"],
                request_id="h-1",
            )
            case_id = asked["case_id"]
            assert (asked["status"], asked["current_state"]) == ("success", "pending")

            refused = await _call(
                agent, "register_callback", case_id=case_id, url="http://agent.example/hook"
            )
            assert refused["code"] == "ENVELOPE_INVALID"
            registered = await _call(agent, "register_callback", case_id=case_id, url=hook)
            secret = registered["secret"]

            idle = await _call(agent, "wait_for_case", case_id=case_id, timeout_s=0)
            assert (idle["changed"], idle["current_state"]) == (False, "pending")

            edit = {"decision": "edit", "feedback": "Use v12; yes, dock 4 too", "answers": ["v12", "Yes"]}
            sent_back = await _call(operator, "record_decision", case_id=case_id, request_id="d-1", **edit)
            assert sent_back["current_state"] == "changes_requested", sent_back
            told = await _call(agent, "wait_for_case", case_id=case_id, since=idle["state"], timeout_s=30)
            assert (told["changed"], told["current_state"]) == (True, "changes_requested")
            [notice] = _signed(secret)
            assert (notice["event_type"], notice["feedback"], notice["answers"]) == (
                "changes_requested",
                edit["feedback"],
                edit["answers"],
            )

            early = await _call(
                operator, "record_decision", case_id=case_id, decision="approve", request_id="d-2"
            )
            assert (early["code"], early["from_state"]) == ("INVALID_STATE_TRANSITION", "changes_requested")
            invalid = await _call(
                agent, "resubmit_case", case_id=case_id, payload={"questions": []}, request_id="r-0"
            )
            assert invalid["code"] == "PAYLOAD_INVALID"

            revised = {
                "questions": ["Which map version?", "Include dock 4?"],
                "allowed_decisions": ["approve", "reject"],
                "answers": ["v12", "Yes"],
            }
            again = await _call(agent, "resubmit_case", case_id=case_id, payload=revised, request_id="r-1")
            assert again["current_state"] == "pending"
            approved = await _call(
                operator, "record_decision", case_id=case_id, decision="approve", request_id="d-3"
            )
            assert (approved["current_state"], approved["approved_payload"]) == ("approved", revised)
            assert [n["event_type"] for n in _signed(secret)] == ["changes_requested", "decision_recorded"]

            history = await _call(agent, "get_case_history", case_id=case_id)
            assert [e["event_type"] for e in history["items"]] == [
                "submitted",
                "changes_requested",
                "resubmitted",
                "decision_recorded",
            ]

    anyio.run(scenario)
