"""`build_case_service`, the one way a composition root builds the case service: the redaction named
by its configuration, its clock and its listeners."""

from __future__ import annotations

import pytest

from caseplatform.service import build_case_service
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import FakeClock, submit


def test_the_service_runs_on_the_clock_and_redaction_it_is_given(sqlite_store: SqliteCaseStore) -> None:
    clock = FakeClock(1_800_000_000_000)
    service = build_case_service(sqlite_store, redact="contacts", clock=clock)
    service.ensure_default_adapters()
    case_id = submit(service, summary="mail a@b.io")
    record = service.get_record(case_id)
    assert (record.case.created_at_ms, record.case.summary) == (clock(), "mail [redacted-email]")


def test_an_unknown_redaction_is_refused(sqlite_store: SqliteCaseStore) -> None:
    with pytest.raises(KeyError):
        build_case_service(sqlite_store, redact="everything")
