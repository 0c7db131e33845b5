"""The cross-case queries as tools, described once and served by both MCP surfaces (stdio in
`caseplatform.mcp_server`, Streamable HTTP in `caseplatform.review.mcp_http`) and by the review API.

Reading one case and listing cases are tools of their own (`get_case`, which also upcasts the payload
at read time, `list_cases`, `list_review_queue`). The queries here each answer
`{status, count, items, next_cursor}` (decision_stats: `{status, buckets}`); list queries take
`limit` (1-200) and pass `next_cursor` back as `cursor` on both stores. Times are epoch ms UTC.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp.server import MCPServer
from mcp.types import CallToolResult

from caseplatform import answers
from caseplatform.errors import EnvelopeInvalid
from caseplatform.model import CaseRecord, CaseState, Event
from caseplatform.queries import Bucket
from caseplatform.service import CaseService

QUERY_TOOLS = (
    "list_reviewed",
    "list_by_principal",
    "cases_by_ref",
    "cases_by_payload_field",
    "decision_stats",
    "audit_decisions",
    "clarification_backlog",
    "escalations_due",
)
MAX_BUCKETS = 1000
# The arguments each query requires (the rest are optional filters, limit and cursor).
QUERY_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "list_reviewed": (),
    "list_by_principal": ("principal",),
    "cases_by_ref": ("ref_type", "ref_key", "ref_value"),
    "cases_by_payload_field": ("adapter_id", "field", "value"),
    "decision_stats": ("to_ms",),
    "audit_decisions": (),
    "clarification_backlog": (),
    "escalations_due": (),
}


def _reviewed(item: tuple[Event, CaseRecord]) -> dict[str, Any]:
    event, record = item
    return {**answers.case_summary(record), "decision_event": answers.event_dict(event)}


def _backlog(item: tuple[CaseRecord, int]) -> dict[str, Any]:
    record, age_ms = item
    return {**answers.case_summary(record), "age_ms": age_ms}


def _bucket(bucket: Bucket) -> dict[str, Any]:
    return {
        "start_ms": bucket.start_ms,
        "submitted": bucket.submitted,
        "approved": bucket.approved,
        "rejected": bucket.rejected,
        "decided": bucket.decided,
        "approval_rate": bucket.approval_rate,
    }


def _case_id(case_id: str) -> dict[str, Any]:
    return {"case_id": case_id}


def _state(state: CaseState) -> dict[str, Any]:
    return answers.state_dict(state)


def run_query(service: CaseService, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """One query by name, as its answer. Unknown names and bad arguments are ENVELOPE_INVALID."""
    limit = args.get("limit")
    cursor = args.get("cursor")
    from_ms = int(args.get("from_ms") or 0)
    to_ms = None if args.get("to_ms") is None else int(args["to_ms"])
    if name == "list_reviewed":
        return _list_reviewed(service, args.get("decision"), from_ms, to_ms, limit, cursor)
    if name == "list_by_principal":
        principal = args.get("principal")
        if not isinstance(principal, str) or not principal.strip():
            raise EnvelopeInvalid([{"path": "$.principal", "message": "a principal id or name is required"}])
        return answers.page_answer(
            service.list_by_principal(principal, from_ms=from_ms, to_ms=to_ms, limit=limit, cursor=cursor),
            answers.event_dict,
        )
    if name == "audit_decisions":
        return answers.page_answer(
            service.audit_decisions(from_ms=from_ms, to_ms=to_ms, limit=limit, cursor=cursor),
            answers.event_dict,
        )
    if name == "cases_by_ref":
        ids = service.cases_by_ref(
            str(args["ref_type"]), str(args["ref_key"]), str(args["ref_value"]), limit=limit, cursor=cursor
        )
        return answers.page_answer(ids, _case_id)
    if name == "cases_by_payload_field":
        found = service.cases_by_payload_field(
            str(args["adapter_id"]), str(args["field"]), args.get("value"), limit=limit, cursor=cursor
        )
        return answers.page_answer(found, answers.case_summary)
    if name == "decision_stats":
        return _decision_stats(service, from_ms, to_ms, int(args.get("bucket_ms") or 24 * 3600 * 1000))
    if name == "clarification_backlog":
        return answers.page_answer(service.clarification_backlog(limit=limit, cursor=cursor), _backlog)
    if name == "escalations_due":
        within = int(args.get("within_ms") or 0)
        return answers.page_answer(
            service.escalations_due(within_ms=within, limit=limit, cursor=cursor), _state
        )
    raise EnvelopeInvalid([{"path": "$.query", "message": f"unknown query {name!r}"}])


def _list_reviewed(
    service: CaseService, decision: Any, from_ms: int, to_ms: int | None, limit: Any, cursor: Any
) -> dict[str, Any]:
    if decision not in (None, "approved", "rejected"):
        raise EnvelopeInvalid([{"path": "$.decision", "message": "decision must be approved or rejected"}])
    reviewed = service.list_reviewed(
        decision=decision, from_ms=from_ms, to_ms=to_ms, limit=limit, cursor=cursor
    )
    return answers.page_answer(reviewed, _reviewed)


def _decision_stats(service: CaseService, from_ms: int, to_ms: int | None, bucket_ms: int) -> dict[str, Any]:
    if to_ms is None:
        raise EnvelopeInvalid([{"path": "$.to_ms", "message": "decision_stats needs to_ms"}])
    if bucket_ms <= 0 or to_ms <= from_ms or (to_ms - from_ms) // bucket_ms >= MAX_BUCKETS:
        message = f"need from_ms < to_ms and at most {MAX_BUCKETS} buckets"
        raise EnvelopeInvalid([{"path": "$.bucket_ms", "message": message}])
    buckets = service.decision_stats(from_ms=from_ms, to_ms=to_ms, bucket_ms=bucket_ms)
    return answers.success(buckets=[_bucket(b) for b in buckets])


Answer = Callable[[str, Callable[[], dict[str, Any]]], CallToolResult]


Run = Callable[[str, dict[str, Any]], dict[str, Any]]


def register_query_tools(server: MCPServer, answer: Answer, run: Run) -> None:
    """Add the query tools to `server`. `run(name, args)` answers one query (stdio: `run_query` on
    its service; HTTP: the review service, which checks the caller's rights first); `answer(tool,
    produce)` turns the answer, or a domain error, into the tool result."""

    def call(name: str, **args: Any) -> CallToolResult:
        return answer(name, lambda: run(name, args))

    _register_listings(server, call)
    _register_reports(server, call)


Call = Callable[..., CallToolResult]


def _register_listings(server: MCPServer, call: Call) -> None:
    """The queries that list decisions, events and cases by what they are linked to."""

    @server.tool(
        description="Reviewed cases by decision (approved|rejected, or both) in a decision-time window, newest decision first."
    )
    def list_reviewed(
        decision: str | None = None,
        from_ms: int = 0,
        to_ms: int | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> CallToolResult:
        return call(
            "list_reviewed", decision=decision, from_ms=from_ms, to_ms=to_ms, limit=limit, cursor=cursor
        )

    @server.tool(
        description="Every event a principal (its id, else display name) caused in a time window, newest first."
    )
    def list_by_principal(
        principal: str, from_ms: int = 0, to_ms: int | None = None, limit: int = 50, cursor: str | None = None
    ) -> CallToolResult:
        return call(
            "list_by_principal", principal=principal, from_ms=from_ms, to_ms=to_ms, limit=limit, cursor=cursor
        )

    @server.tool(description="Case ids linked to an external entity (ref_type, ref_key, ref_value).")
    def cases_by_ref(
        ref_type: str, ref_key: str, ref_value: str, limit: int = 50, cursor: str | None = None
    ) -> CallToolResult:
        return call(
            "cases_by_ref",
            ref_type=ref_type,
            ref_key=ref_key,
            ref_value=ref_value,
            limit=limit,
            cursor=cursor,
        )

    @server.tool(
        description="Cases of an adapter whose payload (read as the active schema version) has the dotted `field` equal to `value`; at most `limit`, then `next_cursor`."
    )
    def cases_by_payload_field(
        adapter_id: str, field: str, value: Any, limit: int = 50, cursor: str | None = None
    ) -> CallToolResult:
        return call(
            "cases_by_payload_field",
            adapter_id=adapter_id,
            field=field,
            value=value,
            limit=limit,
            cursor=cursor,
        )


def _register_reports(server: MCPServer, call: Call) -> None:
    """The queries that report: decision statistics, the audit trail, backlogs and escalations."""

    @server.tool(
        description="Submitted, approved, rejected and the approval rate per time bucket (bucket_ms, default one day)."
    )
    def decision_stats(from_ms: int, to_ms: int, bucket_ms: int = 24 * 3600 * 1000) -> CallToolResult:
        return call("decision_stats", from_ms=from_ms, to_ms=to_ms, bucket_ms=bucket_ms)

    @server.tool(
        description="Who decided what and when: decision events with their actors (and assurance), newest first."
    )
    def audit_decisions(
        from_ms: int = 0, to_ms: int | None = None, limit: int = 50, cursor: str | None = None
    ) -> CallToolResult:
        return call("audit_decisions", from_ms=from_ms, to_ms=to_ms, limit=limit, cursor=cursor)

    @server.tool(description="Cases waiting for a clarification, with their age in ms.")
    def clarification_backlog(limit: int = 50, cursor: str | None = None) -> CallToolResult:
        return call("clarification_backlog", limit=limit, cursor=cursor)

    @server.tool(description="Cases whose escalation is overdue, or due within `within_ms`.")
    def escalations_due(within_ms: int = 0, limit: int = 50, cursor: str | None = None) -> CallToolResult:
        return call("escalations_due", within_ms=within_ms, limit=limit, cursor=cursor)
