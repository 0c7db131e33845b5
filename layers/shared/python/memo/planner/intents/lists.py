"""List commands: add and remove items, show a list, clear a whole list."""

from __future__ import annotations

import re
from dataclasses import replace

from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import LIST_ITEMS_REQUIRED, RiskLevel
from memo.planner.base import PlannerInput
from memo.planner.groceries import ITEMS_HE, is_known_thing, run_together
from memo.planner.intents.daily import listing
from memo.planner.lexicon import HOW_MANY, REF_EN, REF_HE, clean, has_hebrew, limit_of
from memo.planner.match import CONFIDENT, GUESS, Match, is_ref, parse_when

_LIST_NAME_EN = r"(?:my\s+|the\s+|our\s+)?(?P<name>[\w\-' ]{1,30}?)"


def _items(raw: str) -> list[str]:
    # "also"/"too" belong to the sentence, not to the items: "add also eggs", "תוסיף גם חלב".
    raw = re.sub(r"^(?:also|גם)\s+|\s+(?:too|as\s+well|גם)$", "", clean(raw), flags=re.I)
    raw = re.sub(r"^(?:את|some|a|an|the)\s+", "", raw, flags=re.I)
    parts = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*|\s+וגם\s+|\s+(?=ו\S)", raw, flags=re.I)
    items = [clean(re.sub(r"^(?:את|some)\s+", "", x, flags=re.I)) for x in parts]
    return [_without_and(p) if i else p for i, p in enumerate(items) if p]


#: Words that begin with ו themselves ("ויטמינים", "וופלים"): a ו there is no "and".
_VAV_WORDS = re.compile(r"^(?:ויטמינ|וופל|ורד|וניל|ודק|ויסק|וזלין|ואקום|וסט|וילון|וואפל)")


def _without_and(item: str) -> str:
    """An item after the first without its "and" ("ולחם" -> "לחם", "וויטמינים" -> "ויטמינים")."""
    if item.startswith("ו") and not _VAV_WORDS.match(item):
        return clean(item[1:].lstrip("-"))
    return item


def _list_name(raw: str) -> str:
    name = clean(raw).lower()
    name = re.sub(r"\s+list$", "", name)
    if has_hebrew(name) and name.startswith("ה") and len(name) > 3:
        name = name[1:]
    # The user's own words: the items table folds synonyms and languages into one list
    # (`memo.text.matching.list_synonym`), and the reply shows the name as the user wrote it.
    return name


_KNOWN_LISTS = r"shopping|grocery|groceries|supermarket|todo|to-do|to do|packing|wish|movies|books"
_KNOWN_LISTS_HE = r"קניות|הקניות|סופר|הסופר|סופרמרקט|מכולת|המכולת|משימות|המשימות|מטלות"

