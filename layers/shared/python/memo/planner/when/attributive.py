"""Times that name a thing, not the reminder's time: "prepare for *the 5pm* meeting at 3pm", "leave for
the 8:15 train at 7:50", "confirm *the monday* appointment on friday".

A clock time or a weekday between a determiner ("the", "my", ...) and the noun it describes is part of
the title. It is held out of the reading only when the rest of the message says a time of its own:
alone ("15 minutes before my 3pm meeting") it is the time the message is about. `held` hides such
words behind marks no pattern of the time parser reads (each keeps its length, so positions hold),
and `restored` puts them back into the title.

A day said as an owner ("prepare for *friday's* exam on thursday", "tomorrow's meeting") is the
title's when the rest says a day of its own (`owned`); alone it is the day ("move tomorrow's
vitamins to 10"), and `unowned` drops its "'s" so it reads as one.
"""

from __future__ import annotations

import re

_MARK = "\u2063"  # INVISIBLE SEPARATOR: neither a word character nor a space
_MARKS = re.compile(f"{_MARK}+")

_CLOCK = r"\d{1,2}(?:[:.][0-5]\d)?\s*(?:a\.?m\.?|p\.?m\.?)|\d{1,2}[:.][0-5]\d|noon|midnight"
_WEEKDAY = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
#: What follows a time or day that is said for the reminder, not for a thing: "the friday after
#: next", "this monday morning", "the 5pm tomorrow".
_NOT_A_NOUN = (
    r"(?:at|on|by|in|to|for|from|until|till|after|before|and|or|of|next|this|morning|afternoon|evening|"
    r"night|tonight|today|tomorrow|every|each|please|then|instead|too|also|again|o'?clock|sharp)\b"
)
#: "this friday dinner" is the dinner this Friday, its time: only a clock time takes "this"/"that".
_ATTRIBUTIVE = re.compile(
    rf"\b(?:(?:the|my|our|your|his|her|their|this|that)\s+(?P<clock>{_CLOCK})"
    rf"|(?:the|my|our|your|his|her|their)\s+(?P<day>{_WEEKDAY}))(?=\s+(?!{_NOT_A_NOUN})[a-z])",
    re.IGNORECASE,
)


_OWNED = re.compile(
    rf"\b(?P<day>(?:{_WEEKDAY}|tomorrow|today|tonight)['’]s)(?=\s+(?!{_NOT_A_NOUN})[a-z])", re.IGNORECASE
)
_OWNED_ALONE = re.compile(rf"\b({_WEEKDAY}|tomorrow|today|tonight)['’]s\b", re.IGNORECASE)


def owned(text: str) -> tuple[str, list[str]]:
    """`text` with the days said as owners hidden, and those words in order ([] for none)."""
    words: list[str] = []

    def hide(match: re.Match[str]) -> str:
        words.append(match.group("day"))
        return _MARK * len(match.group("day"))

    return _OWNED.sub(hide, text), words


def unowned(text: str) -> str:
    """`text` with each day said as an owner said as a day ("tomorrow's gym" -> "tomorrow gym")."""
    return _OWNED_ALONE.sub(r"\1", text)


def held(text: str) -> tuple[str, list[str]]:
    """`text` with the times that name a thing hidden, and those words in order ([] for none)."""
    words: list[str] = []

    def hide(match: re.Match[str]) -> str:
        group = "clock" if match.group("clock") else "day"
        words.append(match.group(group))
        return match.group()[: match.start(group) - match.start()] + _MARK * len(match.group(group))

    return _ATTRIBUTIVE.sub(hide, text), words


def restored(text: str, words: list[str]) -> str:
    """`text` (what is left of a held text) with the hidden words back in their places."""
    pending = iter(words)
    return _MARKS.sub(lambda _: next(pending, ""), text)
