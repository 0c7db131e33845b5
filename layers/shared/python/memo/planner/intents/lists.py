"""Adding to a list: "add milk to my shopping list", "add milk", "we're out of coffee", "and eggs
too", and the items an answer names."""

from __future__ import annotations

import re
from dataclasses import replace

from memo.domain import LIST_ITEMS_REQUIRED
from memo.planner.base import PlannerInput
from memo.planner.groceries import ITEMS_HE, is_known_thing
from memo.planner.intents.list_words import (
    KNOWN_LISTS,
    KNOWN_LISTS_HE,
    LIST_NAME_EN,
    NAMES_A_KIND,
    items_of,
    list_for,
    list_items,
    list_name,
    no_article,
    split_run_together,
    unnamed,
)
from memo.planner.lexicon import clean, has_hebrew
from memo.planner.match import CONFIDENT, GUESS, Match, is_ref, parse_when
from memo.text.matching import list_synonym

#: Words that make "X לרשימת הקניות" a sentence rather than things put before their list: a verb
#: ("תזכיר לי להוסיף ...", "הוספתי חלב ..."), a question word or a pronoun.
_HE_NOT_A_THING = (
    r"(?:תזכיר|תזכירי|תוסיף|תוסיפי|הוסף|להוסיף|הוספתי|הוספנו|הוספת|הוסיף|הוסיפה|נוסף|נוספו|תכניס|תכניסי|"
    r"הכנסתי|תרשום|רשום|רשמתי|כתבתי|תשים|שים|לשים|שמתי|תמחק|מחק|תוריד|הורד|תעביר|העבר|להעביר|תזיז|הזז|להזיז|"
    r"תשנה|שנה|תבטל|בטל|תנקה|נקה|תראה|הראה|תציג|הצג|תשלח|שלח|מה|איפה|מתי|כמה|למה|איך|אני|אתה|את|"
    r"זה|לי|לא|אין|יש)(?:\s|$)"
)
#: The Hebrew verbs of adding to a list: "תוסיף", "תכניס", "תרשום", "תכתוב", "תשים" (the forms said to
#: a woman are read as these, `memo.planner.normalize`).
_HE_ADD = "תוסיף|הוסף|להוסיף|תכניס|הכנס|להכניס|תרשום|רשום|לרשום|תכתוב|כתוב|תשים|שים|לשים"
_RE_LIST_ADD = (
    # "add these to my shopping list: milk, eggs", "add to the todo list: call the plumber": the
    # items after the colon ("these" and "the following" point to them).
    re.compile(
        r"^(?:add|put)\s+(?:(?:these|this|them|the\s+following|following)\s+)?(?:to|on|onto|in)\s+"
        r"(?:my\s+|the\s+|our\s+)?(?P<name>[\w\-' ]{1,30}?)\s+list\s*[:\-]\s*(?P<items>.+)$",
        re.I,
    ),
    re.compile(
        rf"^(?:add|put|throw|stick)\s+(?P<items>.+?)\s+(?:to|on|onto|in|into)\s+{LIST_NAME_EN}\s+list\b",
        re.I,
    ),
    re.compile(
        r"^(?:add|put)\s+(?P<items>.+?)\s+(?:to|on|onto|in)\s+(?:my\s+|the\s+)?list\s+(?P<name>[\w\-]+)", re.I
    ),
    # "add to the shopping list bananas and apples", "add to shopping: bananas": the list first
    re.compile(
        r"^(?:add|put)\s+(?:to|on|onto|in)\s+(?:my\s+|the\s+|our\s+)?(?P<name>[\w\-' ]{1,30}?)\s+list\s+(?P<items>\w.*)$",
        re.I,
    ),
    re.compile(
        rf"^(?:add|put)\s+(?:to|on|onto|in)\s+(?:my\s+|the\s+|our\s+)?(?P<name>{KNOWN_LISTS})\s*[:\-]\s*(?P<items>.+)$",
        re.I,
    ),
    # "to the shopping list: olive oil", "for my todo list - call the plumber"
    re.compile(rf"^(?:to|for|on)\s+{LIST_NAME_EN}\s+list\s*[:\-]\s*(?P<items>.+)$", re.I),
    # "todo: call the plumber", "shopping: milk, eggs", "קניות: חלב"
    re.compile(rf"^(?P<name>{KNOWN_LISTS}|{KNOWN_LISTS_HE})(?:\s+list)?\s*[:\-]\s*(?P<items>.+)$", re.I),
    re.compile(
        rf"^(?:add|put)\s+(?P<items>.+?)\s+(?:to|on|onto)\s+(?:my\s+|the\s+)?(?P<name>{KNOWN_LISTS})\b", re.I
    ),
    re.compile(
        rf"^(?:{_HE_ADD})\s+(?:לי\s+)?(?:את\s+)?(?P<items>.+?)\s+"
        r"(?:ל|אל\s+ה|ב)רשימ(?:ת|ה)(?:\s+(?:של\s+)?(?P<name>\S+))?\s*$"
    ),
    # "תוסיף לרשימת הקניות חלב", "תוסיף לרשימה של הסופר חלב": a name after "רשימת" or "רשימה של"
    # only; "תוסיף לרשימה חלב ולחם" is the list (unnamed) and its items.
    re.compile(
        rf"^(?:{_HE_ADD})\s+(?:לי\s+)?(?:ל|ב)(?:רשימת|רשימה\s+של)\s+(?P<name>\S+)\s+(?:את\s+)?(?P<items>.+)$"
    ),
    re.compile(
        rf"^(?:{_HE_ADD})\s+(?:לי\s+)?(?:ל|ב)ה?רשימה(?P<name>\s+שלי)?\s*[:\-]?\s*(?:את\s+)?(?P<items>[^:].*)$"
    ),
    re.compile(
        rf"^(?:{_HE_ADD})\s+(?:לי\s+)?(?:את\s+)?(?P<items>.+?)\s+"
        rf"(?:ל|ב)-?(?P<name>{KNOWN_LISTS_HE})\s*$"
    ),
    re.compile(
        rf"^(?:{_HE_ADD})\s+(?:לי\s+)?"
        rf"(?:ל|ב)-?(?P<name>{KNOWN_LISTS_HE})\s+(?:את\s+)?(?P<items>.+)$"
    ),
    # No verb: "לרשימת הקניות: חלב, ביצים", "לקניות: שמפו" (the list, then the things after a colon).
    re.compile(r"^(?:ל|ב|אל\s+)רשימת\s+(?P<name>\S+)\s*[:\-]\s*(?P<items>.+)$"),
    re.compile(rf"^ל-?(?P<name>{KNOWN_LISTS_HE})\s*[:\-]\s*(?P<items>.+)$"),
)
#: "אורז לרשימת הקניות": things said before the list they go on, with no verb. A guess, confirmed first.
_RE_THINGS_BEFORE_LIST = re.compile(
    rf"^(?!(?:\S+\s+)*?{_HE_NOT_A_THING})(?P<items>(?:[^\s:?]+\s+){{0,5}}?[^\s:?]+)\s+לרשימת\s+(?P<name>\S+)\s*[.!]*$"
)