_RE_LIST_ADD = (
    # "add these to my shopping list: milk, eggs", "add to the todo list: call the plumber": the
    # items after the colon ("these" and "the following" point to them).
    re.compile(
        r"^(?:add|put)\s+(?:(?:these|this|them|the\s+following|following)\s+)?(?:to|on|onto|in)\s+"
        r"(?:my\s+|the\s+|our\s+)?(?P<name>[\w\-' ]{1,30}?)\s+list\s*[:\-]\s*(?P<items>.+)$",
        re.I,
    ),
    re.compile(
        rf"^(?:add|put|throw|stick)\s+(?P<items>.+?)\s+(?:to|on|onto|in|into)\s+{_LIST_NAME_EN}\s+list\b",
        re.I,
    ),
    re.compile(
        r"^(?:add|put)\s+(?P<items>.+?)\s+(?:to|on|onto|in)\s+(?:my\s+|the\s+)?list\s+(?P<name>[\w\-]+)", re.I
    ),
    # "todo: call the plumber", "shopping: milk, eggs", "קניות: חלב"
    re.compile(rf"^(?P<name>{_KNOWN_LISTS}|{_KNOWN_LISTS_HE})(?:\s+list)?\s*[:\-]\s*(?P<items>.+)$", re.I),
    re.compile(
        rf"^(?:add|put)\s+(?P<items>.+?)\s+(?:to|on|onto)\s+(?:my\s+|the\s+)?(?P<name>{_KNOWN_LISTS})\b", re.I
    ),
    re.compile(
        r"^(?:תוסיף|תוסיפי|הוסף|להוסיף|תכניס|תכניסי|הכנס|תרשום|רשום|תשים|שים)\s+(?:לי\s+)?(?:את\s+)?(?P<items>.+?)\s+"
        r"(?:ל|אל\s+ה|ב)רשימ(?:ת|ה)(?:\s+(?:של\s+)?(?P<name>\S+))?\s*$"
    ),
    re.compile(
        r"^(?:תוסיף|תוסיפי|הוסף|להוסיף|תכניס|הכנס|תרשום|רשום)\s+(?:ל|ב)רשימ(?:ת|ה)\s+(?:של\s+)?(?P<name>\S+)\s+(?:את\s+)?(?P<items>.+)$"
    ),
    re.compile(
        r"^(?:תוסיף|תוסיפי|הוסף|להוסיף|תכניס|תכניסי|הכנס|תרשום|תרשמי|רשום|תשים|תשימי|שים)\s+(?:לי\s+)?(?:את\s+)?(?P<items>.+?)\s+"
        rf"(?:ל|ב)-?(?P<name>{_KNOWN_LISTS_HE})\s*$"
    ),
    re.compile(
        r"^(?:תוסיף|תוסיפי|הוסף|להוסיף|תכניס|תכניסי|הכנס|תרשום|תרשמי|רשום|תשים|תשימי|שים)\s+(?:לי\s+)?"
        rf"(?:ל|ב)-?(?P<name>{_KNOWN_LISTS_HE})\s+(?:את\s+)?(?P<items>.+)$"
    ),
)
_RE_LIST_REMOVE = (
    re.compile(
        rf"^(?:remove|delete|take|cross|strike)\s+(?:off\s+)?(?P<items>.+?)\s+(?:off|from|out of|on)\s+{_LIST_NAME_EN}\s+list\b",
        re.I,
    ),
    re.compile(
        rf"^(?:remove|delete|take|cross)\s+(?:off\s+)?(?P<items>.+?)\s+(?:off|from)\s+(?:my\s+|the\s+)?(?P<name>{_KNOWN_LISTS})\b",
        re.I,
    ),
    re.compile(
        r"^(?:תוריד|תורידי|הורד|להוריד|תמחק|תמחקי|מחק|תסיר|הסר)\s+(?:לי\s+)?(?:את\s+)?(?P<items>.+?)\s+"
        r"(?:מ|מה)רשימ(?:ת|ה)(?:\s+(?:של\s+)?(?P<name>\S+))?\s*$"
    ),
)
_RE_LIST_SHOW = (
    re.compile(
        rf"^(?:show|read|list|see|view|get|open|give|send|what'?s|whats|what\s+is|what\s+are|what\s+do\s+i\s+have|check|"
        rf"what\s+do\s+(?:i|we)\s+need(?:\s+to\s+(?:buy|get))?(?:\s+(?:from|at))?)"
        rf"\s+(?:me\s+)?(?:on|in)?\s*{_LIST_NAME_EN}\s+list\b",
        re.I,
    ),
    re.compile(r"^(?:my|the)\s+(?P<name>[\w\-]+)\s+list\s*\??$", re.I),
    # "what do I need to buy?", "מה צריך לקנות?": the shopping list.
    re.compile(
        r"^what\s+(?:do|should)\s+(?:i|we)\s+(?:need\s+to\s+|have\s+to\s+)?(?P<name>buy|get)\s*\??$", re.I
    ),
    re.compile(r"^מה\s+(?:צריך|צריכים|צריכה|חסר|נשאר)\s+(?:לי\s+|לנו\s+)?(?P<name>לקנות)\s*\??$"),
    # "what's on my list?", "show me the list", "my list": no list named.
    re.compile(
        r"^(?:(?:show|read|see|view|get|open|give|send|check)\s+(?:me\s+)?|(?:what'?s|whats|what\s+is|what\s+do\s+i\s+have)\s+"
        r"(?:on|in)\s+)?(?:my|the|our)\s+list\s*\??$",
        re.I,
    ),
    # "מה יש ברשימה", "מה ברשימה שלי", "תראה לי את הרשימה", "הרשימה שלי"
    re.compile(
        r"^(?:מה\s+(?:יש\s+(?:לי\s+)?)?ב|(?:תראה|תראי|הראה|תציג|תציגי|תקריא|תקריאי)\s+(?:לי\s+)?(?:את\s+)?)?"
        r"ה?רשימה(?:\s+(?P<name>שלי))?\s*\??$"
    ),
    re.compile(
        r"^what\s+do\s+(?:i|we)\s+need(?:\s+to\s+(?:buy|get))?\s+(?:from|at|in)\s+(?:the\s+)?"
        r"(?P<name>supermarket|grocery\s+store|grocery|store|shop)\s*\??$",
        re.I,
    ),
    re.compile(
        rf"^מה\s+(?:צריך|צריכים|חסר|יש)\s+(?:לי\s+)?(?:לקנות\s+)?(?:ב|ל|מה)-?(?P<name>{_KNOWN_LISTS_HE})\s*\??$"
    ),
    re.compile(
        r"^(?:מה\s+(?:יש\s+)?(?:ב|על\s+ה)|מה\s+ב|תראה\s+(?:לי\s+)?(?:את\s+)?|תראי\s+(?:לי\s+)?(?:את\s+)?|הראה\s+(?:לי\s+)?(?:את\s+)?|"
        r"תציג\s+(?:לי\s+)?(?:את\s+)?|תקריא\s+(?:לי\s+)?(?:את\s+)?)?רשימת\s+(?P<name>\S+)\s*\??$"
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
        rf"every\s+item)\s+(?:on|in|from|off)\s+{_LIST_NAME_EN}\s+list\b",
        re.I,
    ),
    re.compile(
        rf"^(?:clear|empty|wipe|delete|reset)\s+(?:out\s+)?(?:all\s+of\s+)?{_LIST_NAME_EN}\s+list\b", re.I
    ),
    re.compile(
        r"^(?:תנקה|תנקי|נקה|תרוקן|תרוקני|רוקן|תמחק|מחק|למחוק)\s+(?:לי\s+)?(?:את\s+)?(?:כל\s+)?(?:ה)?רשימ(?:ת|ה)\s*(?P<name>(?!חוץ|מלבד|פרט|אבל)\S+)?"
        r"(?=\s*$|\s+(?:חוץ|מלבד|פרט|אבל|ותשאיר|תשאיר|בלי))"
    ),
)


