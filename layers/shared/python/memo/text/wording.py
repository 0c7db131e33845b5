"""Small wording helpers every user-facing text uses: quoting a name, shortening to a length limit."""

from __future__ import annotations

from typing import Any

from memo.text.language import Language


def quote(text: Any, language: Language) -> str:
    """`text` in the language's quotation marks: „…” in Hebrew, “…” in English."""
    return f"„{text}”" if language == "he" else f"“{text}”"


def shorten(text: str, limit: int) -> str:
    """`text` on one line (whitespace collapsed), cut to `limit` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def preview(text: str, limit: int) -> str:
    """`text` as it is when it has at most `limit` characters; else its first `limit - 1` (its lines
    kept) and an ellipsis. What a result, a question or a reply carries of a text that may be long."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