def add(text: str, inp: PlannerInput) -> Match | None:
    found = list_items(list_for(text), _RE_LIST_ADD, "add", "low") or _things_before_list(text, inp)
    items = (found.changes or {}).get("items") if found is not None else None
    if found is None or not isinstance(items, list) or not items or not all(is_ref(str(i)) for i in items):
        return found
    # "add it to my shopping list": never the word "it" itself. The thing the person just said they
    # need ("I need to buy a gift for Noa"), asked first; with none, what to add is asked.
    thing = _thing_just_said(inp)
    if thing is None:
        return replace(found, changes={"items": []}, missing=(LIST_ITEMS_REQUIRED,))
    return replace(found, changes={"items": [thing]}, confidence=GUESS)


def _things_before_list(text: str, inp: PlannerInput) -> Match | None:
    """ "אורז לרשימת הקניות": the things, then their list, and no verb; asked first, as a guess. Only
    from the start of the message: in "תוסיף חלב וביצים לרשימת הקניות" the things after "ו" are more
    things of the same command, not a command of their own."""
    words = clean(text).split()
    if not words or not clean(inp.message).startswith(words[0]):
        return None
    found = list_items(text, (_RE_THINGS_BEFORE_LIST,), "add", "low")
    return replace(found, confidence=GUESS) if found is not None else None


