"""`hitl` CLI hygiene: an invalid filter is a usage error (exit 2, nothing printed on stdout), output
into a closed pipe ends quietly, and `hitl escalate` writes its notices to a readable file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from caseplatform.cli import main
from caseplatform.escalation import JsonLinesSink
from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import AGENT, DAY_MS, T0, FakeClock, submit

HITL = Path(sys.executable).parent / "hitl"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "hitl.db"
    store = SqliteCaseStore(path)
    service = CaseService(store, clock=FakeClock(T0))
    service.ensure_default_adapters()
    for n in range(30):
        submit(service, title=f"case {n}")
    store.close()
    return path


@pytest.mark.parametrize(
    "argv",
    [
        ["queue", "--state", "bogus"],
        ["queue", "--state", "approved"],  # the queue holds open cases only
        ["queue", "--priority", "urgent"],
        ["queue", "--limit", "0"],
        ["queue", "--limit", "201"],
        ["queue", "--limit", "many"],
        ["queue", "--adapter", "no_such_adapter"],
        ["export", "--format", "json", "--out", "x", "--state", "done"],
        ["export", "--format", "json", "--out", "x", "--adapter", "nope"],
    ],
)
def test_invalid_filters_exit_2(capsys: pytest.CaptureFixture[str], db: Path, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--db", str(db), *argv])
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "error" in captured.err


def test_valid_filters_still_work(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    assert (
        main(
            [
                "--db",
                str(db),
                "queue",
                "--state",
                "pending",
                "--limit",
                "5",
                "--adapter",
                "lgv_troubleshooting",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["count"] == 5


def test_a_closed_pipe_ends_quietly(db: Path) -> None:
    # The reader is gone before hitl writes (as `hitl queue | head -1` once head has its line).
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [str(HITL), "--db", str(db), "queue", "--limit", "200"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert done.returncode == 0


def test_escalate_writes_each_notice_once_to_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "hitl.db"
    store = SqliteCaseStore(path)
    service = CaseService(store, clock=FakeClock(T0 - 40 * DAY_MS))  # asked 40 days ago (SLA 30)
    service.ensure_default_adapters()
    case_id = submit(service)
    service.request_clarification(
        case_id=case_id, question="Which map?", notes="", actor=AGENT, request_id="q"
    )
    store.close()
    notices = tmp_path / "notices.jsonl"
    argv = ["--db", str(path), "escalate", "--notify-file", str(notices), "--review-url", "http://x/review/"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["notified"] == [case_id]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["notified"] == []
    (notice,) = JsonLinesSink(notices).read()
    assert notice["link"] == f"http://x/review/#case={case_id}"
