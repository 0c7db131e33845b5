"""The words of list commands: list names ("my shopping list", "רשימת הקניות"), the items said
("milk, eggs and bread", "חלב ולחם"), and the match a list command with both makes."""

from __future__ import annotations

import re

from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import RiskLevel
from memo.planner.groceries import run_together
from memo.planner.lexicon import REF_EN, REF_HE, clean, has_hebrew
from memo.planner.match import CONFIDENT, GUESS, Match

LIST_NAME_EN = r"(?:my\s+|the\s+|our\s+)?(?P<name>[\w\-' ]{1,30}?)"


def items_of(raw: str) -> list[str]:
    # "also"/"too"/"back" belong to the sentence, not to the items: "add also eggs", "תוסיף גם חלב",
    # "add eggs back", "add back the eggs", "תחזיר את החלב בחזרה".
    raw = re.sub(
        r"^(?:also|גם)\s+|^back\s+(?=(?:the|my|some|our)\s)|\s+(?:too|as\s+well|back|again|גם|בחזרה|שוב)$",
        "",
        clean(raw),
        flags=re.I,
    )
    # "the milk" is milk; "The Matrix" (a capital after a capital "The") is a name, kept whole.
    raw = re.sub(r"^(?:את|some|a|an|the)\s+(?!(?-i:(?<=The\s)[A-Z]))", "", raw, flags=re.I)
    raw = _ONE_THING.sub(lambda m: m.group().translate(_HOLD), raw)
    parts = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*|\s+וגם\s+|\s+(?=ו\S)", raw, flags=re.I)
    parts = [x.translate(_RELEASE) for x in parts]
    items = [clean(_MORE.sub("", re.sub(r"^(?:את|some)\s+", "", x, flags=re.I), count=1)) for x in parts]
    return [_without_and(p) if i else p for i, p in enumerate(items) if p]


#: "more milk", "another loaf", "2 more eggs", "עוד חלב", "עוד 2 ביצים": the thing, once on the list (a
#: line "more milk" is no thing; "2 eggs" would change "12 eggs" to fewer). "extra virgin olive oil"
#: and "extra firm tofu" are things of their own.
_MORE = re.compile(
    r"^(?:(?:\d{1,3}|one|two|three|four|five|six|ten|twelve)\s+|(?:a\s+)?(?:few|couple(?:\s+of)?)\s+|some\s+)?"
    r"more\s+(?=\S)|^another\s+(?=\S)|^עוד\s+(?:(?:\d{1,3}|שני|שתי|שלוש|שלושה|ארבע|ארבעה)\s+)?(?=\S)",
    re.I,
)


#: "items 2 and 3", "numbers 1, 4", "#2 and #5", "פריטים 2 ו-3": places on the list, said by number.
_NUMBERED_LEAD = re.compile(
    r"^(?:(?:the\s+)?(?:items?|numbers?|nos?\.?|entries|ה?פריטים|ה?פריט|מספרים|מספר)\s*|#)(?=\d)", re.I
)
_A_NUMBER = re.compile(r"^(?:#|-)?(?P<n>\d{1,2})$")


def by_number(items: list[str]) -> list[str]:
    """Items said by their numbers on the list ("items 2 and 3", "remove 2 and 3") as the places
    they name ("item 2", "item 3"); any other items unchanged. Numbers are read so only when every
    item is one (a lead word on the first is enough: "items 2, 3")."""
    said = [_NUMBERED_LEAD.sub("", item.strip()) for item in items]
    if not said or not all(_A_NUMBER.match(s) for s in said):
        return items
    return [f"item {int(m.group('n'))}" for s in said if (m := _A_NUMBER.match(s))]


#: One thing whose name holds an "and" ("mac and cheese", "half & half", "m&m's"): never split.
_ONE_THING = re.compile(
    r"\b(?:mac(?:aroni)?\s+and\s+cheese|fish\s+and\s+chips|half\s*(?:and|&)\s*half|cookies\s+and\s+cream|"
    r"sweet\s+and\s+sour|spaghetti\s+and\s+meatballs|ham\s+and\s+cheese|salt\s+and\s+vinegar|"
    r"sour\s+cream\s+and\s+onion|pb\s*(?:and|&)\s*j|m\s*(?:and|&)\s*m'?s|bread\s+and\s+butter\s+pickles)\b",
    re.I,
)
_HOLD = str.maketrans(" &", "\x00\x01")  # a joined thing's spaces and "&" while the items are split
_RELEASE = str.maketrans("\x00\x01", " &")

#: Words that begin with ו themselves ("ויטמינים", "וופלים"): a ו there is no "and".
_VAV_WORDS = re.compile(r"^(?:ויטמינ|וופל|ורד|וניל|ודק|ויסק|וזלין|ואקום|וסט|וילון|וואפל)")


def _without_and(item: str) -> str:
    """An item after the first without its "and" ("ולחם" -> "לחם", "וויטמינים" -> "ויטמינים")."""
    if item.startswith("ו") and not _VAV_WORDS.match(item):
        return clean(item[1:].lstrip("-"))
    return item