#: "I need to buy a gift for Noa", "we're out of coffee", "צריך לקנות מתנה לנועה", "נגמר החלב".
_THING_NEEDED = (
    re.compile(
        r"\b(?:need|needs|have|has|got|gotta|want|must|should)\s+(?:to\s+)?(?:buy|get|pick\s+up|order)\s+"
        r"(?P<thing>[^.!?]+?)\s*[.!]*$",
        re.I,
    ),
    re.compile(r"^(?:buy|get|pick\s+up)\s+(?P<thing>[^.!?]+?)\s*[.!]*$", re.I),
    re.compile(r"\b(?:out\s+of|ran\s+out\s+of|run\s+out\s+of)\s+(?P<thing>[^.!?]+?)\s*[.!]*$", re.I),
    re.compile(
        r"(?:צריך|צריכה|צריכים|חייב|חייבת|חייבים|רוצה)\s+(?:לקנות|להביא|להזמין)\s+(?:את\s+)?(?P<thing>[^.!?]+?)\s*[.!]*$"
    ),
    re.compile(r"^(?:נגמר|נגמרה|נגמרו|אזל|אזלה|אזלו)\s+(?:לנו\s+|לי\s+)?(?P<thing>[^.!?]+?)\s*[.!]*$"),
)


def _thing_just_said(inp: PlannerInput) -> str | None:
    """What the person's previous message said they need, if it did: the request an "intent_unclear"
    question is answered for, else their last message before this one."""
    said = inp.message if inp.clarification else None
    if said is None:
        users = [m.text for m in inp.recent_messages if m.role == "user"]
        said = users[-2] if len(users) >= 2 and users[-1].strip() == inp.message.strip() else None
        said = (
            said
            if said is not None
            else (users[-1] if users and users[-1].strip() != inp.message.strip() else None)
        )
    if not said:
        return None
    for pattern in _THING_NEEDED:
        found = pattern.search(clean(said))
        if found is not None:
            thing = no_article(found.group("thing").strip())
            if thing and not is_ref(thing) and len(thing.split()) <= 6:
                return thing
    return None


#: "and eggs too", "also bread", "oh and butter as well", "גם לחם", "וגם ביצים" right after items were
#: added to a list: more of the same, to that list. Said on its own (the whole message), with a word
#: that says "more" ("and", "also", "too", "plus", "as well", "גם").
_RE_MORE = (
    re.compile(r"^(?:ו?גם)\s+(?P<items>[^?]+?)\s*[.!]*$"),
    re.compile(
        r"^(?:(?:oh|ah|and|plus)\s+)*(?:and\s+)?(?:also\s+)?(?P<items>[^?]+?)(?:\s+(?:too|as\s+well))?\s*[.!]*$",
        re.I,
    ),
)
#: Words of a request or a question: then the message is not more items.
_NOT_ITEMS = re.compile(
    r"\b(?:remind|add|put|delete|remove|cancel|show|what|where|when|who|how|note|list|set|move|make|change|"
    r"it|that|this|them|me|my|i)\b|תזכיר|תוסיף|תמחק|תוריד|מה|איפה|מתי|רשימ|פתק|תזכורת|אותו|זה",
    re.I,
)
_SAYS_MORE = re.compile(r"^(?:oh\s+|ah\s+)?(?:and|also|plus)\b|\b(?:too|as\s+well)\s*[.!]*$|^ו?גם\s", re.I)