#: "the list for the supermarket" says what "the supermarket list" says.
_LIST_FOR = re.compile(
    r"\b(?:the|my|our)\s+list\s+(?:for|of)\s+(?:the\s+)?(?P<name>[\w\-' ]{1,30}?)(?=\s*[?.!]*$)", re.I
)


def _list_for(text: str) -> str:
    return _LIST_FOR.sub(lambda m: f"the {m.group('name')} list", text)


def add(text: str, inp: PlannerInput) -> Match | None:
    found = _list_items(_list_for(text), _RE_LIST_ADD, "add", "low")
    items = (found.changes or {}).get("items") if found is not None else None
    if found is None or not isinstance(items, list) or not items or not all(is_ref(str(i)) for i in items):
        return found
    # "add it to my shopping list": never the word "it" itself. The thing the person just said they
    # need ("I need to buy a gift for Noa"), asked first; with none, what to add is asked.
    thing = _thing_just_said(inp)
    if thing is None:
        return replace(found, changes={"items": []}, missing=(LIST_ITEMS_REQUIRED,))
    return replace(found, changes={"items": [thing]}, confidence=GUESS)


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
            thing = _no_article(found.group("thing").strip())
            if thing and not is_ref(thing) and len(thing.split()) <= 6:
                return thing
    return None


#: "remove the milk", "cross off eggs", "תוריד את החלב": taking a thing off, with no list, reminder or
#: note named, is about a list item (the list that has it is found when resolved). "delete X" and
#: "cancel X" stay with reminders and what was just done (`followups.noun_less_delete`).
_RE_TAKE_OFF = (
    re.compile(
        r"^(?:remove|take\s+off|cross\s+off|strike\s+off|tick\s+off|check\s+off)\s+(?P<items>.+?)\s*$", re.I
    ),
    re.compile(r"^(?:take|cross|strike|tick|check)\s+(?P<items>.+?)\s+off\s*$", re.I),
    re.compile(r"^(?:תוריד|תורידי|הורד|להוריד|תסיר|תסירי|הסר|להסיר)\s+(?:לי\s+)?(?P<items>.+?)\s*$"),
    # "bought the milk", "picked up eggs and bread", "קניתי לחם": bought, so off the list that has it.
    re.compile(
        r"^(?:i\s+|we\s+)?(?:just\s+|already\s+)?(?:bought|picked\s+up|purchased)\s+(?P<items>[^?]+?)\s*[.!]*$",
        re.I,
    ),
    re.compile(r"^(?:כבר\s+)?(?:קניתי|קנינו|קנית|לקחתי\s+מהסופר)\s+(?:את\s+)?(?P<items>[^?]+?)\s*[.!]*$"),
)
#: "got the eggs (too)": bought, when every thing named is a thing people buy ("got a call from mom"
#: is no purchase).
_RE_GOT = re.compile(r"^(?:i\s+|we\s+)?(?:just\s+|already\s+|also\s+)?got\s+(?P<items>[^?]+?)\s*[.!]*$", re.I)
#: Words that say what kind of thing is meant, or point back ("it"): then it is not a bare item.
_NAMES_A_KIND = re.compile(
    rf"\b(?:reminders?|notes?|memos?|lists?|alarms?|{REF_EN})\b|תזכור|פתק|הערה|הערות|רשימ|^(?:{REF_HE})$",
    re.I,
)


