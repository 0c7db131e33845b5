"""Fixtures of the case platform unit tests: a fake clock and a service over a fresh SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[SqliteCaseStore]:
    store = SqliteCaseStore(tmp_path / "hitl.db")
    yield store
    store.close()


@pytest.fixture
def service(sqlite_store: SqliteCaseStore, clock: FakeClock) -> CaseService:
    svc = CaseService(sqlite_store, clock=clock)
    svc.ensure_default_adapters()
    return svc
