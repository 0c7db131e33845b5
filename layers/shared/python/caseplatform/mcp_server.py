"""The case platform's MCP server (stdio): the platform's tools over a `CaseService`.

`hitl-mcp --db PATH --actor ID [--actor-name N] [--actor-role R] [--actor-kind operator|agent]`
(default database `data/hitl/hitl.db`, relative to the working directory) serves the SQLite store.
stdout carries nothing but the protocol; logs go to stderr.

Trust boundary: whoever can start this process can act as anyone, so the actor of every event is
the one the process was configured with (`--actor`, default the OS login name), never an argument a
tool caller supplies, and every event records assurance `local-unverified`. The approver policy
applies as on every surface: `record_decision(approved)` counts toward the adapter's required
approvers, the submitter may not approve its own case, and only the case's allowed decisions pass.

Every tool returns the shapes of `caseplatform.answers` as structured content (and the same JSON as text):
`{"status": "success", ...}`, `{"status": "error", "code": ...}` (with `isError` set) or
`{"status": "not_found", "case_id": ...}`. Domain errors become answers by type, in one place
(`caseplatform.mcp_answers`). The agent-facing tools (request_human_input, resubmit_case,
leave_feedback, wait_for_case, register_callback) are in `caseplatform.mcp_agent_tools`; the
server POSTs each decision, question and request for changes it writes to the callbacks registered
for the case (`caseplatform.notifications`).
"""

from __future__ import annotations

import argparse
import getpass
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mcp.server import MCPServer
from mcp.types import CallToolResult

from caseplatform import answers
from caseplatform.callbacks import CallbackSink
from caseplatform.governance.metrics_tools import register_metrics_tools
from caseplatform.governance.retention_tools import register_redaction_tools
from caseplatform.human_input import ensure_human_input_adapter
from caseplatform.mcp_agent_tools import AgentToolsConfig, register_agent_tools
from caseplatform.mcp_answers import answer_call
from caseplatform.mcp_answers import tool_result as tool_result  # re-exported for the HTTP surface
from caseplatform.model import Event
from caseplatform.notifications import NotifyingListener
from caseplatform.ports import system_clock
from caseplatform.query_tools import register_query_tools, run_query
from caseplatform.redaction import REDACTORS
from caseplatform.service import CaseService, build_case_service
from caseplatform.stores.sqlite import SqliteCaseStore
from caseplatform.stores.sqlite_callbacks import SqliteCallbacks
from caseplatform.version import platform_version

DEFAULT_DB = Path("data") / "hitl" / "hitl.db"
INSTRUCTIONS = (
    "Human-in-the-loop case platform. Agents submit cases (submit_case) for operator review; operators "
    "request clarification, record approved/rejected decisions (first terminal decision wins). Every "
    "mutating tool needs a request_id: retrying with the same request_id returns the first answer."
)

# Tools both surfaces (stdio here, HTTP in `caseplatform.review.mcp_http`) describe the same way.
LIST_REVIEW_QUEUE_DESCRIPTION = (
    "Open cases (pending and needs_clarification) most urgent first: priority, then oldest."
)
GET_CASE_HISTORY_DESCRIPTION = "The case's append-only event history, oldest first."
RECORD_DECISION_DESCRIPTION = (
    "Record a decision. The decision schema: decision approve|edit|reject|respond, feedback, answers, "
    "and for edit the edited payload; only the case's allowed_decisions are accepted. approve/edit "
    "count toward the adapter's required approvers (the submitter may never approve its own case); "
    "edit without a payload sends the case back to its submitter with the feedback (changes_requested); "
    "reject needs feedback (the reason); respond (only where the adapter lists it) sends feedback/answers "
    "back and ends the case without approving it. approved|rejected (notes = the reason) still work. The first terminal decision wins."
)


def answers_of_transition(event: Event) -> dict[str, Any]:
    """A decision's answer: the transition, plus the structured decision when one was recorded."""
    answer = answers.transition_answer(event)
    for name, key in (("decision", "structured_decision"), ("feedback", "feedback"), ("answers", "answers")):
        value = getattr(event, name)
        if value is not None:
            answer[key] = value
    if event.approved_payload is not None:
        answer["approved_payload"] = event.approved_payload
    return answer


log = logging.getLogger("caseplatform.mcp")


