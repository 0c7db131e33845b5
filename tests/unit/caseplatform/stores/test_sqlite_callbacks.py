"""The callbacks registered for a case, in the store's file: written by one process's registry and
read by another's (the agent's server registers, the reviewer's delivers), only for their case."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from caseplatform.notifications import Callback
from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from caseplatform.stores.sqlite_callbacks import SqliteCallbacks
from tests.unit.caseplatform.factories import FakeClock, submit


def test_a_registration_is_read_back_by_another_connection_for_its_case_only(tmp_path: Path) -> None:
    db = tmp_path / "hitl.db"
    service = CaseService(SqliteCaseStore(db), clock=FakeClock())
    service.ensure_default_adapters()
    first, second = submit(service), submit(service, title="other")
    SqliteCallbacks(db, clock=lambda: 1).add(Callback("HCB-1", first, "https://a.example/h", "k1"))
    reader = SqliteCallbacks(db, clock=lambda: 2)
    assert reader.for_case(first) == [Callback("HCB-1", first, "https://a.example/h", "k1")]
    assert reader.for_case(second) == []
    with pytest.raises(sqlite3.IntegrityError):  # only for a case that exists
        reader.add(Callback("HCB-2", "HITL-00000000-0000-4000-8000-000000000000", "https://a.example/h", "k"))
    reader.close()
