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
