"""Taking things off a list ("remove milk from my shopping list", "cross off eggs", "bought the
bread") and clearing a whole list."""

from __future__ import annotations

import re
from dataclasses import replace

from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import LIST_ITEMS_REQUIRED
from memo.planner.base import PlannerInput
from memo.planner.groceries import is_known_thing
from memo.planner.intents.list_words import (
    KNOWN_LISTS,
    KNOWN_LISTS_HE,
    LIST_NAME_EN,
    NAMES_A_KIND,
    a_as_one,
    by_number,
    items_of,
    list_for,
    list_items,
    list_name,
    no_article,
    unnamed,
)
from memo.planner.lexicon import clean, limit_of
from memo.planner.match import CONFIDENT, REFERENTIAL, Match, latest_action

_RE_LIST_REMOVE = (
    re.compile(
        rf"^(?:remove|delete|take|cross|strike)\s+(?:off\s+)?(?P<items>.+?)\s+(?:off|from|out of|on)\s+{LIST_NAME_EN}\s+list\b",
        re.I,
    ),
    re.compile(
        rf"^(?:remove|delete|take|cross)\s+(?:off\s+)?(?P<items>.+?)\s+(?:off|from)\s+(?:my\s+|the\s+)?(?P<name>{KNOWN_LISTS})\b",
        re.I,
    ),
    re.compile(
        r"^(?:תוריד|תורידי|הורד|להוריד|תמחק|תמחקי|מחק|תסיר|הסר)\s+(?:לי\s+)?(?:את\s+)?(?P<items>.+?)\s+"
        r"(?:מ|מה)רשימ(?:ת|ה)(?:\s+(?:של\s+)?(?P<name>\S+))?\s*$"
    ),
    # "תמחק קפה מהקניות": the list by its name alone
    re.compile(
        r"^(?:תוריד|הורד|להוריד|תמחק|מחק|תסיר|הסר)\s+(?:לי\s+)?(?:את\s+)?(?P<items>.+?)\s+"
        rf"מ-?(?P<name>{KNOWN_LISTS_HE})\s*$"
    ),
    # "תוריד מרשימת המשימות לתקן את הברז": the list, then the things
    re.compile(
        # ("מרשימת" is always followed by the list's name: "תמחק מרשימת הקניות" names no things)
        r"^(?:תוריד|הורד|להוריד|תמחק|מחק|תסיר|הסר)\s+(?:לי\s+)?(?:מ|מה)רשימ(?:ת(?=\s+(?:של\s+)?\S+\s+\S)|ה)"
        r"(?:\s+(?:של\s+)?(?P<name>(?!את\s)\S+))?\s+"
        r"(?:את\s+)?(?P<items>.+)$"
    ),
)


#: "remove something from the shopping list", "תמחק מרשימת הקניות": a list, and nothing named to take off.
_FROM_A_LIST_ONLY = re.compile(
    r"^(?:remove|delete|take|cross|strike|erase)\s+(?:(?:something|an?\s+item|items|things|stuff)\s+)?"
    r"(?:off|from|out\s+of)\s+(?:my\s+|the\s+|our\s+)?"
    rf"(?:(?P<name>[\w\-']+(?:\s+[\w\-']+)?)\s+list|(?P<known>{KNOWN_LISTS}))\s*[.!?]*$"
    r"|^(?:תוריד|הורד|להוריד|תמחק|מחק|למחוק|תסיר|הסר)\s+(?:לי\s+)?(?:משהו\s+|פריט\s+|דברים\s+)?"
    r"(?:מ|מה)(?:רשימת\s+(?:ה)?(?P<he>\S+)|רשימה)\s*[.!?]*$",
    re.I,
)


