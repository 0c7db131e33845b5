"""Redaction and retention at the entry points: the MCP tool `redact_case` (stdio) and the CLI
commands `hitl redact CASE_ID --field PATH [--field PATH ...] --reason TEXT` and
`hitl retention run [--now-ms N] [--max-cases N] [--cursor C] [--archive-dir DIR]`.

The answers: a redaction's `{status, case_id, event_id, event_type, redacted_fields,
payload_hash_after, replayed?}`; a retention run's `{status, checked, purged_case_ids, archived
{case_id: where}, unarchived_case_ids, next_cursor, complete, stopped_by}`."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp.server import MCPServer
from mcp.types import CallToolResult

from caseplatform import answers
from caseplatform.governance.retention import Archive, DirectoryArchive, RetentionReport, run_retention
from caseplatform.model import Event
from caseplatform.service import CaseService

# The CLI's default bound of one retention run (the escalation Lambda's is its setting).
DEFAULT_MAX_CASES = 5000
ARCHIVE_DIR = "archive"

REDACT_DESCRIPTION = (
    "Blank payload fields of a case (dotted paths, e.g. contact.phone) in the stored payload, in any "
    "state, recording a `redacted` event with the fields, the reason and the payload's hash after. "
    "Earlier events stay as written; views of the case show the fields blanked."
)

Answer = Callable[[str, Callable[[], dict[str, Any]]], CallToolResult]


def redaction_answer(event: Event) -> dict[str, Any]:
    return answers.success(
        case_id=event.case_id,
        event_id=event.event_id,
        event_type=event.event_type,
        redacted_fields=list(event.redacted_fields or ()),
        payload_hash_after=event.payload_hash_after,
    )


def report_answer(report: RetentionReport) -> dict[str, Any]:
    return answers.success(
        checked=report.checked,
        purged_case_ids=report.purged_case_ids,
        archived=report.archived,
        unarchived_case_ids=report.unarchived_case_ids,
        next_cursor=report.next_cursor,
        complete=report.complete,
        stopped_by=report.stopped_by,
    )


def register_redaction_tools(
    server: MCPServer, answer: Answer, service: CaseService, actor: dict[str, Any]
) -> None:
    """Add `redact_case` to `server`, acting as `actor`."""

    @server.tool(description=REDACT_DESCRIPTION)
    def redact_case(case_id: str, fields: list[str], reason: str, request_id: str) -> CallToolResult:
        return answer(
            "redact_case",
            lambda: redaction_answer(
                service.redact_case(
                    case_id=case_id, fields=fields, reason=reason, actor=actor, request_id=request_id
                )
            ),
        )


def add_retention_commands(commands: Any) -> None:
    """`hitl redact ...` and `hitl retention run ...`."""
    redact = commands.add_parser("redact", help="blank payload fields of a case, recorded as an event")
    redact.add_argument("case_id")
    redact.add_argument("--field", action="append", required=True, help="a dotted path; repeat for more")
    redact.add_argument("--reason", required=True)
    redact.add_argument("--actor", default="hitl-cli", help="the operator's principal id (default hitl-cli)")
    redact.add_argument("--request-id", help="the request's id (a retry with it writes nothing new)")
    retention = commands.add_parser("retention", help="adapter retention").add_subparsers(
        dest="action", required=True
    )
    run = retention.add_parser("run", help="purge or archive the decided cases past their retention")
    run.add_argument("--now-ms", type=int, help="the time the run takes as now, epoch ms (default: now)")
    run.add_argument("--max-cases", type=int, default=DEFAULT_MAX_CASES)
    run.add_argument("--cursor", help="resume after the next_cursor of an earlier run")
    run.add_argument(
        "--archive-dir",
        type=Path,
        help=f"where archived cases go (default: {ARCHIVE_DIR}/ next to the SQLite file)",
    )


def run_redact_command(service: CaseService, args: argparse.Namespace) -> dict[str, Any]:
    actor = {"name": args.actor, "role": "operator", "id": args.actor, "kind": "operator"}
    request_id = args.request_id or f"redact-{service.clock()}"
    event = service.redact_case(
        case_id=args.case_id, fields=args.field, reason=args.reason, actor=actor, request_id=request_id
    )
    return redaction_answer(event)


def run_retention_command(
    service: CaseService, args: argparse.Namespace, archive: Archive | None = None
) -> dict[str, Any]:
    """`archive`: the store's archive when it is not a directory (DynamoDB: the S3 bucket)."""
    if args.archive_dir is not None or archive is None:
        archive = DirectoryArchive(args.archive_dir or args.files_dir / ARCHIVE_DIR)
    report = run_retention(
        service,
        now_ms=service.clock() if args.now_ms is None else args.now_ms,
        archive=archive,
        max_cases=args.max_cases,
        cursor=args.cursor,
    )
    return report_answer(report)