def more(text: str, inp: PlannerInput) -> Match | None:
    """ "and eggs too" after "add milk to my shopping list": eggs, to the shopping list."""
    whole = clean(inp.message)
    if not _SAYS_MORE.search(whole) or len(whole.split()) > 8 or _NOT_ITEMS.search(whole):
        return None
    if not whole.casefold().endswith(clean(text).casefold()):
        return None  # a part of the message (the planner trying a split), not the message
    latest = inp.latest_actions[0] if inp.latest_actions else None
    if latest is None or latest.capability != "lists" or latest.action != "add" or not latest.external_ids:
        return None
    key = latest.external_ids.get("listKey")
    if not isinstance(key, str) or not key:
        return None
    for pattern in _RE_MORE:
        match = pattern.match(whole)
        if match:
            items = items_of(match.group("items"))
            if not items or any(NAMES_A_KIND.search(item) for item in items):
                return None
            return Match(
                capability="lists",
                action="add",
                confidence=0.8,
                risk="low",
                constraints={"listName": key},
                changes={"items": items},
                pattern="lists:more",
            )
    return None


#: "we're out of olive oil", "we ran out of milk", "need to buy batteries", "נגמר החלב", "אין לנו ביצים":
#: said to a list keeper, most likely "put it on the shopping list". A guess, so it is confirmed first.
_RE_RAN_OUT = (
    re.compile(
        r"^(?:(?:we|i)(?:'re|'m|\s+are|\s+am)\s+(?:all\s+|almost\s+|nearly\s+)?out\s+of|(?:we|i)\s+(?:just\s+)?ran\s+out\s+of|"
        r"(?:we'?re\s+|we\s+are\s+)?running\s+(?:low\s+on|out\s+of)|(?:we|i)\s+(?:need|have|got|gotta)\s+(?:to\s+)?buy|need\s+to\s+buy)"
        r"\s+(?P<items>[^?]+?)\s*[.!]*$",
        re.I,
    ),
    # "I need to buy a gift for Noa" reaches the matchers without its lead ("buy a gift for Noa").
    re.compile(
        r"^(?:buy|go\s+buy|pick\s+up\s+some)\s+(?P<items>[^?]+?)(?:\s+on\s+the\s+way(?:\s+home)?)?\s*[.!]*$",
        re.I,
    ),
    # "we need more toilet paper": only things people buy ("I need more sleep" is no shopping)
    re.compile(r"^(?:we|i)\s+(?:need|could\s+use)\s+(?:some\s+)?more\s+(?P<known>[^?]+?)\s*[.!]*$", re.I),
    # "we need milk", "I need eggs and bread", "we're missing butter", "need milk", "pick up milk",
    # "grab some bread on the way home": things people buy, only ("I need a break", "I need to call
    # mom", "pick up the kids" are no shopping).
    re.compile(
        r"^(?:(?:we|i)(?:\s+(?:still\s+)?need|(?:'re|\s+are|'m|\s+am)\s+missing)|need|pick\s+up|grab)\s+(?!to\s)(?:some\s+)?"
        r"(?P<known>[^?]+?)(?:\s+on\s+the\s+way(?:\s+home)?)?\s*[.!]*$",
        re.I,
    ),
    # "צריך חלב", "אנחנו צריכים ביצים", "חסר לנו חלב": the same in Hebrew
    re.compile(
        r"^(?:(?:אנחנו|אני)\s+)?(?:צריך|צריכה|צריכים|צריכות|חסר\s+(?:לנו|לי)|חסרים\s+(?:לנו|לי)|חסרה\s+(?:לנו|לי))"
        r"\s+(?!ל[\u05D0-\u05EA]{2,}\s)(?P<known>[^?]+?)\s*[.!]*$"
    ),
    re.compile(
        r"^(?:נגמר|נגמרה|נגמרו|כמעט\s+נגמר|כמעט\s+נגמרו)\s+(?:לנו\s+|לי\s+)?(?P<items>[^?]+?)\s*[.!]*$"
        r"|^(?:אין\s+(?:לנו|לי)\s+(?:יותר\s+)?|צריך\s+לקנות\s+|צריכה\s+לקנות\s+|צריכים\s+לקנות\s+)(?P<items2>[^?]+?)\s*[.!]*$"
    ),
)


