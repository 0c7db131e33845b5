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
