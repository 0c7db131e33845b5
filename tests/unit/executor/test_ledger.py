"""The ledger's operation ids and result hashes: one operation per step of a turn, results told apart."""

from __future__ import annotations

from memo.capabilities.base import ExecutionResult
from memo.executor.ledger import operation_id, result_hash


def test_an_operation_is_one_step_of_one_turn() -> None:
    assert operation_id("wamid.1", "s1") == "wamid.1:s1"
    assert operation_id("wamid.1", "s1") != operation_id("wamid.1", "s2")


def test_results_hash_alike_only_when_they_are_alike() -> None:
    done = ExecutionResult(success=True, capability="notes", action="save", data={"a": 1, "b": 2})
    same = ExecutionResult(success=True, capability="notes", action="save", data={"b": 2, "a": 1})
    other = done.model_copy(update={"summary": "saved"})
    assert result_hash(done) == result_hash(same)
    assert result_hash(done) != result_hash(other)
