"""Language of a message: Hebrew or English, by the script its letters are written in."""

from __future__ import annotations

import re
from typing import Literal

Language = Literal["en", "he"]


# Where a link starts; it runs to the end of its word.
_LINK = re.compile(r"(?:https?://|www\.)(?=.)", re.I | re.S)


def _is_address(word: str) -> bool:
    """An e-mail address: something, "@", something, ".", something (one word, read in one pass)."""
    at = word.find("@", 1)
    return at > 0 and "." in word[at + 2 : -1]


def _without_link(word: str) -> str:
    """The word as far as it is language: nothing of an address or of a link that starts it, the
    part before a link that starts inside it. Each word is read in one pass, so a message of any
    length without spaces costs no more than its length."""
    link = _LINK.search(word)
    if (link is not None and link.start() == 0) or _is_address(word):
        return ""
    return word[: link.start()] if link is not None else word


def detect_language(text: str, default: Language) -> Language:
    """Hebrew when Hebrew letters are at least as many as Latin ones; no letters -> `default`.
    Links and e-mail addresses are no one's language ("תשמור את הקישור https://…" is Hebrew)."""
    words = [_without_link(word) for word in text.split()]
    hebrew = sum(1 for word in words for ch in word if "\u05d0" <= ch <= "\u05ea")
    latin = sum(1 for word in words for ch in word if ch.isascii() and ch.isalpha())
    if hebrew == 0 and latin == 0:
        return default
    return "he" if hebrew >= latin else "en"