def from_a_list_only(text: str, inp: PlannerInput) -> Match | None:
    """ "delete from the shopping list", "תוריד מרשימת הקניות": what to take off is asked (it was read
    as a reminder named "from the shopping list", or the thing "קניות" off an unnamed list)."""
    match = _FROM_A_LIST_ONLY.match(text.strip())
    if match is None:
        return None
    name = match.group("name") or match.group("known") or match.group("he")
    return Match(
        capability="lists",
        action="remove",
        confidence=CONFIDENT,
        risk="medium",
        constraints={"listName": UNNAMED_LIST if unnamed(name) else list_name(name)},
        changes={"items": []},
        missing=(LIST_ITEMS_REQUIRED,),
        pattern="lists:remove_unnamed",
    )


_RE_LIST_CLEAR = (
    # "remove everything except the bread", "delete all but the milk": the list that has them.
    re.compile(
        r"^(?:clear|delete|remove|erase)\s+(?:everything|all(?:\s+(?:of\s+)?the\s+items)?|all\s+items|every\s+item)"
        r"(?P<name>)(?=\s*,?\s+(?:except|but|apart\s+from|other\s+than|besides)\b)",
        re.I,
    ),
    # "delete everything on my shopping list", "remove all the items from the todo list"
    re.compile(
        r"^(?:clear|empty|wipe|delete|remove|erase|take)\s+(?:everything|all(?:\s+(?:of\s+)?the\s+items)?|all\s+items|"
        rf"every\s+item)\s+(?:on|in|from|off)\s+{LIST_NAME_EN}\s+list\b",
        re.I,
    ),
    re.compile(
        rf"^(?:clear|empty|wipe|delete|reset)\s+(?:out\s+)?(?:all\s+of\s+)?{LIST_NAME_EN}\s+list\b", re.I
    ),
    re.compile(
        r"^(?:תנקה|תנקי|נקה|תרוקן|תרוקני|רוקן|תמחק|מחק|למחוק)\s+(?:לי\s+)?(?:את\s+)?"
        r"(?:כל\s+מה\s+ש(?:יש\s+)?(?:ב|מ)?|(?:את\s+)?(?:הכל|הכול|כל\s+הפריטים|כל\s+הדברים)\s+(?:מ|מה|ב|ש?ב)|כל\s+)?(?:ה)?רשימ(?:ת|ה)\s*"
        r"(?:של\s+)?(?P<name>(?!חוץ|מלבד|פרט|אבל)\S+)?"
        r"(?=\s*$|\s+(?:חוץ|מלבד|פרט|אבל|ותשאיר|תשאיר|בלי))"
    ),
)