#: What people run out of that is not bought: "I'm out of ideas", "we're out of time".
_NOT_BOUGHT = re.compile(
    r"^(?:question|time|ideas?|patience|luck|energy|breath|options?|money|cash|space|order|control|town|"
    r"the\s+office|office|here|range|reach|words|sync|shape|mind|my\s+mind|gas|steam|juice|battery|"
    r"זמן|כוח|כוחות|סבלנות|כסף|רעיונות|אוויר|מקום|סוללה)$",
    re.I,
)


def ran_out(text: str, inp: PlannerInput) -> Match | None:
    if len(text.split()) > 10:
        return None  # a sentence about something else, not a shopping note
    for pattern in _RE_RAN_OUT:
        match = pattern.search(text)
        if match is None:
            continue
        raw = next(g for g in match.groups() if g is not None)
        if match.re is _RE_RAN_OUT[1] and parse_when(text, inp).found:
            return None  # "buy tickets tomorrow at 8": something to do at a time, not to put on a list
        items = [no_article(i) for i in items_of(raw)]
        if match.groupdict().get("known") and not all(is_known_thing(i) for i in items):
            return None
        if not items or any(
            NAMES_A_KIND.search(i) or _NOT_ITEMS.search(i) or _NOT_BOUGHT.match(i) for i in items
        ):
            return None
        return Match(
            capability="lists",
            action="add",
            confidence=GUESS,
            risk="low",
            # The shopping list, named in the person's language (one list either way).
            constraints={"listName": "קניות" if has_hebrew(text) else "shopping"},
            changes={"items": items},
            pattern="lists:ran_out",
        )
    return None


#: "we're out of coffee, add it to the list", "נגמר הקפה תוסיף את זה לרשימה": what ran out, added to
#: the list the tail names.
_RE_ADD_IT_TAIL = (
    re.compile(
        r"^(?P<head>.+?)[\s,.;!\-]+(?:(?:so|and|pls|please|can\s+you|could\s+you)\s+)*(?:add|put|write)\s+"
        r"(?:it|them|that|those|this|these|some(?:\s+more)?)\s+(?:to|on|in|onto)\s+(?:(?:my|the|our)\s+)?"
        r"(?P<name>[\w\-' ]{0,30}?)\s*list\s*(?:please|pls)?\s*[.!]*$",
        re.I,
    ),
    re.compile(
        r"^(?P<head>.+?)[\s,.;!\-]+(?:אז\s+)?ו?(?:תוסיף|תוסיפי|הוסף|תכניס|תכניסי|תרשום|תרשמי|תשים|תשימי)\s+"
        r"(?:לי\s+)?(?:את\s+)?(?:זה|זאת|אותו|אותה|אותם|אותן)?\s*(?:ל|ב)(?:רשימה(?:\s+שלי)?|רשימת\s+(?P<name>\S+))"
        r"\s*(?:בבקשה)?\s*[.!]*$"
    ),
)


def ran_out_then_add(text: str, inp: PlannerInput) -> Match | None:
    """ "we're out of coffee add it to the list": the coffee, on that list (asked for: no guess)."""
    for pattern in _RE_ADD_IT_TAIL:
        match = pattern.match(clean(text))
        if match is None:
            continue
        ran = ran_out(clean(match.group("head")), inp)
        if ran is None:
            return None
        name = match.group("name")
        # "the list" after what ran out is the shopping list (`ran_out`); a list named is that list.
        named = {} if unnamed(name) else {"listName": list_name(name or "")}
        return replace(ran, confidence=CONFIDENT, constraints={**ran.constraints, **named})
    return None


