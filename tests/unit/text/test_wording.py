"""Quoting names and shortening texts to WhatsApp's length limits."""

from __future__ import annotations

from memo.text.wording import quote, shorten


def test_quotes_follow_the_language() -> None:
    assert quote("call mom", "en") == "“call mom”"
    assert quote("להתקשר לאמא", "he") == "„להתקשר לאמא”"


def test_a_short_text_is_kept_on_one_line() -> None:
    assert shorten("  buy\n milk  ", 20) == "buy milk"


def test_a_long_text_is_cut_to_the_limit_with_an_ellipsis() -> None:
    cut = shorten("call the plumber about the kitchen sink", 20)
    assert len(cut) <= 20 and cut.endswith("…")
    assert cut == "call the plumber ab…"
