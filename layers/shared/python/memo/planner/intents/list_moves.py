"""A thing moved from one list to another: "move the batteries to the hardware list", "move milk from
the shopping list to the pharmacy list", "תעביר את החלב לרשימת הסופר". Two steps, as the person
would do it by hand: the thing comes off the list it is on (the one named, else the list entity
resolution finds it on; on two, which one is asked, and on none, nothing is taken off), then it
goes on the other list. A move to the list it is on ("to the supermarket list", the shopping list's
other name) is no move.
"""

from __future__ import annotations

import re

from memo.capabilities.items import list_key
from memo.capabilities.lists import UNNAMED_LIST
from memo.planner.base import PlannerInput
from memo.planner.intents.list_words import items_of, list_name, no_article
from memo.planner.match import Match

_EN = re.compile(
    r"^(?:move|transfer|shift)\s+(?:the\s+|my\s+)?(?P<items>.+?)\s+"
    r"(?:from\s+(?:the\s+|my\s+)?(?P<src>.+?)(?:\s+list)?\s+)?"
    r"(?:to|onto|into|over\s+to)\s+(?:the\s+|my\s+)?(?P<dst>.+?)\s+list\s*[.!]?$",
    re.I,
)
_HE = re.compile(
    r"^(?:תעביר|תעבירי|העבר|תזיז|תזיזי)\s+(?:לי\s+)?(?:את\s+)?(?P<items>.+?)\s+"
    r"(?:מ(?:ה)?רשימ(?:ת|ה\s+של)\s+(?P<src>\S+(?:\s+\S+)?)\s+)?"
    r"(?:ל|אל\s+)רשימ(?:ת|ה\s+של)\s+(?P<dst>.+?)\s*[.!]?$"
)


def moved_to_list(text: str, inp: PlannerInput) -> list[Match]:
    """The two steps of a move between lists; [] when the words say none."""
    found = _EN.match(text) or _HE.match(text)
    if found is None:
        return []
    items = [no_article(item) for item in items_of(found.group("items"))]
    dst = list_name(found.group("dst"))
    src = list_name(found.group("src")) if found.group("src") else UNNAMED_LIST
    if not all(items) or not dst or list_key(src) == list_key(dst):
        return []  # "move the milk to the supermarket list" of the shopping list: it is there
    return [
        Match(
            capability="lists",
            action="remove",
            confidence=0.9,
            risk="medium",
            constraints={"listName": src},
            changes={"items": items},
            pattern="lists:move_off",
        ),
        Match(
            capability="lists",
            action="add",
            confidence=0.9,
            risk="low",
            constraints={"listName": dst},
            changes={"items": items},
            pattern="lists:move_on",
        ),
    ]
