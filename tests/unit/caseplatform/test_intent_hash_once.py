"""A submission's intent hash encodes the request once, with the payload's JSON put in place of a 0:
the text hashed is still the canonical JSON of the whole request, byte for byte, whatever the other
arguments hold (text that looks like the placeholder, nested `payload` keys, non-scalar values before
the payload, which take the slower way)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caseplatform.decisions import intent_hash
from caseplatform.model import canonical_json

_SCALAR = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
)
_JSON = st.recursive(
    _SCALAR,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
_BEFORE = st.sampled_from(["adapter_id", "case_type", "confidence", "a", "pay", "payloa", "ob"])
_AFTER = st.sampled_from(["priority", "refs", "submitter", "summary", "title", "payload_", "z"])


def _whole(arguments: dict[str, Any], action: str) -> str:
    body = {"action": action, **{k: v for k, v in arguments.items() if k != "request_id"}}
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


@given(
    payload=st.dictionaries(st.text(max_size=8), _JSON, max_size=4),
    before=st.dictionaries(_BEFORE, _SCALAR | st.just(',"payload":0'), max_size=4),
    after=st.dictionaries(_AFTER, _JSON, max_size=4),
)
def test_scalars_before_the_payload(
    payload: dict[str, Any], before: dict[str, Any], after: dict[str, Any]
) -> None:
    arguments = {**before, **after, "payload": payload, "request_id": "r-1"}
    assert intent_hash(arguments, "submit_case", payload_json=canonical_json(payload)) == _whole(
        arguments, "submit_case"
    )


@pytest.mark.parametrize(
    "arguments",
    [
        # Text that reads like the placeholder, before and after the payload and inside it.
        {"adapter_id": ',"payload":0', "title": ',"payload":0,', "payload": {"payload": 0}},
        {"case_type": '"},"payload":0', "payload": {"k": ',"payload":0'}},
        # Nested `payload` keys after it, and a payload of 0 inside a later value.
        {"payload": {}, "submitter": {"a": 1, "payload": 0}, "refs": [{"a": "", "payload": 0}]},
        # A non-scalar before the payload: the other way, same text.
        {"a": {"b": 1, "payload": 0}, "payload": {"x": 1}},
        {"a": [{"b": "", "payload": 0}], "payload": {"x": 1}, "z": None},
        # Numbers and booleans before it.
        {"confidence": None, "a": 1.5, "b": True, "payload": {"n": -0.0}},
    ],
    ids=["marker-text", "closing-quote", "nested-after", "dict-before", "list-before", "numbers"],
)
def test_examples(arguments: dict[str, Any]) -> None:
    arguments = {**arguments, "request_id": "r-1"}
    spliced = intent_hash(arguments, "submit_case", payload_json=canonical_json(arguments["payload"]))
    assert spliced == intent_hash(arguments, "submit_case") == _whole(arguments, "submit_case")
