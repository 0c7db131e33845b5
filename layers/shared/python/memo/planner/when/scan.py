"""The message being read for a date/time: each fragment found is taken out, leaving the title."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

FLAGS = re.IGNORECASE


@dataclass
class Scan:
    """The text still to read, and the fragments taken out of it so far.

    A fragment is replaced by spaces of its length, so the positions of later matches still hold."""

    text: str
    fragments: list[str] = field(default_factory=list)

    def take(self, match: re.Match[str]) -> None:
        self.take_span(*match.span())

    def take_span(self, start: int, end: int) -> None:
        self.fragments.append(self.text[start:end].strip())
        self.text = self.text[:start] + " " * (end - start) + self.text[end:]


_DANGLING_EN = re.compile(r"(?:\s+(?:at|on|by|for|to|in|from))+\s*$", FLAGS)
_DANGLING_HE = re.compile(r"(?:\s+(?:ב|ל|ב-|ל-|בשעה))+\s*$")


def tidy(text: str) -> str:
    """What is left once the time is taken out: spaces folded, and no preposition left hanging."""
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([,.!?])", r"\1", text)
    text = text.strip(" ,.;:-")
    for _ in range(2):
        text = _DANGLING_EN.sub("", text).strip(" ,.;:-")
        text = _DANGLING_HE.sub("", text).strip(" ,.;:-")
    return text
