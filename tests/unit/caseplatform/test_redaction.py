"""The redactors: `contacts` masks e-mail addresses and phone-number-like digit runs and nothing else,
deterministically; `redact_tree` applies a redactor to every string leaf of a JSON value, never to keys.
Fields blanked after the fact: only the named fields that are present, once and for all.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caseplatform.redaction import (
    MASKS,
    REDACTED,
    REDACTORS,
    blank_fields,
    mask_contacts,
    no_redaction,
    path_problems,
    present,
    redact_tree,
)


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("mail dana.levi+ops@example.co.il now", "mail [redacted-email] now"),
        ("call +972501234567 or 0501234567", "call [redacted-phone] or [redacted-phone]"),
        ("a@b.c and x@y.io", "a@b.c and [redacted-email]"),  # a one-letter TLD is not an address
        ("LGV-07 at dock 3, order 12345678", "LGV-07 at dock 3, order 12345678"),  # 8 digits: kept
        ("id 1234567890123456", "id 1234567890123456"),  # 16 digits: not a phone number
        ("ticket OPS-501234567 and 501234567-b", "ticket OPS-501234567 and 501234567-b"),  # part of a code
        ("plain text", "plain text"),
    ],
)
def test_contacts_masks_addresses_and_phone_numbers_only(text: str, masked: str) -> None:
    assert mask_contacts(text) == masked
    assert REDACTORS["contacts"](text) == masked


@given(st.text())
def test_contacts_is_deterministic_and_idempotent(text: str) -> None:
    once = mask_contacts(text)
    assert mask_contacts(text) == once
    assert mask_contacts(once) == once


@given(st.text())
def test_none_keeps_the_text(text: str) -> None:
    assert no_redaction(text) == REDACTORS["none"](text) == text


def test_every_string_leaf_is_redacted_and_keys_are_not() -> None:
    value = {
        "dana@example.com": "dana@example.com",
        "nested": [{"phone": "+972501234567"}, 972501234567, None, True, 2.5],
    }
    assert redact_tree(value, mask_contacts) == {
        "dana@example.com": "[redacted-email]",
        "nested": [{"phone": "[redacted-phone]"}, 972501234567, None, True, 2.5],
    }
    assert value["nested"][0] == {"phone": "+972501234567"}  # the input is not changed


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)


@given(_JSON)
def test_redact_tree_keeps_the_shape(value: Any) -> None:
    def upper(text: str) -> str:
        return text.upper()

    assert redact_tree(value, no_redaction) == value
    redacted = redact_tree(value, upper)
    assert type(redacted) is type(value)
    if isinstance(value, dict):
        assert list(redacted) == list(value)


# ---------------------------------------------------------------------------- fields blanked after the fact
_KEYS = st.sampled_from(["a", "b", "c"])
_PAYLOADS = st.recursive(
    st.none() | st.integers() | st.text(max_size=5),
    lambda inner: st.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=10,
).filter(lambda v: isinstance(v, dict))
_PATHS = st.lists(_KEYS, min_size=1, max_size=3).map(".".join)


@given(_PAYLOADS, st.lists(_PATHS, max_size=4))
def test_blanking_changes_the_named_present_fields_only_and_once_for_all(
    payload: Any, paths: list[str]
) -> None:
    blanked = blank_fields(payload, paths)
    assert blank_fields(blanked, paths) == blanked  # idempotent

    def under_a_blanked_field(path: str) -> bool:  # "c.a" goes with "c" when both are named
        parts = path.split(".")
        return any(
            ".".join(parts[:n]) in paths and present(payload, ".".join(parts[:n]))
            for n in range(1, len(parts))
        )

    own = [p for p in paths if not under_a_blanked_field(p)]
    for path in own:
        assert present(blanked, path) == present(payload, path)  # no key added or removed
    for path in {p for p in own if present(payload, p)}:
        node: Any = blanked
        for key in path.split("."):
            node = node[key]
        assert node == REDACTED
    untouched = [p for p in ("a", "b", "c") if not any(q.split(".")[0] == p for q in paths)]
    for key in untouched:
        assert blanked.get(key) == payload.get(key)


def test_the_masks_are_what_redaction_writes() -> None:
    assert set(MASKS) == {mask_contacts("0501234567"), mask_contacts("a@example.com"), REDACTED}


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ([], "$.fields"),
        (["ok", ""], "$.fields[1]"),
        (["a..b"], "$.fields[0]"),
        (["x" * 201], "$.fields[0]"),
        ([f"f{i}" for i in range(51)], "$.fields"),
    ],
)
def test_malformed_field_paths(fields: list[str], problem: str) -> None:
    assert problem in [p["path"] for p in path_problems(fields)]
    assert path_problems(["x" * 200, *[f"f{i}" for i in range(49)]]) == []  # at the limits
