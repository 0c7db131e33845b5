"""The ports: the system clock is epoch milliseconds of the process clock, and both stores implement
every `CaseStore` method with the protocol's own parameters (the conformance suite relies on it)."""

from __future__ import annotations

import inspect
import time

import pytest

from caseplatform.ports import CaseStore, system_clock
from caseplatform.stores.dynamodb import DynamoCaseStore
from caseplatform.stores.sqlite import SqliteCaseStore

_METHODS = sorted(
    name for name, value in vars(CaseStore).items() if inspect.isfunction(value) and not name.startswith("_")
)


def test_the_system_clock_is_epoch_milliseconds() -> None:
    before = time.time_ns() // 1_000_000
    now = system_clock()
    after = time.time_ns() // 1_000_000
    assert before <= now <= after


@pytest.mark.parametrize("store", [SqliteCaseStore, DynamoCaseStore], ids=lambda cls: cls.__name__)
@pytest.mark.parametrize("name", _METHODS)
def test_each_store_implements_the_method_with_its_parameters(store: type, name: str) -> None:
    wanted = inspect.signature(getattr(CaseStore, name)).parameters
    given = inspect.signature(getattr(store, name)).parameters
    assert [(p.name, p.kind, p.default) for p in wanted.values()] == [
        (p.name, p.kind, p.default) for p in given.values()
    ]