#: "remove the milk", "cross off eggs", "תוריד את החלב": taking a thing off, with no list, reminder or
#: note named, is about a list item (the list that has it is found when resolved). "delete X" and
#: "cancel X" stay with reminders and what was just done (`followups.noun_less_delete`).
_RE_TAKE_OFF = (
    re.compile(
        r"^(?:remove|take\s+off|cross\s+off|strike\s+off|tick\s+off|check\s+off)\s+(?P<items>.+?)\s*$", re.I
    ),
    re.compile(r"^(?:take|cross|strike|tick|check)\s+(?P<items>.+?)\s+off\s*$", re.I),
    # "mark the milk as bought": bought, so off the list that has it ("as done" is a reminder's word)
    re.compile(r"^mark\s+(?P<items>.+?)\s+(?:as\s+)?(?:bought|purchased)\s*[.!]*$", re.I),
    re.compile(r"^(?:תוריד|תורידי|הורד|להוריד|תסיר|תסירי|הסר|להסיר)\s+(?:לי\s+)?(?P<items>.+?)\s*$"),
    # "bought the milk", "picked up eggs and bread", "קניתי לחם": bought, so off the list that has it.
    re.compile(
        r"^(?:i\s+|we\s+)?(?:just\s+|already\s+)?(?:bought|picked\s+up|purchased)\s+(?P<items>[^?]+?)\s*[.!]*$",
        re.I,
    ),
    re.compile(
        r"^(?:כבר\s+)?(?:קניתי|קנינו|קנית|לקחתי\s+מהסופר)\s+(?:כבר\s+|גם\s+)?(?:את\s+)?(?P<items>[^?]+?)\s*[.!]*$"
    ),
)
#: "done with fix the faucet", "finished the report", "סיימתי לתקן את הברז", "לתקן את הברז בוצע": a task
#: done, so off the list that has it (on none, that is said). Not a thing people buy: "finished the
#: milk" is that it ran out.
_RE_DONE = (
    re.compile(
        r"^(?:ok(?:ay)?[\s,]+)?(?:i(?:'m|\s+am)\s+|i\s+|we\s+)?(?:just\s+|already\s+)?"
        r"(?:done\s+with|finished(?:\s+with)?|completed)\s+(?P<items>[^?]+?)\s*[.!]*$",
        re.I,
    ),
    re.compile(
        r"^(?:כבר\s+)?(?:סיימתי|גמרתי|ביצעתי)\s+(?:כבר\s+)?(?:עם\s+)?(?:את\s+)?(?P<items>[^?]+?)\s*[.!]*$"
    ),
    re.compile(r"^(?P<items>[^?]+?)\s+(?:בוצע|בוצעה|הושלם|הושלמה)\s*[.!]*$"),
)
#: What is done that is no thing on a list: "done for today", "finished work", "סיימתי לעבוד".
_DONE_NOTHING = re.compile(
    r"^(?:for\s+)?(?:today|the\s+day|now|work|everything|all|it\s+all|eating|lunch|dinner|breakfast|here|"
    r"talking|that|this|it|them|היום|לעבוד|הכל|הכול|לאכול|העבודה|זה|אותו|אותה|אותם)$",
    re.I,
)


def _done(text: str, inp: PlannerInput) -> Match | None:
    """ "done with fix the faucet": that task off the list that has it (`_RE_DONE`)."""
    said = next((m for m in (p.match(text) for p in _RE_DONE) if m is not None), None)
    if (
        said is None
        or _DONE_NOTHING.match(said.group("items").strip())
        or NAMES_A_KIND.search(said.group("items"))
    ):
        return None
    items = [no_article(i) for i in items_of(said.group("items"))]
    if (
        not items
        or any(is_known_thing(i) for i in items)
        or _names_something_just_done(said.group("items"), inp)
    ):
        return None
    return Match(
        capability="lists",
        action="remove",
        confidence=0.8,
        risk="medium",
        constraints={"listName": UNNAMED_LIST},
        changes={"items": items},
        pattern="lists:done",
    )


#: "got the eggs (too)": bought, when every thing named is a thing people buy ("got a call from mom"
#: is no purchase).
_RE_GOT = re.compile(r"^(?:i\s+|we\s+)?(?:just\s+|already\s+|also\s+)?got\s+(?P<items>[^?]+?)\s*[.!]*$", re.I)


def _names_something_just_done(words: str, inp: PlannerInput) -> bool:
    """The words name a reminder or note Memo just made or changed (a latest action)."""
    from rapidfuzz import fuzz

    wanted = clean(words).lower()
    return any(
        action.capability != "lists" and fuzz.partial_ratio(wanted, action.summary.lower()) >= 80
        for action in inp.latest_actions
    )


#: "take it off the list", "תוריד את זה מהרשימה": no thing named, the one just added is meant
#: (`followups`, which reads "it" as the latest action).
#: (A place, "the last one" / "האחרון", stays an item: the list's own last one.)
_ONLY_IT = re.compile(
    r"^(?:it|that|this|that\s+one|this\s+one|them|those|these|(?:את\s+)?(?:זה|זאת)|אותו|אותה|אותם|אותן)$",
    re.I,
)


