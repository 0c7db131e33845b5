"""A removal taken back by name: "actually keep the bananas", "don't remove the bread", "בעצם תשאיר
את הבננות", right after they were taken off a list. The things named go back on the list the latest
removal took them from (an add, itself undoable); only things that removal took, so "keep the
milk" after the bananas were removed is no command here (nothing is guessed)."""

from __future__ import annotations

import re

from memo.domain import LatestAction
from memo.planner.base import PlannerInput
from memo.planner.match import Match
from memo.text.matching import MATCH_THRESHOLD, score

_EN = re.compile(
    r"^(?:(?:actually|oh|no|wait|oops|hmm|sorry|on\s+second\s+thought)[,!.]?\s+)*(?:please\s+)?"
    r"(?:keep|leave|don'?t\s+(?:remove|delete|take\s+off)|do\s+not\s+(?:remove|delete))\s+"
    r"(?:the\s+|my\s+)?(?P<things>.+?)(?:\s+(?:on|in)\s+(?:the\s+|my\s+)?(?:\w+\s+)?list)?"
    r"(?:\s+(?:after\s+all|then|please))?\s*[.!]?$",
    re.I,
)
_HE = re.compile(
    r"^(?:(?:בעצם|רגע|אופס|לא|סליחה)[,!.]?\s+)*"
    r"(?:תשאיר|תשאירי|תשאירו|אל\s+תמחק|אל\s+תמחקי|אל\s+תוריד|אל\s+תורידי|אל\s+תסיר|אל\s+תסירי)\s+"
    r"(?:את\s+)?(?P<things>.+?)(?:\s+ב?רשימה)?(?:\s+בכל\s+זאת)?\s*[.!]?$"
)
_AND = re.compile(r"\s*(?:,|\band\b|&)\s*|\s+ו(?=\S)", re.I)
#: "removed bananas, apples from the shopping list" / "הסרתי בננות, תפוחים מרשימת קניות"
_REMOVED = re.compile(r"^(?:removed|הסרתי)\s+(?P<things>.+?)\s+(?:from\s+the\s+.+\s+list|מרשימת\s+.+)$", re.I)


def kept_after_all(text: str, inp: PlannerInput) -> Match | None:
    said = _EN.match(text) or _HE.match(text)
    removal = next((a for a in inp.latest_actions if (a.capability, a.action) == ("lists", "remove")), None)
    if said is None or removal is None:
        return None
    removed = _removed_things(removal)
    kept: list[str] = []
    for named in (n for n in _AND.split(said.group("things")) if n.strip()):
        taken = max(removed, key=lambda thing: score(named, thing), default=None)
        if taken is None or score(named, taken) < MATCH_THRESHOLD:
            return None  # a thing that removal did not take: not this
        kept += [taken] if taken not in kept else []
    list_key = (removal.external_ids or {}).get("listKey")
    if not kept or not isinstance(list_key, str):
        return None
    return Match(
        capability="lists",
        action="add",
        confidence=0.9,
        risk="low",
        constraints={"listName": list_key},
        changes={"items": kept},
        pattern="lists:kept_after_all",
    )


def _removed_things(action: LatestAction) -> list[str]:
    found = _REMOVED.match(action.summary.strip())
    return [t.strip() for t in found.group("things").split(",") if t.strip()] if found else []
