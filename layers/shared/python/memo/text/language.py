"""Language of a message: Hebrew or English, by the script its letters are written in."""

from __future__ import annotations

from typing import Literal

Language = Literal["en", "he"]


def detect_language(text: str, default: Language) -> Language:
    """Hebrew when Hebrew letters are at least as many as Latin ones; no letters -> `default`."""
    hebrew = sum(1 for ch in text if "\u05d0" <= ch <= "\u05ea")
    latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    if hebrew == 0 and latin == 0:
        return default
    return "he" if hebrew >= latin else "en"
