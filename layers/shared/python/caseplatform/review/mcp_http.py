"""The case platform's MCP tools over Streamable HTTP (stateless, JSON responses), inside the review
Lambda, as the authenticated principal.

Choice: this runs the MCP SDK's own Streamable HTTP transport (`StreamableHTTPSessionManager`,
stateless, `json_response=True`), not a hand-written JSON-RPC loop, so protocol details (initialize,
version negotiation, batching, notifications -> 202, error codes) are the SDK's. A Lambda invocation
is one HTTP request: `handle` builds an ASGI request from it, runs the session manager for that one
request on a fresh event loop, and returns the single JSON response. Stateless mode keeps no session
between requests, which is what a Lambda (any instance may serve the next request) needs.

The tools are the stdio server's (`caseplatform.mcp_server`) without the caller-asserted identity:
there is no `actor` / `submitter` argument; the actor is the principal the request authenticated as,
and every tool checks the principal's right on the case's adapter. `record_decision(approved)` goes
through the adapter's approver policy. Admin tools (schema registry) are not served over HTTP.
`request_human_input` opens a `human_input` case; the agent is told of the answer by the stack's
notifications (`caseplatform.notifications`: EventBridge) or reads it with `get_case`.
`resubmit_case` revises a case sent back with changes requested. `redact_case` (reviewers of the
case's adapter) and `review_metrics` (an adapter the caller may read; every adapter needs
`reviewers:*`) are the governance tools of the stdio server.
What both surfaces share comes from `caseplatform.mcp_server`: the instructions, the descriptions of
the tools described alike, domain errors turned into answers (`answer_call`) and `tool_result`.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import anyio
from mcp.server import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolResult

from caseplatform import answers
from caseplatform.governance.metrics_tools import METRICS_DESCRIPTION
from caseplatform.governance.retention_tools import REDACT_DESCRIPTION
from caseplatform.human_input import REQUEST_HUMAN_INPUT_DESCRIPTION
from caseplatform.mcp_server import (
    GET_CASE_HISTORY_DESCRIPTION,
    INSTRUCTIONS,
    LIST_REVIEW_QUEUE_DESCRIPTION,
    answer_call,
    tool_result,
)
from caseplatform.query_tools import register_query_tools
from caseplatform.review.approvals import QueueQuery, ReviewService
from caseplatform.review.auth import AuthError, Principal
from caseplatform.version import platform_version

log = logging.getLogger("caseplatform.review.mcp")

_caller: contextvars.ContextVar[Principal] = contextvars.ContextVar("review_mcp_caller")
_review: contextvars.ContextVar[ReviewService] = contextvars.ContextVar("review_mcp_service")


@dataclass(frozen=True)
class Reply:
    status: int
    body: str
    headers: dict[str, str] = field(default_factory=dict)


def _answer(tool: str, produce: Callable[[], dict[str, Any]]) -> CallToolResult:
    """`mcp_server.answer_call` (domain errors by type), plus the review's own auth errors."""
    try:
        return answer_call(tool, produce)
    except AuthError as error:
        answer = {"status": "error", "code": error.code, "message": str(error)}
        log.info("HITL_TOOL", extra={"tool": tool, "status": "error", "code": error.code})
        return tool_result(answer, ensure_ascii=True)


def _who() -> Principal:
    return _caller.get()


def _service() -> ReviewService:
    return _review.get()


@cache
def build_server() -> MCPServer:
    server: MCPServer = MCPServer(
        name="hitl-case-platform", instructions=INSTRUCTIONS, version=platform_version()
    )
    _register_capture_tools(server)
    _register_revision_tools(server)
    _register_reading_tools(server)
    _register_review_tools(server)
    register_query_tools(server, _answer, lambda name, args: _service().query(_who(), name, args))
    _register_governance_tools(server)

    @server.tool(description=GET_CASE_HISTORY_DESCRIPTION)
    def get_case_history(case_id: str) -> CallToolResult:
        return _answer("get_case_history", lambda: _service().history(_who(), case_id))

    return server


