"""The case platform's MCP server (stdio): the plan's tool surface over a `CaseService`.

`hitl-mcp --db PATH` (default `data/hitl/hitl.db`, relative to the working directory) serves the
SQLite store. stdout carries nothing but the protocol; logs go to stderr.

Every tool returns the plan's shapes as structured content (and the same JSON as text):
`{"status": "success", ...}`, `{"status": "error", "code": ...}` (with `isError` set) or
`{"status": "not_found", "case_id": ...}`. Domain errors become answers here, by type, in one place.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mcp.server import MCPServer
from mcp.types import CallToolResult, TextContent

from caseplatform import answers
from caseplatform.errors import CasePlatformError
from caseplatform.redaction import REDACTORS
from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore

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

log = logging.getLogger("caseplatform.mcp")


def tool_result(answer: dict[str, Any], *, ensure_ascii: bool = False) -> CallToolResult:
    """An answer as a tool result: structured content, the same JSON as text, `isError` on errors."""
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(answer, ensure_ascii=ensure_ascii))],
        structured_content=answer,
        is_error=answer.get("status") == "error",
    )


def answer_call(tool: str, produce: Callable[[], dict[str, Any]]) -> CallToolResult:
    """Run one tool body; a domain error becomes its answer. Anything else is a bug and propagates
    (the SDK reports it as a tool error without leaking details)."""
    try:
        answer = produce()
    except CasePlatformError as error:
        answer = answers.error_answer(error)
    log.info("HITL_TOOL", extra={"tool": tool, "status": answer["status"], "code": answer.get("code")})
    return tool_result(answer)


def build_server(service: CaseService) -> MCPServer:
    server: MCPServer = MCPServer(name="hitl-case-platform", instructions=INSTRUCTIONS)

    # ---------------------------------------------------------------- capture
    @server.tool(
        description="Submit a case for review. submitter: {name, role, id?, team?}; refs: [{ref_type, ref_key, ref_value}]; priority: low|normal|high|critical; confidence: high|medium|low."
    )
    def submit_case(
        adapter_id: str,
        case_type: str,
        title: str,
        summary: str,
        payload: dict[str, Any],
        submitter: dict[str, Any],
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

    # ---------------------------------------------------------------- review / follow-up
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
        description="Ask a follow-up question: the case moves to needs_clarification (non-terminal). actor: {name, role, id?, team?, kind?: operator|agent}."
    )
    def request_clarification(
        case_id: str, actor: dict[str, Any], request_id: str, question: str | None = None, notes: str = ""
    ) -> CallToolResult:
        return answer_call(
            "request_clarification",
            lambda: answers.transition_answer(
                service.request_clarification(
                    case_id=case_id, question=question, notes=notes, actor=actor, request_id=request_id
                )
            ),
        )

    @server.tool(description="Answer the open question: the case returns to pending.")
    def provide_clarification(
        case_id: str, actor: dict[str, Any], request_id: str, answer: str | None = None, notes: str = ""
    ) -> CallToolResult:
        return answer_call(
            "provide_clarification",
            lambda: answers.transition_answer(
                service.provide_clarification(
                    case_id=case_id, answer=answer, notes=notes, actor=actor, request_id=request_id
                )
            ),
        )

    @server.tool(
        description="Record the terminal decision: approved or rejected. The first terminal decision wins."
    )
    def record_decision(
        case_id: str, decision: str, actor: dict[str, Any], request_id: str, notes: str = ""
    ) -> CallToolResult:
        return answer_call(
            "record_decision",
            lambda: answers.transition_answer(
                service.record_decision(
                    case_id=case_id, decision=decision, notes=notes, actor=actor, request_id=request_id
                )
            ),
        )

    @server.tool(description=GET_CASE_HISTORY_DESCRIPTION)
    def get_case_history(case_id: str) -> CallToolResult:
        return answer_call(
            "get_case_history", lambda: answers.history_answer(case_id, service.get_case_history(case_id))
        )

    # ---------------------------------------------------------------- admin
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

    return server


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="hitl-mcp", description="HITL case platform MCP server (stdio)")
    parser.add_argument("--db", type=Path, default=DEFAULT_DB, help=f"SQLite database (default {DEFAULT_DB})")
    parser.add_argument(
        "--redact", choices=sorted(REDACTORS), default="none", help="ingestion redaction hook"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    store = SqliteCaseStore(args.db)
    service = CaseService(store, redactor=REDACTORS[args.redact])
    added = service.ensure_default_adapters()
    log.info("HITL_MCP_START", extra={"db": str(args.db), "default_adapters_added": added})
    try:
        build_server(service).run("stdio")
    finally:
        store.close()


if __name__ == "__main__":
    main()
