"""A list named with nothing to put on it yet: "create a packing list", "start a new list called
books", "add to my todo list", "תפתח רשימה חדשה לטיול", "תוסיף לרשימת הקניות"; and a list started
with its items ("create a packing list with passport, charger and socks", "תיצור רשימת אריזה עם
דרכון ומטען"), which is an add of those items to that list (`started_with_items`).

A list exists as long as it has items (`memo.capabilities.lists`), so such a message is an add whose
items are missing: Memo asks what to put on that list ("What should I add to your packing list?"),
and the answer is added. Nothing is stored until then: "never mind" leaves no empty list behind.
"""

from __future__ import annotations

import re

from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import LIST_ITEMS_REQUIRED
from memo.planner.base import PlannerInput
from memo.planner.intents.list_words import KNOWN_LISTS_HE, list_items, list_name, unnamed
from memo.planner.lexicon import clean
from memo.planner.match import CONFIDENT, Match

#: A name of a list as said: a few words, none of them a verb of another request.
_NAME_EN = r"(?P<name>[\w\-' ]{1,30}?)"
#: (One Hebrew word: "תוסיף לרשימת קניות לחם" is "לחם" added to "קניות", not a list of that name.)
_NAME_HE = r"(?P<name>[\u05D0-\u05EA\-']{2,20})"
#: "open" starts a list only as "open a new ...": "open my shopping list" shows it.
_MAKE_EN = r"(?:create|make|start|open(?=\s+(?:a\s+)?new\b)|set\s+up|begin|new)"
_MAKE_HE = r"(?:תפתח|תפתחי|פתח|לפתוח|תיצור|תיצרי|צור|ליצור|תעשה|תעשי|תכין|תכיני|תקים|תקימי)"
_END = r"\s*[.!?]*$"

_STARTS = (
    # "create a packing list", "start a new shopping list for me", "new todo list"
    re.compile(
        rf"^(?:(?:can|could|will)\s+you\s+|let'?s\s+|let\s+us\s+)?{_MAKE_EN}\s+(?:me\s+|us\s+)?(?:a\s+|an\s+|the\s+|my\s+|our\s+)?"
        rf"(?:new\s+)?{_NAME_EN}\s+list(?:\s+for\s+(?:me|us))?{_END}",
        re.I,
    ),
    # "make a new list called books", "create a list named Trip", "new list: groceries"
    re.compile(
        rf"^(?:(?:can|could|will)\s+you\s+|let'?s\s+|let\s+us\s+)?(?:{_MAKE_EN}\s+(?:me\s+|us\s+)?(?:a\s+|an\s+)?(?:new\s+)?|a\s+new\s+)?"
        rf"list\s*(?:called|named|for|of|:)\s*(?:the\s+|my\s+)?{_NAME_EN}{_END}",
        re.I,
    ),
    # "add to my todo list", "put something on the shopping list"
    re.compile(
        r"^(?:add|put|write)\s+(?:something\s+|stuff\s+|things\s+|items?\s+|more\s+)?(?:to|on|onto|in|into)\s+"
        rf"(?:my\s+|the\s+|our\s+){_NAME_EN}\s+list{_END}",
        re.I,
    ),
    # "תפתח רשימה חדשה לטיול", "תיצור לי רשימה בשם ספרים", "רשימה חדשה: טיול"
    re.compile(
        rf"^(?:{_MAKE_HE}\s+(?:לי\s+|לנו\s+)?)?(?:עוד\s+)?רשימה\s+(?:חדשה\s*)?(?:בשם\s+|של\s+|ל-?|:\s*){_NAME_HE}{_END}"
    ),
    # "תפתח רשימת קניות", "תפתח לי רשימת משימות חדשה"
    re.compile(rf"^{_MAKE_HE}\s+(?:לי\s+|לנו\s+)?(?:עוד\s+)?רשימת\s+{_NAME_HE}(?:\s+חדשה)?{_END}"),
    # "תוסיף לרשימת הקניות", "תוסיף משהו לרשימה של הטיול", "תוסיף לקניות"
    re.compile(
        r"^(?:תוסיף|תוסיפי|הוסף|להוסיף|תכניס|תכניסי|תרשום|תרשמי|תכתוב|תכתבי)\s+(?:לי\s+)?(?:משהו\s+|עוד\s+)?"
        rf"(?:ל|ב)(?:רשימת|רשימה\s+של)\s+{_NAME_HE}{_END}"
    ),
    re.compile(
        r"^(?:תוסיף|תוסיפי|הוסף|להוסיף|תכניס|תכניסי|תרשום|תרשמי)\s+(?:לי\s+)?(?:משהו\s+|עוד\s+)?"
        rf"ל-?(?P<name>{KNOWN_LISTS_HE}){_END}"
    ),
)
#: Names that are words of a sentence, not of a list ("make a list" is no name; "start the" neither).
_NO_LIST = re.compile(r"^(?:a|an|the|new|my|our|this|that|it|some|one|חדשה|חדש|זה|זאת)$", re.I)