def local_actor(
    actor_id: str, *, name: str | None = None, role: str = "operator", kind: str = "operator"
) -> dict[str, Any]:
    """The configured principal of a stdio server: every event it writes is this actor's."""
    return {
        "name": name or actor_id,
        "role": role,
        "id": actor_id,
        "kind": kind,
        "assurance": "local-unverified",
    }


def build_server(
    service: CaseService, actor: dict[str, Any], agent_tools: AgentToolsConfig | None = None
) -> MCPServer:
    """The stdio tools, acting as `actor` (`local_actor`); submissions are the actor's as an agent.
    `agent_tools`: how the agent-facing tools are wired (`caseplatform.mcp_agent_tools`)."""
    server: MCPServer = MCPServer(
        name="hitl-case-platform", instructions=INSTRUCTIONS, version=platform_version()
    )
    _register_capture_tools(server, service, actor)
    _register_review_tools(server, service, actor)
    _register_decision_tools(server, service, actor)
    register_query_tools(server, answer_call, lambda name, args: run_query(service, name, args))
    register_metrics_tools(server, answer_call, service)
    register_redaction_tools(server, answer_call, service, actor)
    _register_admin_tools(server, service)
    register_agent_tools(server, service, actor, agent_tools or AgentToolsConfig())
    return server