def _names_something_just_done(words: str, inp: PlannerInput) -> bool:
    """The words name a reminder or note Memo just made or changed (a latest action)."""
    from rapidfuzz import fuzz

    wanted = clean(words).lower()
    return any(
        action.capability != "lists" and fuzz.partial_ratio(wanted, action.summary.lower()) >= 80
        for action in inp.latest_actions
    )


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
            items = _items(match.group("items"))
            if not items or any(_NAMES_A_KIND.search(item) for item in items):
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
    re.compile(r"^(?:buy|go\s+buy|pick\s+up\s+some)\s+(?P<items>[^?]+?)\s*[.!]*$", re.I),
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
        items = [_no_article(i) for i in _items(raw)]
        if not items or any(
            _NAMES_A_KIND.search(i) or _NOT_ITEMS.search(i) or _NOT_BOUGHT.match(i) for i in items
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
        items = _split_run_together([_no_article(i) for i in _items(match.group("items"))])
        if parse_when(text, inp).found:
            return None  # "add dentist on friday at 3": a time, so not a thing to buy
        if (
            not items
            or len(text.split()) > 10
            or any(_NAMES_A_KIND.search(i) or _NOT_ITEMS.search(i) or _TIME_AMOUNT.search(i) for i in items)
        ):
            return None
        latest = inp.latest_actions[0] if inp.latest_actions else None
        key = (latest.external_ids or {}).get("listKey") if latest and latest.capability == "lists" else None
        # (A list is one list in either language: the default is named in the message's language.)
        same_language = isinstance(key, str) and key and has_hebrew(key) == has_hebrew(text)
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


def _no_article(item: str) -> str:
    """ "the milk" -> "milk", "החלב" -> "חלב" (an item is kept without its article)."""
    item = re.sub(r"^(?:the|some|any|our|my)\s+", "", item, flags=re.I)
    if has_hebrew(item) and item.startswith("ה") and len(item.split()[0]) > 3:
        item = item[1:]
    return item


def remove(text: str, inp: PlannerInput) -> Match | None:
    found = _list_items(_list_for(text), _RE_LIST_REMOVE, "remove", "medium")
    if found is not None:
        return found
    for pattern in _RE_TAKE_OFF:
        match = pattern.search(text)
        if match and not _NAMES_A_KIND.search(match.group("items")):
            if _names_something_just_done(match.group("items"), inp):
                return None  # "remove call mom" just after that reminder was set: it is meant
            return Match(
                capability="lists",
                action="remove",
                confidence=0.8,
                risk="medium",
                constraints={"listName": UNNAMED_LIST},
                changes={"items": [_no_article(i) for i in _items(match.group("items"))]},
                pattern="lists:take_off",
            )
    got = _RE_GOT.match(text)
    items = [_no_article(i) for i in _items(got.group("items"))] if got is not None else []
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


def _list_items(
    text: str, patterns: tuple[re.Pattern[str], ...], action: str, risk: RiskLevel
) -> Match | None:
    for pattern in patterns:
        match = pattern.search(text)
        if not match:
            continue
        items = _items(match.group("items"))
        split = _split_run_together(items) if action == "add" else items
        name = match.group("name")
        if _unnamed(name):
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
            constraints={"listName": _list_name(name) if name else UNNAMED_LIST},
            changes={"items": items},
            missing=missing,
            pattern=f"lists:{action}",
        )
    return None


