"""Deletes that name no kind of thing: "cancel the 8pm one", "stop the morning one" (a reminder,
by its time), and "delete X" matched against what was just done."""

from __future__ import annotations

import re
from datetime import datetime

from memo.capabilities.lists import UNNAMED_LIST
from memo.planner.base import PlannerInput
from memo.planner.groceries import is_known_thing
from memo.planner.intents.list_words import items_of, no_article
from memo.planner.intents.reminder_deletes import several, several_named
from memo.planner.lexicon import DELETE_EN, DELETE_HE, as_title, clean, has_hebrew, the_one_named
from memo.planner.match import CONFIDENT, GUESS, Match
from memo.planner.timeparse import extract_when

_RE_BARE_DELETE = re.compile(rf"^(?:{DELETE_EN}|{DELETE_HE})\s+(?:the\s+|my\s+|את\s+)?(?P<target>.+)$", re.I)
#: "stop the 8pm one", "turn off the morning one", "תעצור את זו של שמונה": a repeating reminder, by its time.
_RE_STOP_THE_ONE = re.compile(
    r"^(?:stop|turn\s+off|disable|(?:תעצור|תעצרי|תפסיק|תפסיקי|תכבה|תכבי)\s+(?:את\s+)?)\s*(?:the\s+|my\s+)?(?P<target>.+)$",
    re.I,
)
#: "the 8pm one", "the morning one", "זו של שמונה בערב": what is left once "the ... one" is set aside
_BY_TIME_WORDS = re.compile(r"^(?:זו|זאת|זה|הזו|הזאת)?\s*(?:של\s+)?", re.I)


def _a_reminder_by_its_time(target: str, now: datetime) -> bool:
    """ "8pm", "the evening", "שמונה בערב": the words name a time and nothing else: only a reminder
    has one, and entity resolution picks it by that time (`memo.hitl.by_time`). `now`: when they were said."""
    words = _BY_TIME_WORDS.sub("", target).strip()
    if not words:
        return False
    language = "he" if has_hebrew(words) else "en"
    # As said, or as it would be said in full: "the 9 one" (at 9), "זו של שמונה בערב" (בשמונה בערב),
    # "the evening one" (in the evening).
    ways = (words, f"ב{words}") if language == "he" else (words, f"at {words}", f"in the {words}")
    for way in ways:
        parsed = extract_when(way, now=now, timezone="UTC", language=language)
        if parsed.found and parsed.recurrence is None and not clean(parsed.remainder).strip(" .,!?"):
            return True
    return False


#: "everything", "all of it", "הכל" before the day of a delete that names no kind of thing.
_EVERYTHING = re.compile(r"^(?:(?:everything|all(?:\s+of\s+it)?|it\s+all)\b|את\s+)?(?:הכל|הכול)?\s*", re.I)


def _a_day_of_reminders(target: str, now: datetime) -> str | None:
    """ "everything tomorrow", "all on friday", "הכל מחר", "tomorrow": the day words when the words
    name a day (and maybe "everything") and nothing else; None otherwise."""
    words = _EVERYTHING.sub("", target, count=1).strip()
    if not words:
        return None
    language = "he" if has_hebrew(words) else "en"
    parsed = extract_when(words, now=now, timezone="UTC", language=language)
    if not parsed.found or parsed.recurrence is not None or clean(parsed.remainder).strip(" .,!?"):
        return None
    return words


#: "the plumber one and the cat one", "the gym and dentist ones", "the gym, the bank and the cat ones"
_ONES_END = re.compile(r"\s+ones?\s*[.!]*$", re.I)
_ONES_SPLIT = re.compile(r"(?:\s+one)?\s*(?:,|\band\b|&)\s*(?:and\s+)?(?:the\s+|my\s+)?", re.I)


def _the_ones_named(target: str) -> list[str]:
    """The names of several reminders said as "ones" ("the X one and the Y one"); [] otherwise."""
    if not _ONES_END.search(target):
        return []
    names = [clean(part).strip(" ,;:-") for part in _ONES_SPLIT.split(_ONES_END.sub("", target))]
    return names if len(names) > 1 and all(names) else []


