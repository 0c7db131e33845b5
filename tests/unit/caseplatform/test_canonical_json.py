"""`canonical_json` calls the C encoder directly: the same text as `json.dumps` with the canonical
options, and the same errors, for any JSON value (hashes and stored JSON must never change)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caseplatform.model import canonical_json

_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


@given(_VALUES)
def test_the_text_is_json_dumps_with_the_canonical_options(value: Any) -> None:
    assert canonical_json(value) == _dumps(value)


def _circular() -> dict[str, Any]:
    loop: dict[str, Any] = {}
    loop["self"] = loop
    return loop


@pytest.mark.parametrize(
    "value",
    [{"x": math.nan}, [math.inf], {"x": {1, 2}}, {1: "a", "b": 2}, _circular()],
    ids=["nan", "infinity", "set", "mixed-keys", "circular"],
)
def test_the_errors_are_json_dumps_errors(value: Any) -> None:
    with pytest.raises(Exception) as expected:  # noqa: PT011 - compared with json's own below
        _dumps(value)
    with pytest.raises(type(expected.value)) as got:
        canonical_json(value)
    assert str(got.value) == str(expected.value)
