"""Every step outcome leaves the executor under its bound; what is cut is said, never silently."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memo.capabilities.base import ExecutionResult
from memo.executor.contracts import MAX_STEP_OUTCOME_BYTES, StepOutcome
from memo.executor.results import TRUNCATED, bounded


def _result(data: dict[str, Any], **fields: Any) -> ExecutionResult:
    return ExecutionResult(success=True, capability="lists", action="show", data=data, **fields)


def _outcome_bytes(result: ExecutionResult, step_id: str = "s1") -> int:
    """As the executor Lambda returns it (the Python runtime's `json.dumps`)."""
    return len(json.dumps(StepOutcome(step_id=step_id, result=result).model_dump(mode="json")))


def test_a_result_that_fits_is_left_as_it_is() -> None:
    result = _result({"listName": "shopping", "items": ["milk", "eggs"]}, summary="2 items")
    assert bounded(result, step_id="s1") is result


def test_a_result_with_long_texts_keeps_their_first_characters_and_says_it_was_cut(
    caplog: pytest.LogCaptureFixture,
) -> None:
    result = _result({"notes": [{"id": f"n{i}", "text": "x" * 60_000} for i in range(5)]})
    kept = bounded(result, step_id="s1")
    assert _outcome_bytes(kept) <= MAX_STEP_OUTCOME_BYTES
    assert kept.data[TRUNCATED] is True
    assert [n["id"] for n in kept.data["notes"]] == [f"n{i}" for i in range(5)]
    assert all(n["text"].startswith("xxx") and n["text"].endswith("…") for n in kept.data["notes"])
    assert "STEP_RESULT_TOO_LARGE" in caplog.text


def test_a_result_with_too_many_items_keeps_the_first_ones() -> None:
    result = _result({"items": [f"item number {i}" for i in range(5_000)]})
    kept = bounded(result)
    assert _outcome_bytes(kept) <= MAX_STEP_OUTCOME_BYTES
    assert kept.data["items"][:3] == ["item number 0", "item number 1", "item number 2"]


def test_ids_beyond_the_first_ones_go_only_when_nothing_else_is_left() -> None:
    ids = [f"{i:026d}" for i in range(5_000)]
    kept = bounded(_result({"count": 5_000}, external_ids={"listItemIds": ids}, summary="s" * 10_000))
    assert _outcome_bytes(kept) <= MAX_STEP_OUTCOME_BYTES
    assert kept.external_ids["listItemIds"] == ids[:50]
    assert kept.data == {TRUNCATED: True} and len(kept.summary) <= 300


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=3_000),
    lambda inner: st.lists(inner, max_size=30) | st.dictionaries(st.text(max_size=10), inner, max_size=10),
    max_leaves=200,
)


@settings(max_examples=60, deadline=None)
@given(data=st.dictionaries(st.text(max_size=10), json_values, max_size=8), summary=st.text(max_size=2_000))
def test_any_result_leaves_under_the_bound(data: dict[str, Any], summary: str) -> None:
    kept = bounded(_result(data, summary=summary, error="e" * 3), step_id="s1")
    assert _outcome_bytes(kept) <= MAX_STEP_OUTCOME_BYTES


def test_letters_past_ascii_count_as_the_runtime_sends_them() -> None:
    """Hebrew takes six bytes a letter as the runtime escapes it, an emoji twelve: 3,500 of them are
    cut, as many in ASCII are not."""
    assert bounded(_result({"text": "a" * 3_500})).data == {"text": "a" * 3_500}
    kept = bounded(_result({"text": "😀" * 3_500}))
    assert kept.data[TRUNCATED] is True and _outcome_bytes(kept) <= MAX_STEP_OUTCOME_BYTES