def _register_capture_tools(server: MCPServer) -> None:
    """Opening cases: a submission, or questions for a human."""

    @server.tool(
        description="Submit a case for review as the signed-in agent. refs: [{ref_type, ref_key, ref_value}]; priority: low|normal|high|critical; confidence: high|medium|low."
    )
    def submit_case(
        adapter_id: str,
        case_type: str,
        title: str,
        summary: str,
        payload: dict[str, Any],
        request_id: str,
        priority: str = "normal",
        confidence: str | None = None,
        refs: list[dict[str, Any]] | None = None,
    ) -> CallToolResult:
        return _answer(
            "submit_case",
            lambda: _service().submit(
                _who(),
                request_id=request_id,
                adapter_id=adapter_id,
                case_type=case_type,
                title=title,
                summary=summary,
                payload=payload,
                priority=priority,
                confidence=confidence,
                refs=refs,
            ),
        )

    @server.tool(description=REQUEST_HUMAN_INPUT_DESCRIPTION)
    def request_human_input(
        questions: list[str],
        request_id: str,
        allowed_decisions: list[str] | None = None,
        title: str | None = None,
        prompt: str | None = None,
        context: dict[str, Any] | None = None,
        priority: str = "normal",
    ) -> CallToolResult:
        return _answer(
            "request_human_input",
            lambda: _service().request_human_input(
                _who(),
                questions=questions,
                request_id=request_id,
                allowed_decisions=allowed_decisions,
                title=title,
                prompt=prompt,
                context=context,
                priority=priority,
            ),
        )


def _register_revision_tools(server: MCPServer) -> None:
    """The submitter's side of changes requested, and the feedback tool."""

    @server.tool(
        description="Revise a case a reviewer sent back (current_state changes_requested) with a new payload, valid for the adapter's active schema (agents, the case's submitter): the case is pending again."
    )
    def resubmit_case(
        case_id: str, payload: dict[str, Any], request_id: str, notes: str = ""
    ) -> CallToolResult:
        return _answer(
            "resubmit_case",
            lambda: _service().resubmit(_who(), case_id, request_id=request_id, payload=payload, notes=notes),
        )

    @server.tool(
        description="Leave feedback on an open case without deciding it (agents); only on adapters whose x-hitl.enable_feedback_tool is set."
    )
    def leave_feedback(case_id: str, feedback: str, request_id: str) -> CallToolResult:
        return _answer(
            "leave_feedback",
            lambda: _service().leave_feedback(_who(), case_id, request_id=request_id, feedback=feedback),
        )