def stop_by_time(text: str, inp: PlannerInput) -> Match | None:
    """ "stop the 8pm one": the reminder at that time, every time it comes (approved first)."""
    match = _RE_STOP_THE_ONE.match(text)
    if not match:
        return None
    target = clean(the_one_named(match.group("target")))
    if not _a_reminder_by_its_time(target, inp.now):
        return None
    return Match(
        capability="reminders",
        action="delete",
        confidence=CONFIDENT,
        risk="high",
        constraints={"target": target, "scope": "series"},
        pattern="reminders:stop_by_time",
    )


def noun_less_delete(text: str, inp: PlannerInput) -> Match | None:
    match = _RE_BARE_DELETE.match(text)
    if not match:
        return None
    said = clean(the_one_named(match.group("target")))
    if _a_reminder_by_its_time(said, inp.now):
        # "cancel the 8pm one": only a reminder has a time; which one is found by it, then approved.
        return Match(
            capability="reminders",
            action="delete",
            confidence=CONFIDENT,
            risk="high",
            constraints={"target": said},
            pattern="reminders:delete_by_time",
        )
    day = _a_day_of_reminders(said, inp.now)
    if day is not None:
        # "delete everything tomorrow", "cancel all on friday", "תמחק הכל מחר": only reminders have
        # a day, so every reminder of that day, shown in one approval.
        return several([day], text, {})
    things = _things_bought(said)
    if things:
        # "delete milk and bread", "תמחק את התפוחים ואת החלב": things people buy are list items, taken
        # off the list that has them (as "remove milk and bread").
        return Match(
            capability="lists",
            action="remove",
            confidence=0.8,
            risk="medium",
            constraints={"listName": UNNAMED_LIST},
            changes={"items": things},
            pattern="lists:delete_things",
        )
    if has_hebrew(said) and (names := several_named(said, plural=True)):
        # "תמחק את הבנק ואת המתנה": two things named with "ואת", each found among the reminders
        # and shown in one approval (a name that matches nothing is said, and nothing runs).
        return several(names, text, {})
    if not has_hebrew(said) and (names := _the_ones_named(match.group("target"))):
        # "delete the plumber one and the cat one", "cancel the gym and dentist ones": each of them
        # found among the reminders (the "one" of a reminder) and shown in one approval.
        return several(names, text, {})
    target = as_title(said)
    latest = _of_the_latest(target, inp)
    if latest is not None:
        return latest
    return Match(
        capability="reminders",
        action="delete",
        confidence=GUESS,
        risk="high",
        constraints={"target": target},
        pattern="delete:guess",
    )


def _things_bought(said: str) -> list[str]:
    """Several things named, each one people buy ("apples and bread", "התפוחים ואת החלב"); []
    otherwise (one thing stays with what was just done and entity resolution)."""
    things = [no_article(_HE_OBJECT.sub("", item)) for item in items_of(said)]
    return things if len(things) > 1 and all(is_known_thing(thing) for thing in things) else []


_HE_OBJECT = re.compile(r"^את\s+")


def _of_the_latest(target: str, inp: PlannerInput) -> Match | None:
    """ "delete call mom" right after it was set: a delete of the kind just made; "delete eggs" right
    after eggs went on a list: off that list (a list has no delete of an item, it removes it)."""
    from rapidfuzz import fuzz

    for action in inp.latest_actions:
        if fuzz.partial_ratio(target.lower(), action.summary.lower()) < 80:
            continue
        key = (action.external_ids or {}).get("listKey") if action.capability == "lists" else None
        if isinstance(key, str) and key:
            return Match(
                capability="lists",
                action="remove",
                confidence=0.8,
                risk="medium",  # as every removal from a list (`list_removals`)
                constraints={"listName": key},
                changes={"items": [no_article(target)]},
                pattern="lists:remove_latest",
            )
        if action.capability != "lists":
            return Match(
                capability=action.capability,
                action="delete",
                confidence=0.8,
                risk="high",
                constraints={"target": target},
                pattern="delete:latest_match",
            )
    return None
