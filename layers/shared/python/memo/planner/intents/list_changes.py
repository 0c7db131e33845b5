"""Changing the words of one thing on a list: "change eggs to 12 eggs", "replace the bread with
sourdough bread on my shopping list", "swap milk for oat milk", "תשנה ביצים ל-12 ביצים", "תחליף את
הלחם בלחם מחמצת", and right after things went on a list, "actually make it 12 eggs" / "תעשה את זה 12
ביצים".

Without a list named, the words are a list's only when they are about a thing on one: the new
words keep the old ones ("12 eggs" for "eggs"), or the thing is one people buy, or it was just
added. Anything else ("change gym to yoga") stays with reminders and notes. Which list holds the
thing, and whether it is there at all, is entity resolution's (`memo.resolution.lookup`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import LatestAction
from memo.planner.base import PlannerInput
from memo.planner.groceries import is_known_thing
from memo.planner.intents.list_words import KNOWN_LISTS_HE, LIST_NAME_EN, NAMES_A_KIND, list_name, no_article
from memo.planner.lexicon import NOTE_EN, REMINDER_EN, clean, has_hebrew
from memo.planner.match import CONFIDENT, REFERENTIAL, Match, latest_action, parse_when
from memo.text.matching import stem

_VERB_EN = r"(?:change|replace|swap|switch|update|correct|fix|rename|turn|make)"
_CHANGE_EN = (
    # "change eggs to 12 eggs on my shopping list": the list named
    re.compile(
        rf"^{_VERB_EN}\s+(?P<old>.+?)\s+(?:to|with|for|into)\s+(?P<new>.+?)\s+(?:on|in)\s+{LIST_NAME_EN}\s+list\s*[.!]*$",
        re.I,
    ),
    re.compile(
        rf"^(?:on|in)\s+{LIST_NAME_EN}\s+list,?\s+{_VERB_EN}\s+(?P<old>.+?)\s+(?:to|with|for|into)\s+(?P<new>.+?)\s*[.!]*$",
        re.I,
    ),
    re.compile(rf"^{_VERB_EN}\s+(?P<old>.+?)\s+(?:to|with|for|into)\s+(?P<new>.+?)\s*[.!]*$", re.I),
)
_VERB_HE = r"(?:תשנה|תשני|שנה|לשנות|תחליף|תחליפי|החלף|להחליף|תתקן|תתקני)"
#: "תשנה ביצים ל-12 ביצים", "תחליף את הלחם בלחם מחמצת": the new words start at the last " ל"/" ב".
_CHANGE_HE = re.compile(
    rf"^{_VERB_HE}\s+(?:לי\s+)?(?:את\s+)?(?P<rest>.+?)"
    rf"(?:\s+(?:ב|מ)?רשימ(?:ת|ה)(?:\s+(?:של\s+)?(?P<name>\S+))?|\s+ב(?P<known>{KNOWN_LISTS_HE}))?\s*[.!]*$"
)
#: "actually make it 12 eggs", "make that oat milk", "תעשה את זה 12 ביצים", "בעצם תעשה את זה 12",
#: and the new words alone when they say one thing more precisely ("actually 12 eggs")
_MAKE_IT = re.compile(
    r"^(?:(?:actually|oh|wait|sorry|oops|no)[\s,!.]+)*(?:make|change)\s+(?:it|that|this|them)\s+(?:to\s+|into\s+)?"
    r"(?P<new>[^?]+?)\s*[.!]*$"
    r"|^(?:(?:בעצם|רגע|סליחה|אופס)[\s,!.]+)*(?:תעשה|תעשי|תהפוך|תשנה|תשני)\s+(?:את\s+)?(?:זה|זאת|אותו|אותה)\s+"
    r"(?:ל-?)?(?P<he>[^?]+?)\s*[.!]*$",
    re.I,
)
#: "actually 12 eggs", "בעצם 12 ביצים": the new words alone, after a word that corrects (read from
#: the message as sent: the planner sets such lead-in words aside)
_BARE = re.compile(
    r"^(?:(?:oh|no|sorry)[\s,]+)?(?:actually|wait|i\s+meant|i\s+mean|בעצם|רגע|התכוונתי(?=\s+\S))[\s,!.:]+"
    r"(?P<bare>[^?]+?)\s*[.!]*$",
    re.I,
)
_NEGATED = re.compile(r"^(?:not|no|without|minus|except|לא|בלי|חוץ|מלבד)(?=\s|$)", re.I)
#: Words of a reminder or a note, a time or a day: not a list's thing.
_NOT_A_THING = re.compile(rf"\b(?:{REMINDER_EN}|{NOTE_EN}|title|name)\b|תזכור|פתק|שם|כותרת", re.I)


def change(text: str, inp: PlannerInput) -> Match | None:
    """ "change eggs to 12 eggs (on my shopping list)", "תחליף את הלחם בלחם מחמצת"."""
    said = _said_en(text) or _said_he(text)
    if said is None:
        return None
    old, new, name = said
    if not old or not new or NAMES_A_KIND.search(old) or _NOT_A_THING.search(f"{old} {new}"):
        return None
    if _a_time(new, inp):
        return None  # "change the dentist to 5pm": a time, a reminder's
    if name is None and not _about_a_thing(old, new, inp):
        return None
    return _changed(old, new, list_name(name) if name else UNNAMED_LIST, CONFIDENT if name else 0.8)


def _said_en(text: str) -> tuple[str, str, str | None] | None:
    for pattern in _CHANGE_EN:
        match = pattern.match(text.strip())
        if match:
            name = match.groupdict().get("name")
            return no_article(clean(match.group("old"))), clean(match.group("new")), name
    return None


def _said_he(text: str) -> tuple[str, str, str | None] | None:
    """The old and the new words of a Hebrew change: the new ones start at a word that begins with
    ל or ב and holds the old words ("ל-12 ביצים", "בלחם מחמצת"), or at the last such word."""
    match = _CHANGE_HE.match(text.strip())
    if match is None:
        return None
    words = match.group("rest").split()
    name = match.group("name") or match.group("known")
    splits = [i for i in range(1, len(words)) if words[i][:1] in ("ל", "ב")]
    for i in reversed(splits):
        old = no_article(" ".join(words[:i]))
        new = clean(" ".join([words[i][1:].lstrip("-"), *words[i + 1 :]]))
        if new and _keeps(old, no_article(new)):
            return old, no_article(new), name
    if not splits:
        return None
    i = splits[-1]
    return (
        no_article(" ".join(words[:i])),
        no_article(clean(" ".join([words[i][1:].lstrip("-"), *words[i + 1 :]]))),
        name,
    )


def _a_time(words: str, inp: PlannerInput) -> bool:
    """The words are a time or a day and nothing more ("5pm", "tomorrow"; not "12 eggs")."""
    when = parse_when(words, inp)
    return when.found and not clean(when.remainder)


def _keeps(old: str, new: str) -> bool:
    """The new words hold the old ones ("12 eggs" for "eggs", "lactose-free milk" for "milk"), as
    written or word by word as matching compares words ("3 tomatoes" for "tomatos")."""
    if not old:
        return False
    if re.search(rf"(?<!\w){re.escape(old.lower())}(?!\w)", new.lower()) is not None:
        return True
    olds, news = _stems(old), _stems(new)
    return any(news[i : i + len(olds)] == olds for i in range(len(news) - len(olds) + 1))


def _stems(text: str) -> list[str]:
    return [stem(word) for word in re.findall(r"\w+", text.lower())]


def _about_a_thing(old: str, new: str, inp: PlannerInput) -> bool:
    """With no list named: the new words are the thing said more precisely, or the thing is one
    people buy, or it was just put on a list."""
    latest = latest_action(inp)
    just_added = (
        latest is not None
        and (latest.capability, latest.action) == ("lists", "add")
        and _keeps(old, latest.summary)
    )
    return _refines(old, new) or is_known_thing(old) or just_added


def _refines(old: str, new: str, *, either_side: bool = False) -> bool:
    """The new words are the old thing, said more precisely: words before it ("12 eggs",
    "sourdough bread"), in Hebrew a number before it or words after it ("12 ביצים", "חלב סויה").
    "call mom and dad" for "call mom" adds after it: a reminder's title, more likely (`either_side`:
    the thing is known to be on the list, so both)."""
    old_words, new_words = _stems(old), _stems(new)
    if not old_words or len(new_words) <= len(old_words):
        return False
    before = new_words[-len(old_words) :] == old_words
    after = new_words[: len(old_words)] == old_words
    if either_side:
        return before or after
    if has_hebrew(old):
        return after or (before and new_words[0].isdigit())
    return before


def make_it(text: str, inp: PlannerInput) -> Match | None:
    """ "actually make it 12 eggs" right after "add eggs and bread to my shopping list": the thing
    the new words hold ("eggs"), or the one thing added. Only after things went on a list."""
    latest = latest_action(inp)
    said = _MAKE_IT.match(text.strip())
    bare = _BARE.match(inp.message.strip()) if said is None else None
    if (
        latest is None
        or (said is None and bare is None)
        or (latest.capability, latest.action) != ("lists", "add")
    ):
        return None
    new = clean(
        bare.group("bare")
        if bare is not None
        else (said.group("new") or said.group("he") or "")
        if said
        else ""
    )
    if not new or _a_time(new, inp):
        return None
    earlier = _held_earlier(new, inp) if said is not None else []
    if len(earlier) > 1:
        return None  # which of the earlier adds is not said: not guessed
    if earlier:
        latest = earlier[0]  # "make it 2 bottles of olive oil" after olive oil, then paper towels
    key = (latest.external_ids or {}).get("listKey")
    if not isinstance(key, str) or not key:
        return None
    added = _added_things(latest.summary)
    held = [thing for thing in added if _keeps(thing, new)]
    if bare is not None:
        # "actually 12 eggs": only the thing said more precisely ("not the bread" is no such thing)
        held = [thing for thing in added if _refines(thing, new, either_side=True)]
        if len(held) != 1 or _NEGATED.match(new):
            return None
    if len(held) == 1:
        old = held[0]
    elif len(added) == 1:
        old = added[0]
    else:
        return None  # which one is not said: not guessed
    return replace(_changed(old, no_article(new), key, REFERENTIAL), pattern="lists:make_it")


def _held_earlier(new: str, inp: PlannerInput) -> list[LatestAction]:
    """The earlier adds among the latest actions whose things the new words hold, when the latest
    add's things are not held: the words name such an add's thing, not the one added since."""
    adds = [a for a in inp.latest_actions if (a.capability, a.action) == ("lists", "add")]
    if not adds or any(_keeps(thing, new) for thing in _added_things(adds[0].summary)):
        return []
    return [a for a in adds[1:] if any(_keeps(thing, new) for thing in _added_things(a.summary))]


#: "added eggs, bread to the shopping list" / "הוספתי ביצים, לחם לרשימת קניות": the things added.
_ADDED = re.compile(r"^(?:added|הוספתי)\s+(?P<things>.+?)\s+(?:to\s+the\s+.+\s+list|לרשימת\s+.+)$", re.I)


def _added_things(summary: str) -> list[str]:
    found = _ADDED.match(summary.strip())
    return [t.strip() for t in found.group("things").split(",") if t.strip()] if found else []


def _changed(old: str, new: str, list_name: str, confidence: float) -> Match:
    return Match(
        capability="lists",
        action="update",
        confidence=confidence,
        risk="medium",
        constraints={"listName": list_name, "target": old},
        changes={"text": new},
        pattern="lists:change",
    )