def _register_capture_tools(server: MCPServer, service: CaseService, actor: dict[str, Any]) -> None:
    """Submitting a case and reading cases."""
    submitter: dict[str, Any] = {k: actor[k] for k in ("name", "role", "id", "assurance") if k in actor}

    @server.tool(
        description="Submit a case for review as this server's configured actor. refs: [{ref_type, ref_key, ref_value}]; priority: low|normal|high|critical; confidence: high|medium|low."
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
        def run() -> dict[str, Any]:
            event, case = service.submit_case(
                adapter_id=adapter_id,
                case_type=case_type,
                title=title,
                summary=summary,
                payload=payload,
                submitter=submitter,
                request_id=request_id,
                priority=priority,
                confidence=confidence,
                refs=refs,
            )
            return answers.submit_answer(event, case)

        return answer_call("submit_case", run)

    @server.tool(
        description="A case: envelope, payload (read as the adapter's active schema version), refs and state."
    )
    def get_case(case_id: str) -> CallToolResult:
        return answer_call("get_case", lambda: answers.case_answer(service.get_case(case_id)))

    @server.tool(
        description="Cases newest first, filtered by state / adapter_id / priority; pass next_cursor back as cursor."
    )
    def list_cases(
        state: str | None = None,
        adapter_id: str | None = None,
        priority: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> CallToolResult:
        return answer_call(
            "list_cases",
            lambda: answers.page_answer(
                service.list_cases(
                    state=state, adapter_id=adapter_id, priority=priority, limit=limit, cursor=cursor
                ),
                answers.case_summary,
            ),
        )


def _register_review_tools(server: MCPServer, service: CaseService, actor: dict[str, Any]) -> None:
    """The review queue and the clarification round."""

    @server.tool(description=LIST_REVIEW_QUEUE_DESCRIPTION)
    def list_review_queue(
        adapter_id: str | None = None, priority: str | None = None, state: str | None = None, limit: int = 50
    ) -> CallToolResult:
        return answer_call(
            "list_review_queue",
            lambda: answers.items_answer(
                service.list_review_queue(adapter_id=adapter_id, priority=priority, state=state, limit=limit),
                answers.case_summary,
            ),
        )

    @server.tool(
        description="Ask a follow-up question: the case moves to needs_clarification (non-terminal)."
    )
    def request_clarification(
        case_id: str, request_id: str, question: str | None = None, notes: str = ""
    ) -> CallToolResult:
        return answer_call(
            "request_clarification",
            lambda: answers.transition_answer(
                service.request_clarification(
                    case_id=case_id,
                    question=question,
                    notes=notes,
                    actor=actor,
                    request_id=request_id,
                )
            ),
        )

    @server.tool(description="Answer the open question: the case returns to pending.")
    def provide_clarification(
        case_id: str, request_id: str, answer: str | None = None, notes: str = ""
    ) -> CallToolResult:
        return answer_call(
            "provide_clarification",
            lambda: answers.transition_answer(
                service.provide_clarification(
                    case_id=case_id, answer=answer, notes=notes, actor=actor, request_id=request_id
                )
            ),
        )


def _register_decision_tools(server: MCPServer, service: CaseService, actor: dict[str, Any]) -> None:
    """Deciding a case, and its history."""

    @server.tool(description=RECORD_DECISION_DESCRIPTION)
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
            if decision in ("approved", "rejected"):
                return answers_of_transition(
                    service.record_decision(
                        case_id=case_id, decision=decision, notes=notes, actor=actor, request_id=request_id
                    )
                )
            done = service.decide(
                case_id=case_id,
                decision=decision,
                feedback=feedback or notes,
                answers=answers,
                payload=payload,
                actor=actor,
                request_id=request_id,
            )
            return answers_of_transition(done if isinstance(done, Event) else done.event)

        return answer_call("record_decision", run)

    @server.tool(description=GET_CASE_HISTORY_DESCRIPTION)
    def get_case_history(case_id: str) -> CallToolResult:
        return answer_call(
            "get_case_history", lambda: answers.history_answer(case_id, service.get_case_history(case_id))
        )


def _register_admin_tools(server: MCPServer, service: CaseService) -> None:
    """The adapter schema registry (stdio only)."""

    @server.tool(
        description="Register a JSON Schema (draft 2020-12) version for an adapter; inactive until activated. Optional x-hitl keyword: SLA/escalation policy and upcast rules."
    )
    def register_adapter_schema(
        adapter_id: str, schema_version: int, schema_json: dict[str, Any] | str
    ) -> CallToolResult:
        return answer_call(
            "register_adapter_schema",
            lambda: answers.schema_answer(
                service.register_adapter_schema(adapter_id, schema_version, schema_json)
            ),
        )

    @server.tool(description="Make a registered schema version the adapter's only active version.")
    def activate_adapter_schema(adapter_id: str, schema_version: int) -> CallToolResult:
        def run() -> dict[str, Any]:
            record, previous = service.activate_adapter_schema(adapter_id, schema_version)
            return answers.schema_answer(record, previous, activated=True)

        return answer_call("activate_adapter_schema", run)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="hitl-mcp", description="HITL case platform MCP server (stdio)")
    parser.add_argument("--db", type=Path, default=DEFAULT_DB, help=f"SQLite database (default {DEFAULT_DB})")
    parser.add_argument(
        "--redact", choices=sorted(REDACTORS), default="none", help="ingestion redaction hook"
    )
    parser.add_argument(
        "--actor",
        default=None,
        help="the principal id every event of this server is recorded under (default: the OS login name)",
    )
    parser.add_argument("--actor-name", help="its display name (default: the id)")
    parser.add_argument("--actor-role", default="operator", help="its role (default: operator)")
    parser.add_argument(
        "--actor-kind", choices=["operator", "agent"], default="operator", help="operator (decides) or agent"
    )
    args = parser.parse_args(argv)
    actor_id = args.actor or getpass.getuser()
    if not actor_id.strip() or len(actor_id) > 200:
        parser.error("--actor must be 1-200 characters")
    actor = local_actor(actor_id, name=args.actor_name, role=args.actor_role, kind=args.actor_kind)
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    if not args.db.exists():  # never a silently new, empty database (a typo in --db reads no cases)
        logging.getLogger("hitl-mcp").warning("created a new case database at %s", args.db)
    store = SqliteCaseStore(args.db)
    callbacks = SqliteCallbacks(args.db, clock=system_clock)
    # Every decision, question and request for changes this server writes is POSTed to the
    # callbacks agents registered for the case (the agent's own server registers them).
    listener = NotifyingListener([CallbackSink(callbacks)])
    service = build_case_service(store, redact=args.redact, listeners=[listener])
    added = service.ensure_default_adapters() + ensure_human_input_adapter(service)
    log.info(
        "HITL_MCP_START",
        extra={
            "db": str(args.db),
            "default_adapters_added": added,
            "actor": actor_id,
            "assurance": "local-unverified",
        },
    )
    try:
        build_server(service, actor, AgentToolsConfig(callbacks=callbacks, local=True)).run("stdio")
    finally:
        callbacks.close()
        store.close()


if __name__ == "__main__":
    main()
