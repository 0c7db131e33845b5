"""`hitl`: the operator's command line over the SQLite store.

    hitl [--db PATH] schema register ADAPTER VERSION FILE   register a JSON Schema version (inactive)
    hitl schema activate ADAPTER VERSION                   make it the adapter's active version
    hitl schema list [ADAPTER]
    hitl queue [--adapter A] [--priority P] [--state S] [--limit N]
    hitl show CASE_ID                                      the case and its history
    hitl rebuild                                           recompute hitl_state from the events
    hitl drift                                             compare live vs recomputed projection (exit 2 on drift)
    hitl escalate                                          run the escalation sweep now
    hitl export --format csv|json --out DIR [--state S] [--adapter A]
    hitl verify-export DIR                                 check an export against its manifest

Every command prints one JSON answer (the same shapes as the MCP tools); exit 1 on an error answer.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from caseplatform import answers
from caseplatform.errors import CasePlatformError, SchemaInvalid
from caseplatform.escalation import sweep
from caseplatform.export import export_cases, verify_export
from caseplatform.projection import DriftReport
from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore

DEFAULT_DB = Path("data") / "hitl" / "hitl.db"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hitl", description="HITL case platform administration")
    parser.add_argument("--db", type=Path, default=DEFAULT_DB, help=f"SQLite database (default {DEFAULT_DB})")
    commands = parser.add_subparsers(dest="command", required=True)

    schema = commands.add_parser("schema", help="adapter schema registry").add_subparsers(
        dest="action", required=True
    )
    register = schema.add_parser("register")
    register.add_argument("adapter_id")
    register.add_argument("schema_version", type=int)
    register.add_argument("file", type=Path)
    activate = schema.add_parser("activate")
    activate.add_argument("adapter_id")
    activate.add_argument("schema_version", type=int)
    listing = schema.add_parser("list")
    listing.add_argument("adapter_id", nargs="?")

    queue = commands.add_parser("queue", help="the review queue")
    queue.add_argument("--adapter")
    queue.add_argument("--priority")
    queue.add_argument("--state")
    queue.add_argument("--limit", type=int, default=50)

    show = commands.add_parser("show", help="a case with its history")
    show.add_argument("case_id")

    commands.add_parser("rebuild", help="recompute the projection from the events")
    commands.add_parser("drift", help="check projection drift")
    commands.add_parser("escalate", help="run the escalation sweep")

    export = commands.add_parser("export", help="export cases with a manifest and checksums")
    export.add_argument("--format", choices=["csv", "json"], required=True)
    export.add_argument("--out", type=Path, required=True)
    export.add_argument("--state")
    export.add_argument("--adapter")

    verify = commands.add_parser("verify-export", help="check an export against its manifest")
    verify.add_argument("dir", type=Path)
    return parser


def _drift_answer(report: DriftReport) -> dict[str, Any]:
    return answers.success(
        drifted=report.drifted,
        live_hash=report.live_hash,
        recomputed_hash=report.recomputed_hash,
        drifted_case_ids=report.drifted_case_ids,
        cases=report.cases,
    )


def run(service: CaseService, args: argparse.Namespace) -> dict[str, Any]:
    if args.command == "schema":
        if args.action == "register":
            try:
                text = args.file.read_text(encoding="utf-8")
            except OSError as exc:
                raise SchemaInvalid(
                    [{"path": "$", "message": f"cannot read {args.file}: {exc.strerror}"}]
                ) from exc
            return answers.schema_answer(
                service.register_adapter_schema(args.adapter_id, args.schema_version, text)
            )
        if args.action == "activate":
            record, previous = service.activate_adapter_schema(args.adapter_id, args.schema_version)
            return answers.schema_answer(record, previous, activated=True)
        return answers.items_answer(
            service.store.list_schemas(args.adapter_id),
            lambda r: {
                "adapter_id": r.adapter_id,
                "schema_version": r.schema_version,
                "is_active": r.is_active,
            },
        )
    if args.command == "queue":
        records = service.list_review_queue(
            adapter_id=args.adapter, priority=args.priority, state=args.state, limit=args.limit
        )
        return answers.items_answer(records, answers.case_summary)
    if args.command == "show":
        case = answers.case_answer(service.get_case(args.case_id))
        history = service.get_case_history(args.case_id)
        return {**case, "history": [answers.event_dict(e) for e in history]}
    if args.command == "rebuild":
        repaired = service.rebuild_projection()
        return {**_drift_answer(service.check_drift()), "repaired_case_ids": repaired.drifted_case_ids}
    if args.command == "drift":
        return _drift_answer(service.check_drift())
    if args.command == "escalate":
        result = sweep(service)
        return answers.success(
            checked=result.checked, escalated=[answers.event_dict(e) for e in result.escalated]
        )
    if args.command == "export":
        return answers.success(
            manifest=export_cases(
                service, args.out, fmt=args.format, state=args.state, adapter_id=args.adapter
            )
        )
    bad = verify_export(args.dir)
    return answers.success(intact=not bad, mismatched_files=bad)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    store = SqliteCaseStore(args.db)
    try:
        service = CaseService(store)
        service.ensure_default_adapters()
        try:
            answer = run(service, args)
        except CasePlatformError as error:
            answer = answers.error_answer(error)
    finally:
        store.close()
    print(json.dumps(answer, indent=1, ensure_ascii=False))
    if answer["status"] != "success":
        return 1
    if answer.get("drifted") or answer.get("intact") is False:
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