#: "add milk", "add milk and eggs", "תוסיף חלב": things to add with no list named.
_RE_ADD_BARE = (
    # ("write down ...", "תרשום ש..." are notes: `notes.save`.)
    re.compile(r"^add\s+(?!that\b)(?P<items>[^?:]+?)\s*[.!]*$", re.I),
    re.compile(r"^(?:תוסיף|תוסיפי|הוסף)\s+(?:לי\s+)?(?:את\s+)?(?P<items>[^?:]+?)\s*[.!]*$"),
)
#: Amounts that start with ש ("שני קרטונים חלב", "שקית קמח"): the start of a thing, not of a clause
#: ("שאני ...").
_HE_AMOUNTS_WITH_SHIN = frozenset(
    (
        *("שני", "שתי", "שתיים", "שלוש", "שלושה", "שלושת", "שש", "שישה", "שבע", "שבעה", "שמונה"),
        *("שקית", "שקיות", "שישייה", "שישיית", "שלישייה", "שלישיית"),
    )
)
#: Words of a time or an amount of it ("add 10 minutes", "add an hour"): not things to buy.
_TIME_AMOUNT = re.compile(r"\b(?:minutes?|mins?|hours?|days?|weeks?)\b|דקות|שעה|שעות|ימים|יום|שבוע", re.I)


def add_bare(text: str, inp: PlannerInput) -> Match | None:
    """ "add milk" with no list named: to the list the latest item went on, else the shopping list;
    a guess, so it is confirmed first ("Just to check — ... your shopping list?")."""
    for pattern in _RE_ADD_BARE:
        match = pattern.match(text)
        if match is None or _a_clause(match.group("items")):
            continue
        items = split_run_together([no_article(i) for i in items_of(match.group("items"))])
        if parse_when(text, inp).found:
            return None  # "add dentist on friday at 3": a time, so not a thing to buy
        if (
            not items
            or len(text.split()) > 10
            or any(NAMES_A_KIND.search(i) or _NOT_ITEMS.search(i) or _TIME_AMOUNT.search(i) for i in items)
        ):
            return None
        latest = inp.latest_actions[0] if inp.latest_actions else None
        key = (latest.external_ids or {}).get("listKey") if latest and latest.capability == "lists" else None
        # (A list is one list in either language: the default is named in the message's language; a
        # list every language names, "shopping" or "todo", is that list in both.)
        same_language = (
            isinstance(key, str) and key and (has_hebrew(key) == has_hebrew(text) or list_synonym(key) == key)
        )
        name = (
            key if same_language and isinstance(key, str) else ("קניות" if has_hebrew(text) else "shopping")
        )
        return Match(
            capability="lists",
            action="add",
            confidence=GUESS,
            risk="low",
            constraints={"listName": name},
            changes={"items": items},
            pattern="lists:add_bare",
        )
    return None


def _a_clause(items: str) -> bool:
    """ "תוסיף שאני צריך ..." ("add that I need ..."): ש glued to its first word starts a clause, not a
    thing, unless that word is an amount ("שני קרטונים חלב", "שקית קמח") or a known thing ("שום", "שמן זית")."""
    first = items.split()[0]
    return first.startswith("ש") and first not in _HE_AMOUNTS_WITH_SHIN and first not in ITEMS_HE


#: The words around the things in an answer to "What should I add to the list?" ("add milk to it").
_ANSWER_FRAME = re.compile(
    r"^(?:add|put|(?:please\s+)?add|תוסיף|תוסיפי|הוסף|תכניס|תכניסי)\s+(?:לי\s+)?(?:את\s+)?"
    r"|\s+(?:to|on|onto)\s+(?:it|that|the\s+list|my\s+list)\s*[.!]*$|\s+(?:לרשימה|לזה|אליה)\s*[.!]*$",
    re.I,
)


#: An answer that asks something ("what time is it", "מה השעה?") names no thing to add.
_A_QUESTION = re.compile(
    r"\?\s*$|^(?:what|what's|whats|how|when|where|why|who|which|is|are|can|could|do|does|"
    r"מה|מתי|איפה|למה|איך|כמה|מי|האם)(?=\s|$)",
    re.I,
)