def _register_reading_tools(server: MCPServer) -> None:
    """Reading cases: one case, the listings and the review queue."""

    @server.tool(
        description="A case: envelope, payload, state, history, approvals and its terminal decision (null while open)."
    )
    def get_case(case_id: str) -> CallToolResult:
        return _answer("get_case", lambda: _service().case(_who(), case_id))

    @server.tool(
        description="Cases newest first by state (pending|needs_clarification|approved|rejected) / adapter_id / priority; pass next_cursor back as cursor."
    )
    def list_cases(
        state: str | None = None,
        adapter_id: str | None = None,
        priority: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> CallToolResult:
        return _answer("list_cases", lambda: _list_cases(state, adapter_id, priority, limit, cursor))

    @server.tool(description=LIST_REVIEW_QUEUE_DESCRIPTION)
    def list_review_queue(
        adapter_id: str | None = None, priority: str | None = None, state: str | None = None, limit: int = 50
    ) -> CallToolResult:
        return _answer(
            "list_review_queue",
            lambda: _service().queue(
                _who(),
                QueueQuery(state or "open", adapter_id, priority, None, limit),  # type: ignore[arg-type]
            ),
        )


def _register_review_tools(server: MCPServer) -> None:
    """Reviewing: the clarification round and the decision."""

    @server.tool(description="Ask a follow-up question (reviewers): the case moves to needs_clarification.")
    def request_clarification(
        case_id: str, question: str, request_id: str, notes: str = ""
    ) -> CallToolResult:
        return _answer(
            "request_clarification",
            lambda: _service().clarify(
                _who(), case_id, request_id=request_id, question=question, notes=notes
            ),
        )

    @server.tool(description="Answer the open question (agents): the case returns to pending.")
    def provide_clarification(case_id: str, answer: str, request_id: str, notes: str = "") -> CallToolResult:
        return _answer(
            "provide_clarification",
            lambda: _service().provide_clarification(
                _who(), case_id, request_id=request_id, answer=answer, notes=notes
            ),
        )

    @server.tool(
        description="Record a decision (reviewers). The decision schema: decision approve|edit|reject|respond, feedback, answers, and for edit the edited payload; only the case's allowed_decisions (see get_case) are accepted. approve/edit count toward the adapter's required approvers; edit without a payload sends the case back to its submitter with the feedback (changes_requested); reject needs feedback (the reason); respond (only where the adapter lists it) sends feedback/answers back and ends the case without approving it. The older approved|rejected (notes = the reason) still work. The first terminal decision wins."
    )
    def record_decision(
        case_id: str,
        decision: str,
        request_id: str,
        notes: str = "",
        feedback: str = "",
        answers: list[str] | dict[str, str] | None = None,
        payload: dict[str, Any] | None = None,
    ) -> CallToolResult:
        def run() -> dict[str, Any]:
            if decision == "approved":
                return _service().approve(_who(), case_id, request_id=request_id, notes=notes)
            if decision == "rejected":
                return _service().reject(_who(), case_id, request_id=request_id, reason=notes)
            return _service().decide(
                _who(),
                case_id,
                request_id=request_id,
                decision=decision,
                feedback=feedback or notes,
                answers=answers,
                payload=payload,
            )

        return _answer("record_decision", run)


def _register_governance_tools(server: MCPServer) -> None:
    """Redaction (reviewers of the case's adapter) and the review metrics (an adapter the caller may
    read, or all of them for `reviewers:*`), as the stdio server has them."""

    @server.tool(description=REDACT_DESCRIPTION)
    def redact_case(case_id: str, fields: list[str], reason: str, request_id: str) -> CallToolResult:
        return _answer(
            "redact_case",
            lambda: _service().redact(_who(), case_id, fields=fields, reason=reason, request_id=request_id),
        )

    @server.tool(description=METRICS_DESCRIPTION)
    def review_metrics(
        from_ms: int, to_ms: int, period_ms: int | None = None, adapter_id: str | None = None
    ) -> CallToolResult:
        return _answer(
            "review_metrics",
            lambda: _service().metrics(
                _who(), from_ms=from_ms, to_ms=to_ms, period_ms=period_ms, adapter_id=adapter_id
            ),
        )


def _list_cases(
    state: str | None, adapter_id: str | None, priority: str | None, limit: int, cursor: str | None
) -> dict[str, Any]:
    """Decided cases (or all) from the listing, the caller's readable ones only; open ones from the
    review queue."""
    service, who = _service(), _who()
    if state in (None, "approved", "rejected"):
        page = service.cases.list_cases(
            state=state, adapter_id=adapter_id, priority=priority, limit=limit, cursor=cursor
        )
        visible = [r for r in page.items if service.readable(who, r.case.adapter_id)]
        return answers.items_answer(visible, answers.case_summary, page.next_cursor)
    return service.queue(who, QueueQuery(state, adapter_id, priority, None, limit))  # type: ignore[arg-type]


async def _serve(headers: Mapping[str, str], body: bytes, path: str) -> Reply:
    server = build_server()
    app = server.streamable_http_app(
        streamable_http_path=path,
        json_response=True,
        stateless_http=True,
        # API Gateway fronts the Lambda (Host is the API's domain); there is no local socket to rebind.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "https",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()],
        "client": ("127.0.0.1", 0),
        "server": ("lambda", 443),
    }
    done = anyio.Event()
    sent_body = False
    status = 500
    out_headers: dict[str, str] = {}
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent_body
        if not sent_body:
            sent_body = True
            return {"type": "http.request", "body": body, "more_body": False}
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])
            for key, value in message.get("headers", []):
                name = key.decode("latin-1")
                if name != "content-length":  # API Gateway sets it for the body it sends
                    out_headers[name] = value.decode("latin-1")
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                done.set()

    async with server.session_manager.run():
        await app(scope, receive, send)
    done.set()
    return Reply(status, b"".join(chunks).decode("utf-8"), out_headers)


def handle(
    review: ReviewService, who: Principal, *, headers: Mapping[str, str], body: str, path: str
) -> Reply:
    """Serve one MCP POST as `who`."""
    caller_token = _caller.set(who)
    review_token = _review.set(review)
    try:
        return anyio.run(_serve, headers, body.encode("utf-8"), path)
    finally:
        _review.reset(review_token)
        _caller.reset(caller_token)


__all__ = ["Reply", "build_server", "handle"]
