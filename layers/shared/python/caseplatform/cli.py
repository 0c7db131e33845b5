"""`hitl`: the operator's command line over a case store: the SQLite file (`--db PATH`, or
`--store sqlite:///PATH`) or the deployed DynamoDB table (`--store dynamodb://TABLE`; region,
endpoint and credentials from the usual AWS environment: AWS_REGION / AWS_DEFAULT_REGION,
AWS_ENDPOINT_URL_DYNAMODB, AWS_PROFILE...).

    hitl [--db PATH | --store URL] schema register ADAPTER VERSION FILE   register a version (inactive)
    hitl schema activate ADAPTER VERSION                   make it the adapter's active version
    hitl schema list [ADAPTER]
    hitl queue [--adapter A] [--priority P] [--state S] [--limit N]
    hitl show CASE_ID                                      the case and its history
    hitl rebuild                                           repair the projection from the events
    hitl drift                                             compare live vs recomputed projection (exit 2 on drift)
    hitl escalate [--notify-file F] [--review-url URL]     run the escalation sweep and the tiers now; notices to F
    hitl export --format csv|json --out DIR [--state S] [--adapter A]
    hitl verify-export DIR                                 check an export against its manifest
    hitl metrics [--adapter A] [--from-ms N] [--to-ms N] [--period all|day|week]   review latency, clarification turnaround
    hitl redact CASE_ID --field PATH [--field PATH ...] --reason TEXT [--actor ID] [--request-id R]
                                                           blank payload fields, recorded as a `redacted` event
    hitl retention run [--now-ms N] [--max-cases N] [--cursor C] [--archive-dir DIR]
                                                           apply the adapters' retention to decided cases

Every command prints one JSON answer (the same shapes as the MCP tools); exit 1 on an error answer,
exit 2 on a usage error (an unknown option or filter value: state, priority, limit, an adapter
without a schema; a store URL of another scheme, a table that cannot be reached; a command that only
reads on a SQLite file that does not exist: never a silently created empty database). A command that
writes creates a missing SQLite file and says so on stderr. Output into a
closed pipe (`hitl queue | head -1`) ends quietly.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from caseplatform import answers
from caseplatform.errors import CasePlatformError, SchemaInvalid
from caseplatform.escalation import JsonLinesSink, case_link, sweep
from caseplatform.export import export_cases, verify_export
from caseplatform.governance.metrics_tools import add_metrics_command, run_metrics_command
from caseplatform.governance.retention_tools import (
    add_retention_commands,
    run_redact_command,
    run_retention_command,
)
from caseplatform.governance.tiers import sweep_tiers
from caseplatform.model import OPEN_STATES, PRIORITIES
from caseplatform.ports import CaseStore
from caseplatform.projection import DriftReport
from caseplatform.service import CaseService, build_case_service
from caseplatform.stores.sqlite import SqliteCaseStore

DEFAULT_DB = Path("data") / "hitl" / "hitl.db"
STATES = ("pending", "needs_clarification", "changes_requested", "approved", "rejected")
NOTICES_FILE = "escalations.jsonl"
SQLITE_SCHEME = "sqlite://"
DYNAMODB_SCHEME = "dynamodb://"
# DynamoDB's own rule for a table name.
TABLE_NAME = re.compile(r"[A-Za-z0-9_.-]{3,255}")


def _limit(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 200:
        raise argparse.ArgumentTypeError(f"{value} is not between 1 and 200")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hitl", description="HITL case platform administration")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", type=Path, help=f"SQLite database (default {DEFAULT_DB})")
    where.add_argument(
        "--store",
        help="the case store as a URL: sqlite:///PATH or dynamodb://TABLE (region and endpoint from the AWS environment)",
    )
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
    queue.add_argument("--priority", choices=PRIORITIES)
    queue.add_argument("--state", choices=OPEN_STATES)
    queue.add_argument("--limit", type=_limit, default=50)

    show = commands.add_parser("show", help="a case with its history")
    show.add_argument("case_id")

    commands.add_parser("rebuild", help="recompute the projection from the events")
    commands.add_parser("drift", help="check projection drift")
    escalate = commands.add_parser("escalate", help="run the escalation sweep")
    escalate.add_argument(
        "--notify-file",
        type=Path,
        help=f"append each escalation notice to this JSON-lines file (default: {NOTICES_FILE} next to the"
        " SQLite file; in the working directory for DynamoDB)",
    )
    escalate.add_argument("--review-url", help="the reviewer page; notices link to <url>#case=<id>")

    export = commands.add_parser("export", help="export cases with a manifest and checksums")
    export.add_argument("--format", choices=["csv", "json"], required=True)
    export.add_argument("--out", type=Path, required=True)
    export.add_argument("--state", choices=STATES)
    export.add_argument("--adapter")

    verify = commands.add_parser("verify-export", help="check an export against its manifest")
    verify.add_argument("dir", type=Path)
    add_metrics_command(commands)
    add_retention_commands(commands)
    return parser


def _drift_answer(report: DriftReport) -> dict[str, Any]:
    return answers.success(
        drifted=report.drifted,
        live_hash=report.live_hash,
        recomputed_hash=report.recomputed_hash,
        drifted_case_ids=report.drifted_case_ids,
        cases=report.cases,
    )


def _escalate(service: CaseService, args: argparse.Namespace) -> dict[str, Any]:
    """The clarification sweep, then the pending cases' escalation tiers; notices to one file."""
    notices = args.notify_file or args.files_dir / NOTICES_FILE
    result = sweep(service, notifier=JsonLinesSink(notices), link=case_link(args.review_url))
    tiers = sweep_tiers(service, notifier=JsonLinesSink(notices), link=case_link(args.review_url))
    return answers.success(
        checked=result.checked,
        escalated=[answers.event_dict(e) for e in result.escalated],
        reassigned=[answers.event_dict(e) for e in tiers.reassigned],
        notified=[n.case_id for n in [*result.notified, *tiers.notified]],
        notify_failed=result.failed_notifications + tiers.failed_notifications,
        notices_file=str(notices),
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
        before = service.rebuild_projection()
        after = service.check_drift()
        repaired = [c for c in before.drifted_case_ids if c not in set(after.drifted_case_ids)]
        return {**_drift_answer(after), "repaired_case_ids": repaired}
    if args.command == "drift":
        return _drift_answer(service.check_drift())
    if args.command == "escalate":
        return _escalate(service, args)
    if args.command == "metrics":
        return run_metrics_command(service, args)
    if args.command == "redact":
        return run_redact_command(service, args)
    if args.command == "retention":
        return run_retention_command(service, args)
    if args.command == "export":
        return answers.success(
            manifest=export_cases(
                service, args.out, fmt=args.format, state=args.state, adapter_id=args.adapter
            )
        )
    bad = verify_export(args.dir)
    return answers.success(intact=not bad, mismatched_files=bad)


def open_store(args: argparse.Namespace) -> tuple[CaseStore, Callable[[], None]]:
    """The store `--db` or `--store` names and how to close it; `args.files_dir` is set to the
    folder of files written next to it. ValueError for a URL of another scheme or a table that
    cannot be reached."""
    url = args.store
    if url is None or url.startswith(SQLITE_SCHEME):
        if url == SQLITE_SCHEME:
            raise ValueError(f"{url!r} names no file: use sqlite:///PATH")
        path = Path(url.removeprefix(SQLITE_SCHEME)) if url else (args.db or DEFAULT_DB)
        if not path.exists():
            if _only_reads(args):
                raise ValueError(
                    f"no case database at {path}: nothing to read (a command that writes, such as"
                    " `schema list` which installs the default adapters, creates one; a deployed store"
                    " is --store dynamodb://TABLE)"
                )
            print(f"hitl: created a new case database at {path}", file=sys.stderr)
        sqlite = SqliteCaseStore(path)
        args.files_dir = path.parent
        return sqlite, sqlite.close
    if url.startswith(DYNAMODB_SCHEME):
        table = url.removeprefix(DYNAMODB_SCHEME)
        if not TABLE_NAME.fullmatch(table):
            raise ValueError(f"{table!r} is not a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -)")
        from caseplatform.stores.dynamodb import DynamoCaseStore, connect  # boto3 only when asked for

        args.files_dir = Path()
        return DynamoCaseStore(table, connect(table)), lambda: None
    raise ValueError(f"{url!r} is not a store URL: use sqlite:///PATH or dynamodb://TABLE")


def _only_reads(args: argparse.Namespace) -> bool:
    """A command that only reads the store: on a file that does not exist it would read an empty
    database it had just created, and answer as if there were no cases."""
    return args.command in {"queue", "show", "drift", "export"}


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        store, close = open_store(args)
    except ValueError as problem:
        parser.error(str(problem))  # exits 2
    try:
        service = build_case_service(store)
        if isinstance(store, SqliteCaseStore):
            service.ensure_default_adapters()  # a new local file; the deployed stack installs its own
        adapter = getattr(args, "adapter", None)
        if adapter is not None and store.active_schema(adapter) is None:
            known = ", ".join(sorted({r.adapter_id for r in store.list_schemas(None)}))
            parser.error(f"no adapter {adapter!r} (known: {known})")  # exits 2
        try:
            answer = run(service, args)
        except CasePlatformError as error:
            answer = answers.error_answer(error)
    finally:
        close()
    if not _emit(json.dumps(answer, indent=1, ensure_ascii=False)):
        return 0
    if answer["status"] != "success":
        return 1
    if answer.get("drifted") or answer.get("intact") is False:
        return 2
    return 0


def _emit(text: str) -> bool:
    """Print the answer; False when the reader closed the pipe (`| head`): then stdout is pointed at
    /dev/null so the interpreter's final flush does not raise either, and the command ends quietly."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
