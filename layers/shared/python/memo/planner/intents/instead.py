"""A request said as a correction: "no wait, add napkins instead", "instead add oat milk", "לא, תוסיף
ביצים לרשימת הקניות במקום", "wait no, forget the flowers. add napkins to the shopping list instead".

The words that correct ("no", "wait", "actually", "instead", "forget the flowers.") are set aside and
what is left is read as a request of its own. A correction acts on the latest action only when it
fits, and never changes another item by itself:
- a list add after a list add takes the place of what was just added: that item comes off and the
  new one goes on, asked first (the person confirms the exchange);
- a request of another kind than the latest action (a list add after a reminder) is that request,
  as if said plainly: the reminder is left alone;
- anything else (a new title or time for the reminder just set) is left to `corrections` and
  `followups`, which read it against the latest action.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memo.capabilities.items import list_key
from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import LatestAction
from memo.planner.base import PlannerInput, PlannerResult
from memo.planner.intents.list_words import list_name
from memo.planner.intents.lists import answered_list_name
from memo.planner.lexicon import clean
from memo.planner.match import GUESS, Match, latest_action

Read = Callable[[str, PlannerInput], Match | PlannerResult | None]

#: The words that say the message corrects something: "no", "wait", "no wait", "actually", "oops",
#: "sorry", "לא", "רגע", "בעצם", "אופס", "סליחה", "טעיתי", one or more, before the request.
_LEAD = re.compile(
    r"^\W*(?:(?:no|nope|wait|actually|oops|sorry|my\s+bad|hmm|לא|רגע|בעצם|אופס|סליחה|טעיתי)(?:[\s,!.:;-]+|$))+",
    re.I,
)
#: "forget the flowers.", "never mind the reminder,", "scrap that;", "תשכח מהפרחים,": the request
#: before, dropped, ahead of the one that replaces it ("cancel", "skip", "delete" name an item of
#: their own: a request, never set aside).
_DROPPED = re.compile(
    r"^(?:forget(?:\s+about)?|never\s*mind|scrap\s+that|תשכח|תשכחי|שכח|עזוב|עזבי|לא\s+משנה)"
    r"\b[^,.;:!?]*[,.;:!?]+\s*",
    re.I,
)
#: "instead", "instead of that", "במקום", "במקום זה", at either end.
_INSTEAD_START = re.compile(r"^(?:instead|במקום\s+זה)(?:\s+of\s+that)?[\s,:]+", re.I)
_INSTEAD_END = re.compile(r"[\s,]+(?:instead(?:\s+of\s+(?:that|it|this))?|במקום(?:\s+זה)?)\s*[.!]?$", re.I)


def set_aside(text: str) -> tuple[str, bool]:
    """The request the correction words leave, and whether there were any."""
    rest = text.strip()
    said = False
    for _ in range(3):  # "wait no, forget the flowers. instead add napkins"
        before = rest
        for pattern in (_LEAD, _DROPPED, _INSTEAD_START, _INSTEAD_END):
            rest = pattern.sub("", rest, count=1).strip()
        said = said or rest != before
        if rest == before:
            break
    return clean(rest), said


def _complete(found: Match | PlannerResult | None) -> Match | None:
    if (
        not isinstance(found, Match)
        or found.missing
        or found.capability not in ("reminders", "notes", "lists")
    ):
        return None
    return found if found.pattern not in ("notes:recall", "notes:statement", "delete:guess") else None


def corrected_request(text: str, inp: PlannerInput, read: Read) -> list[Match] | None:
    """The request a correction says, as the steps to plan (`read` is the rule planner's matching);
    None when the message is no correction, or the correction is of the latest action itself."""
    moved = _to_another_list(text, inp)
    if moved is not None:
        return moved
    rest, said = set_aside(text)
    if not said or not rest:
        return None
    found = _complete(read(rest, inp))
    if found is None or found.pattern.startswith("ref:"):
        return None  # "no, call dad instead", "no, move it to 6": about the latest action
    latest = latest_action(inp)
    if latest is not None and latest.capability == "lists" and latest.action == "add":
        return _exchanged(latest, found)
    if latest is not None and (latest.capability, latest.action) == (found.capability, found.action):
        return None  # a new title or time for the reminder just set: `corrections`
    return [found]


#: What a list add's summary says it added: "added milk, eggs to the shopping list", "הוספתי חלב
#: לרשימת קניות" (`memo.capabilities.lists`).
_ADDED = re.compile(
    r"^(?:added\s+(?P<en>.+?)\s+to\s+the\s+(?P<en_list>.+?)\s+list|הוספתי\s+(?P<he>.+?)\s+לרשימת\s+(?P<he_list>.+))$"
)


#: A message that only names a list as the one meant: "oops i meant the todo list", "no, the todo
#: list", "it's for my packing list", "put them on the todo list", "התכוונתי לרשימת המשימות".
_MEANT_LIST = re.compile(
    r"^\W*(?:(?:no|nope|wait|actually|oops|sorry|my\s+bad|wrong\s+list|לא|רגע|בעצם|אופס|סליחה|טעיתי|"
    r"רשימה\s+לא\s+נכונה)[\s,!.:;-]+)*"
    r"(?:i\s+meant|i\s+mean|meant|"
    r"(?:it|that|this|they|those|these)(?:'s|'re|\s+is|\s+are|\s+was|\s+were)\s+(?:supposed\s+to\s+go\s+)?(?:for|on|in)|"
    r"(?:put|move|add)\s+(?:it|them|that|those|these)\s+(?:to|on|onto|in|into)|"
    r"התכוונתי|הכוונה|זה\s+ל|תעביר\s+(?:את\s+זה|אותם|אותו|אותה)|תעבירי\s+(?:את\s+זה|אותם|אותו|אותה))\b",
    re.I,
)
_CORRECTED_LIST = re.compile(r"^\W*(?:no|nope|oops|sorry|actually|לא|אופס|סליחה|בעצם|טעיתי)\b", re.I)


def _to_another_list(text: str, inp: PlannerInput) -> list[Match] | None:
    """ "add milk to the shopping list" -> "oops i meant the todo list": the things just added come
    off that list and go on the one meant, asked first. Only right after a list add, only for a list
    other than that one, and only when the message names a list and nothing else."""
    cue = _MEANT_LIST.match(text)
    if cue is None and not (_CORRECTED_LIST.match(text) and re.search(r"\blist\b|רשימ", text, re.I)):
        return None
    latest = inp.latest_actions[0] if inp.latest_actions else None
    if latest is None or (latest.capability, latest.action) != ("lists", "add"):
        return None
    rest = text[cue.end() :] if cue is not None else _LEAD.sub("", text, count=1)
    name = answered_list_name(rest if cue is not None else text)
    key = (latest.external_ids or {}).get("listKey")
    added = _what_was_added(latest)
    if name is None or added is None or not isinstance(key, str) or list_key(name) == key:
        return None
    from_list, items = added
    moved = Match(
        capability="lists",
        action="add",
        confidence=GUESS,
        risk="low",
        constraints={"listName": list_name(name)},
        changes={"items": items},
        pattern="lists:moved",
    )
    return [_taken_off(from_list, items, "lists:moved"), moved]


def _what_was_added(latest: LatestAction) -> tuple[str, list[str]] | None:
    """The list a list add's summary names, and the things it says it added."""
    said = _ADDED.match(latest.summary.strip())
    if said is None:
        return None
    items = [item.strip() for item in (said.group("en") or said.group("he")).split(",") if item.strip()]
    return said.group("en_list") or said.group("he_list"), items


def _taken_off(list_name: str, items: list[str], pattern: str) -> Match:
    """The things just added, off their list again: the first step of an exchange or a move."""
    return Match(
        capability="lists",
        action="remove",
        confidence=GUESS,
        risk="medium",
        constraints={"listName": list_name},
        changes={"items": items},
        pattern=pattern,
    )


def _exchanged(latest: LatestAction, found: Match) -> list[Match] | None:
    """ "add milk" -> "instead add oat milk": milk comes off its list and oat milk goes on, asked
    first. Another list named, or the items added not known: only the new add, asked first (what
    was added stays)."""
    if (found.capability, found.action) != ("lists", "add"):
        return [found]
    added = _what_was_added(latest)
    key = (latest.external_ids or {}).get("listKey")
    named = found.constraints.get("listName")
    if added is None or not isinstance(key, str) or not key:
        return [_asked(found)]
    if isinstance(named, str) and named != UNNAMED_LIST and list_key(named) != key:
        return [_asked(found)]
    list_name, items = added
    instead = Match(
        capability="lists",
        action="add",
        confidence=GUESS,
        risk=found.risk,
        constraints={**found.constraints, "listName": list_name},
        changes=found.changes,
        pattern="lists:instead",
    )
    return [_taken_off(list_name, items, "lists:instead"), instead]


def _asked(found: Match) -> Match:
    return Match(
        capability=found.capability,
        action=found.action,
        confidence=min(found.confidence, GUESS),
        risk=found.risk,
        constraints=found.constraints,
        changes=found.changes,
        missing=found.missing,
        needs_approval=found.needs_approval,
        intent=found.intent,
        pattern=found.pattern,
    )
