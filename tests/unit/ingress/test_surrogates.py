"""The lone-surrogate cleaner of webhook bodies: iterative, so no depth makes it fail, and for any
JSON document it leaves exactly what the recursive definition would, with nothing unencodable."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from memo.ingress.surrogates import REPLACEMENT, clean_body, without_lone_surrogates

DEPTH = 10_000


def _reference(value: Any) -> Any:
    """The recursive definition the cleaner must agree with (for documents of modest depth)."""
    if isinstance(value, str):
        return "".join(REPLACEMENT if "\ud800" <= ch <= "\udfff" else ch for ch in value)
    if isinstance(value, list):
        return [_reference(item) for item in value]
    if isinstance(value, dict):
        return {_reference(k): _reference(v) for k, v in value.items()}
    return value


def _encodable(value: Any) -> None:
    json.dumps(value, ensure_ascii=False).encode("utf-8")  # raises on a lone surrogate


def _nested_lists(depth: int, leaf: Any) -> Any:
    document = leaf
    for _ in range(depth):
        document = [document]
    return document


def _nested_objects(depth: int, leaf: Any) -> Any:
    document = leaf
    for level in range(depth):
        document = {f"k{level}\udc00": document}
    return document


def _leaf(document: Any) -> Any:
    while isinstance(document, list | dict):
        document = document[0] if isinstance(document, list) else next(iter(document.values()))
    return document


def test_lists_nested_ten_thousand_deep_are_cleaned_without_recursion() -> None:
    cleaned = without_lone_surrogates(_nested_lists(DEPTH, "call mom \ud800"))
    assert _leaf(cleaned) == "call mom \ufffd"


def test_objects_nested_ten_thousand_deep_have_their_keys_and_values_cleaned() -> None:
    cleaned = without_lone_surrogates(_nested_objects(DEPTH, ["\udfff", 7, None, True]))
    assert _leaf(cleaned) == "\ufffd"
    key = next(iter(cleaned))
    assert key == f"k{DEPTH - 1}\ufffd"


def test_two_keys_that_clean_to_the_same_key_keep_the_later_value() -> None:
    keys = ["a\ud800", "a\udc00"]  # two different keys (a dict display would look like one to linters)
    assert without_lone_surrogates({key: n for n, key in enumerate(keys, start=1)}) == {"a\ufffd": 2}


def test_a_body_without_a_surrogate_escape_is_left_as_decoded() -> None:
    document = {"text": "plain"}
    assert clean_body(b'{"text": "plain"}', document) is document


# Text with lone surrogates among other characters: what `json.loads` makes of a `\ud800` escape.
_CHARS = st.characters() | st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, categories=["Cs"])
_TEXT = st.text(_CHARS, max_size=12)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_TEXT, children, max_size=4),
    max_leaves=30,
)


@settings(max_examples=200)
@given(document=_JSON)
def test_any_json_document_is_cleaned_as_the_recursive_definition_says(document: Any) -> None:
    expected = _reference(document)
    cleaned = without_lone_surrogates(document)
    assert cleaned == expected
    _encodable(cleaned)


@settings(max_examples=50)
@given(document=_JSON, depth=st.integers(min_value=0, max_value=3_000))
def test_any_document_wrapped_at_any_depth_is_cleaned_all_the_way_down(document: Any, depth: int) -> None:
    cleaned = without_lone_surrogates(_nested_lists(depth, document))
    for _ in range(depth):
        (cleaned,) = cleaned
    assert cleaned == _reference(document)
    _encodable(cleaned)
