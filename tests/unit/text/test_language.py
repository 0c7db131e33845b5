"""Language detection: Hebrew or English by the script of the letters."""

from __future__ import annotations

import pytest

from memo.text.language import detect_language


@pytest.mark.parametrize(
    ("text", "default", "expected"),
    [
        ("hello there", "he", "en"),
        ("שלום מה נשמע", "en", "he"),
        ("תזכיר לי call mom", "en", "he"),
        ("👍", "he", "he"),
        ("5", "en", "en"),
    ],
)
def test_language_follows_the_script(text: str, default: str, expected: str) -> None:
    assert detect_language(text, default) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("תשמור את הקישור https://example.com/some/long/english/path", "he"),
        ("תשמור את המייל someone.with.a.long.name@example.com", "he"),
        ("save dana@example.co.il", "en"),
        ("ping a@b", "en"),  # no dot after the "@": a word like any other
    ],
)
def test_links_and_addresses_are_no_ones_language(text: str, expected: str) -> None:
    assert detect_language(text, "en") == expected


def test_a_long_word_with_signs_is_read_like_a_short_one() -> None:
    # Two hundred thousand characters without a space, "@" and "." among them: every letter counts
    # once, as in the short word (the address rule looks at each word once).
    word = "שלום@" + "a" * 5 + "." * 3
    assert detect_language(word * 1, "en") == detect_language(word * 20_000, "en")
    assert detect_language("x" * 200_000, "he") == "en"