def remove(text: str, inp: PlannerInput) -> Match | None:
    found = list_items(list_for(text), _RE_LIST_REMOVE, "remove", "medium")
    if found is not None:
        said = (found.changes or {}).get("items")
        pronoun = isinstance(said, list) and any(_ONLY_IT.match(str(item)) for item in said)
        if pronoun:
            return None
        numbered = by_number([str(item) for item in said]) if isinstance(said, list) else []
        return replace(found, changes={**(found.changes or {}), "items": numbered}) if numbered else found
    for pattern in _RE_TAKE_OFF:
        match = pattern.search(text)
        if match and _ONLY_IT.match(match.group("items").strip()):
            return None
        if match and not NAMES_A_KIND.search(match.group("items")):
            if _names_something_just_done(match.group("items"), inp):
                return None  # "remove call mom" just after that reminder was set: it is meant
            return Match(
                capability="lists",
                action="remove",
                confidence=0.8,
                risk="medium",
                constraints={"listName": UNNAMED_LIST},
                changes={
                    "items": by_number(
                        [a_as_one(no_article(i)) for i in items_of(a_as_one(match.group("items")))]
                    )
                },
                pattern="lists:take_off",
            )
    done = _done(text, inp)
    if done is not None:
        return done
    got = _RE_GOT.match(text)
    items = [no_article(i) for i in items_of(got.group("items"))] if got is not None else []
    if items and all(is_known_thing(i) for i in items):
        return Match(
            capability="lists",
            action="remove",
            confidence=0.8,
            risk="medium",
            constraints={"listName": UNNAMED_LIST},
            changes={"items": items},
            pattern="lists:got",
        )
    return None


#: "actually not the bread", "without the eggs", "scratch the milk", "בעצם בלי הלחם", "לא לחם": right
#: after things went on a list, some of them taken off again.
_NOT_AFTER_ALL = re.compile(
    r"^(?:(?:actually|oh|wait|sorry|oops|hmm|no)[\s,!.]+)*(?:not|no|without|minus|scratch|skip|forget)\s+"
    r"(?P<items>[^?]+?)\s*[.!]*$"
    r"|^(?:(?:בעצם|רגע|סליחה|אופס|לא)[\s,!.]+)*(?:בלי|לא|תוותר\s+על|עזוב)\s+(?:את\s+)?(?P<he>[^?]+?)\s*[.!]*$",
    re.I,
)


def not_after_all(text: str, inp: PlannerInput) -> Match | None:
    """ "actually not the bread" right after "add milk, eggs and bread to my shopping list": the
    bread comes off that list again. Only what that add named: anything else is no such correction."""
    latest = latest_action(inp)
    said = _NOT_AFTER_ALL.match(text.strip())
    if latest is None or said is None or (latest.capability, latest.action) != ("lists", "add"):
        return None
    key = (latest.external_ids or {}).get("listKey")
    items = [no_article(i) for i in items_of(said.group("items") or said.group("he"))]
    added = latest.summary.lower()
    if not isinstance(key, str) or not key or not items:
        return None
    if not all(re.search(rf"(?<!\w){re.escape(item.lower())}(?!\w)", added) for item in items):
        return None
    return Match(
        capability="lists",
        action="remove",
        confidence=REFERENTIAL,
        risk="medium",  # as every removal from a list
        constraints={"listName": key},
        changes={"items": items},
        pattern="lists:not_after_all",
    )


_ITEMS_FROM = re.compile(r"\b(?:from|off|out\s+of)\b", re.I)


def clear(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_LIST_CLEAR:
        match = pattern.search(text)
        if match:
            name = match.group("name")
            if name and _ITEMS_FROM.search(name):
                return None  # "delete coffee from my shopping list": items, not the list
            if unnamed(name):
                name = None  # "clear the list": the one that has items, found when resolved

            return Match(
                capability="lists",
                action="clear",
                # A list not named is found when resolved, and the approval names it and its items.
                confidence=CONFIDENT,
                risk="high",
                constraints={
                    "listName": list_name(name) if name else UNNAMED_LIST,
                    # "... except the bread": never the whole list.
                    **limit_of(text[match.end() :]),
                },
                needs_approval=True,
                pattern="lists:clear",
            )
    return None
