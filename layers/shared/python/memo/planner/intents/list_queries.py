"""Showing lists: one list ("what's on my shopping list?", "מה יש ברשימה"), or all of them."""

from __future__ import annotations

import re

from memo.capabilities.lists import UNNAMED_LIST
from memo.planner.base import PlannerInput
from memo.planner.intents.daily import listing
from memo.planner.intents.list_words import (
    KNOWN_LISTS,
    KNOWN_LISTS_HE,
    LIST_FOR,
    LIST_NAME_EN,
    list_for,
    list_name,
    unnamed,
)
from memo.planner.lexicon import HOW_MANY, clean, has_hebrew
from memo.planner.match import CONFIDENT, Match, parse_when

_RE_LIST_SHOW = (
    re.compile(
        rf"^(?:show|read|list|see|view|get|open|give|send|tell|what'?s|whats|what\s+is|what\s+are|what\s+do\s+i\s+have|check|"
        rf"what\s+do\s+(?:i|we)\s+need(?:\s+to\s+(?:buy|get))?(?:\s+(?:from|at))?)"
        rf"\s+(?:me\s+)?(?:what'?s\s+|what\s+is\s+|what\s+i\s+have\s+)?(?:left\s+|still\s+)?(?:on|in)?\s*{LIST_NAME_EN}\s+list\b",
        re.I,
    ),
    re.compile(r"^(?:my|the)\s+(?P<name>[\w\-]+)\s+list\s*\??$", re.I),
    # "what's in my groceries?", "show me my shopping": a list everybody keeps, without the word "list"
    re.compile(
        r"^(?:show|read|see|view|get|open|check|what'?s|whats|what\s+is|what\s+do\s+i\s+have)\s+(?:me\s+)?"
        rf"(?:(?:on|in)\s+)?(?:my|the|our)\s+(?P<name>{KNOWN_LISTS})\s*\??$",
        re.I,
    ),
    # "show groceries", "open shopping": a list everybody keeps, named alone after a verb that shows.
    re.compile(
        rf"^(?:show|read|see|view|open)\s+(?:me\s+)?(?P<name>{KNOWN_LISTS})\s*[?.!]?$",
        re.I,
    ),
    # "what do I need to buy?", "מה צריך לקנות?": the shopping list.
    re.compile(
        r"^what\s+(?:do|should)\s+(?:i|we)\s+(?:need\s+to\s+|have\s+to\s+)?(?P<name>buy|get)\s*\??$", re.I
    ),
    re.compile(
        r"^מה\s+(?:(?:אני|אנחנו)\s+)?(?:צריך|צריכים|צריכה|חסר|נשאר)\s+(?:לי\s+|לנו\s+|עוד\s+)?(?P<name>לקנות)\s*\??$"
    ),
    # "what's on my list?", "show me the list", "my list": no list named.
    re.compile(
        r"^(?:(?:show|read|see|view|get|open|give|send|check)\s+(?:me\s+)?|(?:what'?s|whats|what\s+is|what\s+do\s+i\s+have)\s+"
        r"(?:on|in)\s+)?(?:my|the|our)\s+list\s*\??$"
        # "show list": the verb and the word alone
        r"|^(?:show|read|see|view|open|check)\s+(?:me\s+)?list\s*[?.!]?$",
        re.I,
    ),
    # "מה יש ברשימה", "מה ברשימה שלי", "תראה לי את הרשימה", "הרשימה שלי"
    re.compile(
        r"^(?:מה\s+(?:(?:יש|נשאר|עוד\s+יש|כתוב|רשום)\s+(?:לי\s+|לנו\s+)?)?ב|(?:תראה|תראי|הראה|תציג|תציגי|תקריא|תקריאי)\s+(?:לי\s+)?(?:את\s+)?)?"
        r"ה?רשימה(?:\s+(?P<name>שלי))?\s*\??$"
    ),
    # "תראה לי את הרשימה של הסופר", "מה יש ברשימה לסופר": the list of what it names
    re.compile(
        r"^(?:מה\s+(?:יש\s+(?:לי\s+)?)?ב|(?:תראה|תראי|הראה|תציג|תציגי|תקריא|תקריאי|תשלח|תשלחי)\s+(?:לי\s+)?(?:את\s+)?)?"
        r"ה?רשימה\s+(?:של\s+|ל-?|מ-?)(?!מחר|ה?יום|ה?שבוע|ה?ערב)(?P<name>\S+(?:\s+\S+)?)\s*\??$"
    ),
    re.compile(
        r"^what\s+do\s+(?:i|we)\s+need(?:\s+to\s+(?:buy|get))?\s+(?:from|at|in)\s+(?:the\s+)?"
        r"(?P<name>supermarket|grocery\s+store|grocery|store|shop)\s*\??$",
        re.I,
    ),
    re.compile(
        rf"^מה\s+(?:צריך|צריכים|חסר|יש)\s+(?:לי\s+)?(?:לקנות\s+)?(?:היום\s+|מחר\s+)?(?:ב|ל|מה)-?(?P<name>{KNOWN_LISTS_HE})\s*\??$"
    ),
    re.compile(
        r"^(?:(?:(?:תראה|תגיד|תכתוב)\s+(?:לי\s+)?)?מה\s+(?:יש\s+(?:לי\s+|לנו\s+)?|(?:נשאר|רשום|כתוב)\s+(?:לי\s+|לנו\s+)?)?(?:ב|על\s+ה)|מה\s+ב|"
        r"(?:תראה|תראי|הראה|תציג|תקריא|תשלח|שלח)\s+(?:לי\s+)?(?:את\s+)?)?רשימת\s+(?P<name>\S+)(?:\s+שלי)?\s*\??$"
    ),
    # "איזה סרטים יש ברשימה?": the list of those things
    re.compile(
        r"^(?:איזה|אילו|אלו)\s+(?P<name>\S+)\s+(?:יש\s+(?:לי\s+|לנו\s+)?)?(?:נשארו\s+)?ב(?:ה?רשימה(?:\s+שלי)?|רשימת\s+\S+)\s*\??$"
    ),
    # "how many things are on my shopping list?", "how many items on the list": the list, with its count.
    re.compile(
        r"^how\s+many\s+(?:things|items|products|entries)?\s*(?:are\s+(?:there\s+)?|do\s+(?:i|we)\s+have\s+|have\s+i\s+got\s+|left\s+)?"
        r"(?:on|in)\s+(?:my|the|our)\s+(?:(?P<name>[\w\-]+)\s+)?list\s*\??$",
        re.I,
    ),
    # "כמה דברים יש ברשימת הקניות?", "כמה פריטים ברשימה שלי"
    re.compile(
        r"^כמה\s+(?:דברים|פריטים|מוצרים)\s+(?:יש\s+(?:לי\s+|לנו\s+)?|נשארו\s+)?ב(?:רשימת\s+(?P<name>\S+)|רשימה(?:\s+שלי)?)\s*\??$"
    ),
)


