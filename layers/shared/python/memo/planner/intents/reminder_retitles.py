"""A named reminder's new words after "to", read the way they are meant: "change the reminder buy
milk to buy oat milk" (a new title: the words name no time) and "move the buy milk reminder to nine
thirty" (a new time, in words)."""

from __future__ import annotations

import re

from memo.planner.base import PlannerInput
from memo.planner.intents.corrections import names_a_time, spoken_clock
from memo.planner.lexicon import as_title, clean
from memo.planner.match import is_ref

_TO_LAST = re.compile(r"^(?P<before>.*?)\s+to\s+(?P<after>(?:(?!\bto\b).)+)$", re.I)


def spoken_time_last(rest: str, inp: PlannerInput) -> str:
    """ "buy milk to nine thirty": the new time in words, read as one ("buy milk at nine thirty")."""
    last = _TO_LAST.match(rest.strip())
    spoken = spoken_clock(last.group("after"), inp.now) if last is not None else None
    return f"{last.group('before')} {spoken}" if last is not None and spoken is not None else rest


#: "change the reminder buy milk to buy oat milk": its new title, when the words after "to" are no time.
_NEW_TITLE = re.compile(r"^(?P<old>\S.*?)\s+to\s+(?P<new>\S.*)$", re.I)


def renamed_instead(text: str, rest: str, inp: PlannerInput) -> tuple[str, str] | None:
    """ "change the reminder X to Y" where Y names no time: (X, Y), the reminder and its new title.
    Only with one "to" ("change talk to mom to talk to dad" could split anywhere: the time is asked,
    as before)."""
    if not re.match(r"^(?:change|update)\b", text, re.I) or len(re.findall(r"\bto\b", rest, re.I)) != 1:
        return None
    said = _NEW_TITLE.match(clean(rest))
    if said is None or names_a_time(said.group("new"), inp.now):
        return None
    old, new = as_title(said.group("old")), as_title(said.group("new"))
    return (old, new) if old and new and not is_ref(old) else None
