"""Quoting names and shortening texts to WhatsApp's length limits."""

from __future__ import annotations

from memo.text.wording import preview, quote, shorten


def test_quotes_follow_the_language() -> None:
    assert quote("call mom", "en") == "“call mom”"
    assert quote("להתקשר לאמא", "he") == "„להתקשר לאמא”"


def test_a_short_text_is_kept_on_one_line() -> None:
    assert shorten("  buy\n milk  ", 20) == "buy milk"


def test_a_long_text_is_cut_to_the_limit_with_an_ellipsis() -> None:
    cut = shorten("call the plumber about the kitchen sink", 20)
    assert len(cut) <= 20 and cut.endswith("…")
    assert cut == "call the plumber ab…"


def test_a_preview_keeps_a_text_within_the_limit_as_it_is() -> None:
    assert preview("wifi\npassword", 13) == "wifi\npassword"


def test_a_preview_cuts_a_longer_text_to_the_limit_and_keeps_its_lines() -> None:
    cut = preview("line one\nline two", 12)
    assert cut == "line one\nli…" and len(cut) == 12