#: An answer that is only the request's verb again ("add", "תוסיף"): it names nothing to add.
#: The verbs of adding that both a bare answer and a command start with.
_ADD_VERBS = r"add|put|תוסיף|תוסיפי|תשים|תשימי"
_BARE_VERB = re.compile(
    rf"(?:please\s+)?(?:{_ADD_VERBS}|buy|get|include|insert|add\s+(?:it|them|something|items?|stuff)|"
    r"תוסיפו|הוסף|הוסיפי|להוסיף|תכניס|תכניסי|לקנות|תקנה|פריטים|דברים)"
    r"(?:\s+(?:please|בבקשה))?[\s.!?]*",
    re.I,
)


def answered_items(answer: str) -> list[str]:
    """The things an answer to "What should I add to the list?" names ("milk and eggs"); [] for a
    reference, a question, a list of its own ("let's make a grocery list") or nothing."""
    from memo.planner.intents.list_starts import starts_a_list

    if _A_QUESTION.search(clean(answer)) or starts_a_list(answer) or _BARE_VERB.fullmatch(clean(answer)):
        return []
    said = list_items(list_for(answer), _RE_LIST_ADD, "add", "low")  # "put milk on the list"
    named = (said.changes or {}).get("items") if said is not None else None
    raw = (
        [str(i) for i in named]
        if isinstance(named, list)
        else items_of(_ANSWER_FRAME.sub("", answer.strip()))
    )
    items = split_run_together([no_article(i) for i in raw])
    return [] if not items or any(is_ref(i) for i in items) else items


#: What leads an answer to "Which list?" in ("no, the todo list", "i meant my todo list", "to the
#: shopping list", "לא, לרשימת הקניות", "התכוונתי לרשימת המשימות").
_LIST_ANSWER_LEAD = re.compile(
    r"^(?:(?:no|nope|oops|sorry|actually|oh|ok|okay|um|uh|hmm|well|yes|yeah|i\s+meant|i\s+mean|it'?s|to|on|"
    r"onto|in|into|the|my|for|from|off(?:\s+of)?|of)\b[\s,.!-]*)+"
    r"|^(?:(?:לא|סליחה|אופס|בעצם|התכוונתי|הכוונה|זה)[\s,.!-]+)+",
    re.I,
)
#: An answer that starts with a verb asks for something of its own ("add milk", "show my lists").
_COMMAND_START = re.compile(
    rf"^(?:{_ADD_VERBS}|delete|remove|clear|show|list|cancel|save|remind|undo|what|how|"
    r"תמחק|תמחקי|תבטל|תבטלי|תראה|תראי|תזכיר|תזכירי|מה)(?=\s|$)",
    re.I,
)
_LIST_ANSWER_WORD = re.compile(
    r"\s+(?:lists?|one)$|^lists?\s+|^(?:ל|ב|ה|מ|מה)?(?:רשימת|רשימה\s+של|רשימה)\s*|\s+(?:please|בבקשה)$", re.I
)


def answered_list_name(answer: str) -> str | None:
    """The list an answer to "Which list should I add it to?" names ("the todo list", "no, my
    shopping list", "לרשימת הקניות", "משימות"); None for anything else (a request of its own, a
    sentence)."""
    text = _LIST_ANSWER_LEAD.sub("", clean(answer).strip(" .!?,")).strip()
    for _ in range(2):  # "my packing list please": the "please", then the "list"
        text = _LIST_ANSWER_WORD.sub("", text).strip(" .!?,")
    text = re.sub(r"^ל-?(?=\S{3,})", "", text) if text.startswith("ל") and " " not in text else text
    if not text or len(text.split()) > 3 or _COMMAND_START.match(text):
        return None
    # A list's own name ("shopping", "משימות"), or any name said as a list ("the hardware list"):
    # other words ("asdf qwer") name no list, and no list is made of them.
    said_as_a_list = re.search(r"\blists?\b|רשימ", answer, re.I) is not None
    return text if said_as_a_list or list_synonym(text) is not None else None