def list_name(raw: str) -> str:
    name = clean(raw).lower()
    name = re.sub(r"\s+list$", "", name)
    name = re.sub(r"^(?:whole|entire|full|complete|current)\s+(?=\S)", "", name)  # "the whole shopping list"
    if has_hebrew(name) and name.startswith("ה") and len(name) > 3:
        name = name[1:]
    # The user's own words: the items table folds synonyms and languages into one list
    # (`memo.text.matching.list_synonym`), and the reply shows the name as the user wrote it.
    return name


KNOWN_LISTS = r"shopping|grocery|groceries|supermarket|todo|to-do|to do|packing|wish|movies|books"
KNOWN_LISTS_HE = r"קניות|הקניות|סופר|הסופר|סופרמרקט|מכולת|המכולת|משימות|המשימות|מטלות"


#: "the list for the supermarket" says what "the supermarket list" says.
LIST_FOR = re.compile(
    r"\b(?:the|my|our)\s+list\s+(?:for|of)\s+(?:the\s+)?(?P<name>[\w\-' ]{1,30}?)(?=\s*[?.!]*$)", re.I
)


def list_for(text: str) -> str:
    return LIST_FOR.sub(lambda m: f"the {m.group('name')} list", text)


#: Words that say what kind of thing is meant, or point back ("it"): then it is not a bare item.
NAMES_A_KIND = re.compile(
    rf"\b(?:reminders?|notes?|memos?|lists?|alarms?|{REF_EN})\b|תזכור|פתק|הערה|הערות|רשימ|^(?:{REF_HE})$",
    re.I,
)


def no_article(item: str) -> str:
    """ "the milk" -> "milk", "החלב" -> "חלב" (an item is kept without its article)."""
    item = re.sub(r"^(?:the|some|any|our|my)\s+", "", item, flags=re.I)
    if has_hebrew(item) and item.startswith("ה") and len(item.split()[0]) > 3:
        item = item[1:]
    return item


def list_items(
    text: str, patterns: tuple[re.Pattern[str], ...], action: str, risk: RiskLevel
) -> Match | None:
    for pattern in patterns:
        match = pattern.search(text)
        if not match:
            continue
        items = items_of(a_as_one(match.group("items")) if action == "remove" else match.group("items"))
        items = [a_as_one(i) for i in items] if action == "remove" else items
        said_with_the = _THE_OBJECT.search(text[: match.start("items")])
        if action == "add" and said_with_the and not _QUOTED.search(match.group("items")):
            # "תוסיף את החלב": "חלב", as it is on the list; a name in quotes is kept as written.
            items = [no_article(i) for i in items]
        if action == "remove":
            # "תמחק את הקטשופ": "קטשופ" on the list; "האחרון", "הפריט השני" name a place, kept as said.
            items = [i if _A_PLACE.match(i) else no_article(i) for i in items]
        split = split_run_together(items) if action == "add" else items
        name = match.group("name")
        if unnamed(name):
            name = None  # "off the list": no list named
        missing: tuple[str, ...] = () if items else ("target_unclear",)
        confidence = CONFIDENT if name else 0.8
        if split != items:
            # "add milk eggs and bread": three things, by the word list; asked before they are added.
            items, confidence = split, GUESS
        return Match(
            capability="lists",
            action=action,
            confidence=confidence,
            risk=risk,
            constraints={"listName": list_name(name) if name else UNNAMED_LIST},
            changes={"items": items},
            missing=missing,
            pattern=f"lists:{action}",
        )
    return None


#: "a tomato" taken off a list is one of them ("3 tomatoes" leave 2); "a few", "a dozen" are amounts.
_A_ONE = re.compile(r"^(?:a|an)\s+(?!(?:few|couple|bit|lot|dozen|little|pair|bunch)\b)", re.I)


def a_as_one(items: str) -> str:
    """ "a tomato" -> "one tomato": what is taken off says its count."""
    return _A_ONE.sub("one ", items.strip())


#: "את" right before the things: they are said with their article ("את החלב").
_THE_OBJECT = re.compile(r"(?:^|\s)את\s*$")
_QUOTED = re.compile(r"[\"“”״]")

#: Hebrew words that name a place in a list only with their article ("השני", "האחרון", "הפריט 2").
_A_PLACE = re.compile(
    r"^ה(?:פריט|דבר|אחרון|אחרונה|ראשון|ראשונה|שני|שנייה|שניה|שלישי|שלישית|רביעי|רביעית|חמישי|חמישית|שישי|שישית|"
    r"שביעי|שביעית|שמיני|שמינית|תשיעי|תשיעית|עשירי|עשירית)(?=\s|$)|^(?:זה|זאת|זו|ה?אחד|ה?אחת|ש?לפני)(?=\s|$)"
)


def split_run_together(items: list[str]) -> list[str]:
    """ "milk eggs" -> "milk", "eggs" (`groceries.run_together`); other items as they are."""
    split: list[str] = []
    for item in items:
        split += run_together(item) or [item]
    return split


def unnamed(name: str | None) -> bool:
    """ "the list", "my list", "הרשימה": a list, not its name."""
    return name is None or name.strip().lower() in _NO_NAME


#: Words before "list" that name no list: "the whole list", "my entire list", "the full list".
_NO_NAME = frozenset(
    {"the", "my", "our", "a", "this", "that", "שלי", "", "whole", "entire", "full", "complete", "current"}
)
