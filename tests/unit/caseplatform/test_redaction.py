"""The redactors: `contacts` masks e-mail addresses and phone-number-like digit runs and nothing else,
deterministically; `redact_tree` applies a redactor to every string leaf of a JSON value, never to keys.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caseplatform.redaction import REDACTORS, mask_contacts, no_redaction, redact_tree


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