def start(text: str, inp: PlannerInput) -> Match | None:
    """The list a message starts or names with nothing to add yet, as an add that asks for its items."""
    del inp  # the message alone says it
    said = clean(text)
    for pattern in _STARTS:
        match = pattern.match(said)
        if match is None:
            continue
        raw = clean(match.group("name"))
        if not raw or _NO_LIST.match(raw) or len(raw.split()) > 4:
            return None
        name = UNNAMED_LIST if unnamed(raw) else list_name(raw)
        return Match(
            capability="lists",
            action="add",
            confidence=CONFIDENT,
            risk="low",
            constraints={"listName": name},
            changes={"items": []},
            missing=(LIST_ITEMS_REQUIRED,),
            pattern="lists:start",
        )
    return None


def starts_a_list(text: str) -> bool:
    """Whether `text` starts or names a list with nothing to put on it ("let's make a grocery list")."""
    return any(pattern.match(clean(text)) for pattern in _STARTS)


#: What comes between a list started and its items: "with", "containing", ":", "עם", "ובה".
_WITH_EN = r"\s*(?:with|containing|including|that\s+has|:)\s+"
_WITH_HE = r"\s*(?:עם|ובה|שיש\s+בה|:)\s+"
_STARTED_WITH_ITEMS = (
    # "create a packing list with passport, charger and socks", "make me a grocery list: milk, eggs"
    re.compile(
        rf"^(?:(?:can|could|will)\s+you\s+|let'?s\s+|let\s+us\s+)?{_MAKE_EN}\s+(?:me\s+|us\s+)?"
        rf"(?:a\s+|an\s+|the\s+|my\s+|our\s+)?(?:new\s+)?{_NAME_EN}\s+list(?:\s+for\s+(?:me|us))?"
        rf"{_WITH_EN}(?P<items>\S.*?){_END}",
        re.I,
    ),
    # "make a new list called trip with passport and socks"
    re.compile(
        rf"^(?:(?:can|could|will)\s+you\s+)?{_MAKE_EN}\s+(?:me\s+|us\s+)?(?:a\s+|an\s+)?(?:new\s+)?list\s+"
        rf"(?:called|named)\s+{_NAME_EN}{_WITH_EN}(?P<items>\S.*?){_END}",
        re.I,
    ),
    # "תיצור רשימת אריזה עם דרכון, מטען וגרביים", "תפתח לי רשימת קניות חדשה: חלב, ביצים"
    re.compile(
        rf"^{_MAKE_HE}\s+(?:לי\s+|לנו\s+)?רשימת\s+{_NAME_HE}(?:\s+חדשה)?{_WITH_HE}(?P<items>\S.*?){_END}"
    ),
    # "תיצור רשימה חדשה בשם טיול עם דרכון ומטען"
    re.compile(
        rf"^{_MAKE_HE}\s+(?:לי\s+|לנו\s+)?רשימה\s+(?:חדשה\s+)?(?:בשם\s+|של\s+|ל-?){_NAME_HE}{_WITH_HE}(?P<items>\S.*?){_END}"
    ),
)


def started_with_items(text: str, inp: PlannerInput) -> Match | None:
    """A list started with its items: an add of them to that list."""
    del inp  # the message alone says it
    found = list_items(clean(text), _STARTED_WITH_ITEMS, "add", "low")
    if found is None or not (found.changes or {}).get("items"):
        return None
    name = str(found.constraints.get("listName", ""))
    return None if name == UNNAMED_LIST or _NO_LIST.match(name) or len(name.split()) > 4 else found