#: The words around the things in an answer to "What should I add to the list?" ("add milk to it").
_ANSWER_FRAME = re.compile(
    r"^(?:add|put|(?:please\s+)?add|תוסיף|תוסיפי|הוסף|תכניס|תכניסי)\s+(?:לי\s+)?(?:את\s+)?"
    r"|\s+(?:to|on|onto)\s+(?:it|that|the\s+list|my\s+list)\s*[.!]*$|\s+(?:לרשימה|לזה|אליה)\s*[.!]*$",
    re.I,
)


def answered_items(answer: str) -> list[str]:
    """The things an answer to "What should I add to the list?" names ("milk and eggs"); [] for a
    reference or nothing."""
    said = _list_items(_list_for(answer), _RE_LIST_ADD, "add", "low")  # "put milk on the list"
    named = (said.changes or {}).get("items") if said is not None else None
    raw = (
        [str(i) for i in named] if isinstance(named, list) else _items(_ANSWER_FRAME.sub("", answer.strip()))
    )
    items = _split_run_together([_no_article(i) for i in raw])
    return [] if not items or any(is_ref(i) for i in items) else items


def _split_run_together(items: list[str]) -> list[str]:
    """ "milk eggs" -> "milk", "eggs" (`groceries.run_together`); other items as they are."""
    split: list[str] = []
    for item in items:
        split += run_together(item) or [item]
    return split


def _unnamed(name: str | None) -> bool:
    """ "the list", "my list", "הרשימה": a list, not its name."""
    return name is None or name.strip().lower() in ("the", "my", "our", "a", "this", "that", "שלי", "")


#: "what's on my list for monday?", "מה יש לי ברשימה למחר?": a day, not a list's name: what is on that day.
_HE_LIST_FOR_DAY = re.compile(
    r"^מה\s+(?:יש\s+(?:לי\s+)?)?ב?רשימה(?:\s+שלי)?\s+(?:של\s+|ל)(?P<name>.{1,20}?)\s*\??$"
)


def _day_asked(text: str, inp: PlannerInput) -> Match | None:
    """ "My list for tomorrow" names a day, and Memo keeps no lists by day: the reminders of that day."""
    found = _LIST_FOR.search(text) or _HE_LIST_FOR_DAY.match(text)
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
    text = _list_for(text)
    for pattern in _RE_LIST_SHOW:
        match = pattern.search(text)
        if match:
            name = match.groupdict().get("name")
            if name is not None and name.lower() in ("buy", "get", "לקנות"):
                name = "קניות" if has_hebrew(name) else "shopping"
            constraints: dict[str, object] = {
                "listName": UNNAMED_LIST if _unnamed(name) else _list_name(name or "")
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


_ITEMS_FROM = re.compile(r"\b(?:from|off|out\s+of)\b", re.I)


_RE_ALL_LISTS = (
    re.compile(
        r"^(?:(?:show|list|see|view|get|give|send|check|read)\s+(?:me\s+)?(?:all\s+)?(?:of\s+)?(?:my|the|our)\s+lists|"
        r"(?:what|which)\s+lists\s+(?:do\s+(?:i|we)\s+have|have\s+i\s+got|are\s+there|exist)|"
        r"(?:all\s+)?my\s+lists|what\s+are\s+my\s+lists|lists)\s*\??$",
        re.I,
    ),
    re.compile(
        r"^(?:(?:תראה|תראי|הראה|תציג|תציגי)\s+(?:לי\s+)?(?:את\s+)?(?:כל\s+)?הרשימות(?:\s+שלי)?|"
        r"(?:אילו|איזה|מה\s+ה)\s*רשימות\s+(?:יש\s+לי|יש)|(?:כל\s+)?הרשימות\s+שלי|רשימות)\s*\??$"
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


def clear(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_LIST_CLEAR:
        match = pattern.search(text)
        if match:
            name = match.group("name")
            if name and _ITEMS_FROM.search(name):
                return None  # "delete coffee from my shopping list": items, not the list
            if _unnamed(name):
                name = None  # "clear the list": the one that has items, found when resolved

            return Match(
                capability="lists",
                action="clear",
                # A list not named is found when resolved, and the approval names it and its items.
                confidence=CONFIDENT,
                risk="high",
                constraints={
                    "listName": _list_name(name) if name else UNNAMED_LIST,
                    # "... except the bread": never the whole list.
                    **limit_of(text[match.end() :]),
                },
                needs_approval=True,
                pattern="lists:clear",
            )
    return None
