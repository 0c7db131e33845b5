"""The SQLite store's connections: the settings the durability story rests on, and checkpoints."""

from __future__ import annotations

from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from caseplatform.stores.sqlite_connection import JOURNAL_SIZE_LIMIT_BYTES, WAL_AUTOCHECKPOINT_PAGES
from tests.unit.caseplatform.factories import submit


def test_the_connection_settings_of_the_durability_story(sqlite_store: SqliteCaseStore) -> None:
    conn = sqlite_store._conn()
    settings = {
        name: conn.execute(f"PRAGMA {name}").fetchone()[0]
        for name in (
            "journal_mode",
            "synchronous",
            "foreign_keys",
            "wal_autocheckpoint",
            "journal_size_limit",
        )
    }
    assert settings == {
        "journal_mode": "wal",
        "synchronous": 1,  # NORMAL
        "foreign_keys": 1,
        "wal_autocheckpoint": WAL_AUTOCHECKPOINT_PAGES,
        "journal_size_limit": JOURNAL_SIZE_LIMIT_BYTES,
    }


def test_checkpoint_copies_the_log_into_the_database_file(service: CaseService) -> None:
    store = service.store
    assert isinstance(store, SqliteCaseStore)
    case_id = submit(service)
    logged, copied = store.checkpoint()
    assert logged == copied > 0  # no reader held any page back
    store._conn().execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the log cut to nothing
    assert store.checkpoint() == (0, 0)
    assert service.get_record(case_id).state.current_state == "pending"  # read from the database file
