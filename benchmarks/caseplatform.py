"""Case platform figures for `make bench`.

- submit+decide cycles on SQLite (a file database in a temp dir, WAL, one thread) per CPU-second
  (`time.process_time`, the process's user + system time: what the platform costs, whatever else
  the machine is doing) and per second of wall time; each the best of a few rounds. Each round ends
  with a checkpoint of the write-ahead log, inside the timed part, so a round pays for copying every
  page it wrote into the database file (SQLite checkpoints on its own only every few thousand pages);
- on SQLite, the statements and the write-ahead log pages (4 KB each, written at commit) per
  submit+decide cycle;
- DynamoDB (moto) requests per mutating call, counted with botocore's `before-call` event hook.
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from moto import mock_aws

from caseplatform.errors import CasePlatformError
from caseplatform.service import CaseService, build_case_service
from caseplatform.stores.dynamodb import DynamoCaseStore, dynamodb_client
from caseplatform.stores.sqlite import SqliteCaseStore
from memo import tables

CYCLES = 300
ROUNDS = 3
PAYLOAD = {
    "symptom": "LGV stops before dock 3",
    "site": "Plant Haifa",
    "lgv_id": "LGV-07",
    "services_checked": ["nav-service"],
    "evidence": ["nav-service restarted 3 times"],
    "proposed_next_action": "Reload the reflector map",
}
AGENT = {"name": "lgv-chatbot", "role": "agent", "id": "agent:lgv"}
OPERATOR = {"name": "Dana", "role": "engineer", "id": "op:dana"}


def _submit(service: CaseService, request_id: str) -> str:
    event, _ = service.submit_case(
        adapter_id="lgv_troubleshooting",
        case_type="incident",
        title="LGV-07 navigation fault",
        summary="Reload the reflector map",
        payload=PAYLOAD,
        submitter=AGENT,
        request_id=request_id,
    )
    return event.case_id


def _decide(service: CaseService, case_id: str, request_id: str, decision: str = "approved") -> None:
    service.record_decision(
        case_id=case_id, decision=decision, notes="ok", actor=OPERATOR, request_id=request_id
    )


def sqlite_cycles_per_second(cycles: int = CYCLES, rounds: int = ROUNDS) -> tuple[float, float]:
    """(cycles per CPU-second, cycles per wall-clock second), each the best of `rounds` rounds."""
    cpu, wall = 0.0, 0.0
    with tempfile.TemporaryDirectory(prefix="hitl-bench-") as directory:
        store = SqliteCaseStore(Path(directory) / "hitl.db")
        service = build_case_service(store)
        service.ensure_default_adapters()
        _decide(service, _submit(service, "warm-up-submit"), "warm-up-decide")
        for round_ in range(rounds):
            start_cpu, start_wall = time.process_time(), time.perf_counter()
            for index in range(cycles):
                _decide(service, _submit(service, f"s-{round_}-{index}"), f"d-{round_}-{index}")
            store.checkpoint()
            cpu = max(cpu, cycles / max(time.process_time() - start_cpu, 1e-9))
            wall = max(wall, cycles / (time.perf_counter() - start_wall))
        store.close()
    return cpu, wall


def sqlite_writes_per_cycle(cycles: int = 100) -> tuple[float, float]:
    """(statements, write-ahead log pages) per submit+decide cycle on a warm SQLite store."""
    with tempfile.TemporaryDirectory(prefix="hitl-bench-") as directory:
        store = SqliteCaseStore(Path(directory) / "hitl.db")
        service = build_case_service(store)
        service.ensure_default_adapters()
        for index in range(cycles):  # warm: the active schema read, b-trees a few levels deep
            _decide(service, _submit(service, f"w-{index}"), f"wd-{index}")
        conn = store._conn()
        conn.execute("PRAGMA wal_autocheckpoint = 0")  # every page of the measured cycles stays in the log
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        statements: list[str] = []
        conn.set_trace_callback(statements.append)
        for index in range(cycles):
            _decide(service, _submit(service, f"s-{index}"), f"d-{index}")
        conn.set_trace_callback(None)
        logged, _ = store.checkpoint()
        store.close()
    return len(statements) / cycles, logged / cycles


def dynamodb_requests_per_call() -> dict[str, int]:
    """Requests each mutating call makes on the DynamoDB store (happy path and the usual errors)."""
    counts: Counter[str] = Counter()
    with mock_aws():
        client = dynamodb_client(region="us-east-1")
        client.create_table(**tables.CASES.create_table_kwargs("bench-cases"))
        service = build_case_service(DynamoCaseStore("bench-cases", client))
        service.ensure_default_adapters()

        current: list[str] = []

        def count(**_: Any) -> None:
            if current:
                counts[current[0]] += 1

        client.meta.events.register("before-call.dynamodb", count)

        def measure(name: str, call: Any) -> Any:
            current[:] = [name]
            try:
                return call()
            finally:
                current.clear()

        case_id = measure("submit_case", lambda: _submit(service, "s-1"))
        measure(
            "request_clarification (from pending)",
            lambda: service.request_clarification(
                case_id=case_id, question="Which map?", notes="", actor=AGENT, request_id="q-1"
            ),
        )
        measure(
            "provide_clarification",
            lambda: service.provide_clarification(
                case_id=case_id, answer="v12", notes="", actor=OPERATOR, request_id="a-1"
            ),
        )
        measure("record_decision", lambda: _decide(service, case_id, "d-1"))
        measure("record_decision retry (same request_id)", lambda: _decide(service, case_id, "d-1"))
        measure(
            "record_decision on a decided case (ALREADY_TERMINAL)",
            lambda: _expect_error(lambda: _decide(service, case_id, "d-2", "rejected")),
        )
    return dict(counts)


def _expect_error(call: Any) -> None:
    try:
        call()
    except CasePlatformError:
        return
    raise AssertionError("expected a domain error")


def run() -> list[tuple[str, str, str]]:
    cpu, wall = sqlite_cycles_per_second()
    rows = [
        ("sqlite submit+decide", f"{cpu:.0f}", "cycles/CPU-s"),
        ("sqlite submit+decide (wall clock)", f"{wall:.0f}", "cycles/s"),
    ]
    statements, pages = sqlite_writes_per_cycle()
    rows.append(("sqlite submit+decide statements", f"{statements:.1f}", "statements/cycle"))
    rows.append(("sqlite submit+decide write-ahead log pages", f"{pages:.1f}", "pages/cycle"))
    for name, requests in dynamodb_requests_per_call().items():
        rows.append((f"dynamodb {name}", str(requests), "requests/call"))
    return rows


if __name__ == "__main__":  # python -m benchmarks.caseplatform
    for row in run():
        print(*row, sep="\t")
