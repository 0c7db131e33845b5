"""Language of a message: Hebrew or English, by the script its letters are written in."""

from __future__ import annotations

import re
from typing import Literal

Language = Literal["en", "he"]


_ADDRESSES = re.compile(r"(?:https?://|www\.)\S+|\S+@\S+\.\S+", re.I)


def detect_language(text: str, default: Language) -> Language:
    """Hebrew when Hebrew letters are at least as many as Latin ones; no letters -> `default`.
    Links and e-mail addresses are no one's language ("תשמור את הקישור https://…" is Hebrew)."""
    text = _ADDRESSES.sub(" ", text)
    hebrew = sum(1 for ch in text if "\u05d0" <= ch <= "\u05ea")
    latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    if hebrew == 0 and latin == 0:
        return default
    return "he" if hebrew >= latin else "en"