#: "what's on my list for monday?", "מה יש לי ברשימה למחר?": a day, not a list's name: what is on that day.
_HE_LIST_FOR_DAY = re.compile(
    r"^מה\s+(?:יש\s+(?:לי\s+)?)?ב?רשימה(?:\s+שלי)?\s+(?:של\s+|ל)(?P<name>.{1,20}?)\s*\??$"
)


def _day_asked(text: str, inp: PlannerInput) -> Match | None:
    """ "My list for tomorrow" names a day, and Memo keeps no lists by day: the reminders of that day."""
    found = LIST_FOR.search(text) or _HE_LIST_FOR_DAY.match(text)
    if found is None:
        return None
    words = found.group("name")
    parsed = parse_when(words, inp)
    day = parsed.day or (parsed.when.date() if parsed.when is not None else None)
    if day is None or len(words.split()) > 3:
        return None
    return listing({"day": day.isoformat()}, "reminders:list")


def show(text: str, inp: PlannerInput) -> Match | None:
    day = _day_asked(text, inp)
    if day is not None:
        return day
    text = list_for(text)
    for pattern in _RE_LIST_SHOW:
        match = pattern.search(text)
        if match:
            name = match.groupdict().get("name")
            if name is not None and name.lower() in ("buy", "get", "לקנות"):
                name = "קניות" if has_hebrew(name) else "shopping"
            constraints: dict[str, object] = {
                "listName": UNNAMED_LIST if unnamed(name) else list_name(name or "")
            }
            if HOW_MANY.match(text):
                constraints["howMany"] = True
            return Match(
                capability="lists",
                action="show",
                confidence=CONFIDENT,
                risk="low",
                constraints=constraints,
                pattern="lists:show",
            )
    return None


_RE_ALL_LISTS = (
    re.compile(
        r"^(?:(?:show|list|see|view|get|give|send|check|read)\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?(?:my|the|our)\s+lists|"
        r"(?:what|which)\s+lists\s+(?:do\s+(?:i|we)\s+have|have\s+i\s+got|are\s+there|exist)|"
        r"(?:all\s+)?my\s+lists|what\s+are\s+my\s+lists|lists)\s*\??$",
        re.I,
    ),
    re.compile(
        r"^(?:(?:תראה|תראי|הראה|תציג|תציגי)\s+(?:לי\s+)?(?:את\s+)?(?:כל\s+)?הרשימות(?:\s+שלי)?|"
        r"(?:אילו|איזה|מה\s+ה)\s*רשימות\s+(?:יש\s+לי|יש)|מה\s+הרשימות(?:\s+שלי)?|(?:כל\s+)?הרשימות\s+שלי|רשימות)\s*\??$"
    ),
)


def show_all(text: str, inp: PlannerInput) -> Match | None:
    """ "show my lists" / "what lists do I have?" / "אילו רשימות יש לי": every list and its size."""
    if not any(pattern.search(clean(text)) for pattern in _RE_ALL_LISTS):
        return None
    return Match(
        capability="lists",
        action="show_all",
        confidence=CONFIDENT,
        risk="low",
        constraints={},
        pattern="lists:show_all",
    )
