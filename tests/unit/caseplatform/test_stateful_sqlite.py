"""The stateful property test on the SQLite store (a fresh database file per example)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings

from caseplatform.ports import CaseStore
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.stateful import CaseMachine


class SqliteCaseMachine(CaseMachine):
    def make_store(self) -> CaseStore:
        self._dir = tempfile.mkdtemp(prefix="hitl-prop-")
        self._store = SqliteCaseStore(Path(self._dir) / "hitl.db")
        return self._store

    def teardown(self) -> None:
        self._store.close()
        shutil.rmtree(self._dir, ignore_errors=True)


TestSqliteCaseMachine = SqliteCaseMachine.TestCase
TestSqliteCaseMachine.settings = settings(
    max_examples=40, stateful_step_count=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
