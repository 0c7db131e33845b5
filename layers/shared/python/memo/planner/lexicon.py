"""The rule planner's words: English and Hebrew verbs, nouns and politeness, and the small text
helpers every intent matcher uses (cleaning, titles, what a summary names). Entries are regex
fragments, matched case-insensitively."""

from __future__ import annotations

import re

_HEBREW = re.compile(r"[\u0590-\u05FF]")


def has_hebrew(text: str) -> bool:
    return bool(_HEBREW.search(text))


def clean(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text.strip(" \"'“”‘’.,!?;:-")


_THE_ONE_FOR = re.compile(
    r"^(?:(?:the|that|this|my)\s+)?one\s+(?:for|about|with|to|at|on|of)\s+(?P<x>.+)$"
    r"|^(?:(?:the|that|this|my|our)\s+)?(?P<y>.+?)\s+one$"
    r"|^(?:את\s+)?(?:זו|זאת|הזאת|הזו|ההיא|זה|הזה|ההוא|האחת|האחד)\s+(?:של|עם|על)\s+(?P<z>.+)$",
    re.I,
)


def the_one_named(text: str) -> str:
    """What "the one for dad", "the bread one", "זו של אבא" name: "dad", "bread", "אבא"; the text
    as it is otherwise."""
    found = _THE_ONE_FOR.match(clean(text))
    if found is None:
        return text
    return clean(found.group("x") or found.group("y") or found.group("z"))


def strip_lead(text: str, words: str) -> str:
    return clean(re.sub(rf"^(?:{words})(?:\s+|$)", "", clean(text), flags=re.I))


_EN_TITLE_LEAD = r"to|about|that|for|of|re|regarding|called|named"
_HE_TITLE_LEAD = r"על|לגבי|בנושא|של"


_QUOTED = re.compile(r"[“\"„']([^”\"“']+)[”\"“']")


def named_in(summary: str) -> str:
    """What a latest action's summary names ("reminder “call mom” for Mon 17:00" -> "call mom"), so a
    question about "it" reads naturally; the whole summary when nothing is quoted."""
    match = _QUOTED.search(summary)
    return match.group(1).strip() if match else summary


#: Words that are manners, not content: never part of a title.
_FILLER = re.compile(
    r"(?:^|(?<=\s))(?:please|pls|plz|kindly|thanks|thank\s+you|thx|בבקשה|תודה(?:\s+רבה)?)(?=\s|$|[,.!?])",
    re.I,
)
_FILLER_EDGES = re.compile(
    r"^(?:just|also|and|then|ok|okay|אז|גם)\s+|^(?:to\s+)?(?:self|myself)\s*[:,\-]\s*|\s+(?:for\s+me|ok|okay|lol|בשבילי)$",
    re.I,
)


def unshout(text: str) -> str:
    """A title typed in capitals ("CALL MOM") in lower case; mixed case ("call Dan at IKEA") as typed."""
    letters = [ch for ch in text if ch.isalpha() and ch.isascii()]
    if len(letters) >= 3 and all(ch.isupper() for ch in letters):
        return text.lower()
    return text


def as_title(text: str) -> str:
    """What a reminder or item is called: without the lead word ("to", "about", "על"), manners
    ("please", "thanks"), and shouting."""
    text = clean(_FILLER.sub(" ", text))
    for _ in range(2):
        text = clean(_FILLER_EDGES.sub("", text))
    for _ in range(2):  # "for to leave" (a time taken from between them) -> "leave"
        text = strip_lead(text, _EN_TITLE_LEAD)
    text = strip_lead(text, _HE_TITLE_LEAD)
    if text.startswith("ש") and " " in text and _AFTER_THAT.match(text[1:]):
        text = text[1:]  # "תזכיר לי שאני צריך ..." ("that I need ..."); never "שבוע", "שמן זית"
    return unshout(clean(text))


#: The words a Hebrew "ש" ("that") is glued to before a clause: a pronoun, "there is", "need to",
#: a day, or a word with its article ("שהפגישה"). A thing that starts with ש ("שבוע", "שמפו") keeps it.
_AFTER_THAT = re.compile(
    r"(?:אני|אתה|את|הוא|היא|אנחנו|הם|הן|יש|אין|צריך|צריכה|צריכים|צריכות|חייב|חייבת|חייבים|מחר|היום|עוד|כבר|"
    r"לא|זה|זו|זאת|ה[\u05D0-\u05EA]{2,})(?=\s|$)"
)


# --- command words ------------------------------------------------------------------------

POLITE_EN = (
    r"^(?:(?:hey|hi|ok|okay|so)\s+)?(?:memo[,:]?\s+)?(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+"
    r"(?:please\s+)?)?(?:please\s+)?(?:i\s+(?:want|need|would like)\s+(?:you\s+)?to\s+)?"
)
POLITE_HE = r"^(?:(?:היי|הי|אהלן)\s+)?(?:בבקשה\s+)?(?:אפשר\s+)?(?:(?:אתה\s+)?(?:יכול|תוכל|יכולה|תוכלי)\s+(?:בבקשה\s+)?)?"

DELETE_EN = r"delete|remove|cancel|erase|drop|get rid of|clear|wipe"
#: "forget the wifi note": a delete only when the thing is named with its kind ("forget it" alone is
#: "never mind", not a delete).
FORGET_EN = r"forget(?:\s+about)?"
DELETE_HE = (
    r"תמחק|תמחקי|מחק|למחוק|תבטל|תבטלי|בטל|לבטל|תסיר|תסירי|הסר|להסיר|תנקה|נקה|לנקות|תוריד|תורידי|הורד|להוריד"
)
MOVE_EN = r"move|reschedule|push|postpone|delay|shift|change|update|set|make"
MOVE_HE = r"תזיז|תזיזי|הזז|להזיז|תדחה|תדחי|דחה|לדחות|תעביר|תעבירי|העבר|להעביר|תשנה|תשני|שנה|לשנות|תקדים|הקדם"
RENAME_EN = r"rename|retitle|call"
#: "make it 6", "change it to 17:30", "change the bank one to 5": a bare hour after "to" is a time of day.
BARE_HOUR = re.compile(r"^(?:to\s+|ל-?)?(?:[01]?\d|2[0-3])(?::[0-5]\d)?\s*[.!]?$")
#: "1730", "0930": a clock without its colon. "2027" could be a year as well as 20:27: asked.
_HHMM = re.compile(r"^(?P<h>[01]\d|2[1-3])(?P<m>[0-5]\d)$")
#: A day said by a word ("tomorrow", "on friday", "מחר") and a bare hour ("9", "17:30"): the parts of
#: "tomorrow 9", read as "tomorrow at 9" (`at_the_hour`).
DAY_SAID = (
    r"today|tomorrow|tmrw|tmr|tonight|(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day|מחר|היום|הערב"
)
HOUR_SAID = r"(?:[01]?\d|2[0-3])(?::[0-5]\d)?"
_ISH = re.compile(rf"^(?:at\s+|around\s+|about\s+)?(?P<t>{HOUR_SAID})\s*-?ish$", re.I)
_DAY_THEN_HOUR = re.compile(rf"^(?P<day>{DAY_SAID})\s+(?P<t>{HOUR_SAID})$", re.I)


def at_the_hour(day: str, hour: str) -> str:
    """A day and its bare hour as the time parser reads them: "tomorrow at 9", "מחר ב-9"."""
    return f"{day} ב-{hour}" if has_hebrew(day) else f"{day} at {hour}"


def clock_said_plainly(answer: str) -> str:
    """A time answered the short way, said as the time parser reads it: "1730" -> "at 17:30", "9ish"
    -> "at 9", "tmrw 9" -> "tmrw at 9", "מחר 9" -> "מחר ב-9"; anything else as it is."""
    said = answer.strip().rstrip(".!")
    if (found := _HHMM.match(said)) is not None:
        return f"at {found.group('h')}:{found.group('m')}"
    if (found := _ISH.match(said)) is not None:
        return f"at {found.group('t')}"
    if (found := _DAY_THEN_HOUR.match(said)) is not None:
        return at_the_hour(found.group("day"), found.group("t"))
    return answer


#: "make it 45 minutes", "change it to half an hour", "תעשה את זה 45 דקות": an amount from now.
BARE_DURATION = re.compile(
    r"^(?:to\s+|ל-?)?(?P<amount>(?:\d+(?:\.\d+)?|an?|one|two|three|half\s+an)\s*(?:min(?:ute)?s?|h(?:ou)?rs?|hours?)"
    r"|(?:\d+\s+)?(?:דקות|דק'|דק׳|דק|שעות)|חצי\s+שעה|רבע\s+שעה|שעה|שעתיים|שעה\s+וחצי)\s*[.!]?$",
    re.I,
)
#: "the bank one", "the email one": a thing named by a word of it (a reminder, when it has a time).
THE_X_ONE = re.compile(r"\bthe\s+(?:[\w'’-]+\s+){1,4}one\b", re.I)
#: After "delete all my reminders" / "clear the shopping list": what to keep ("except call mom", "but
#: keep the bread", "חוץ מלחם"), said as the narrowing of an approval says it.
_KEEP_TAIL = re.compile(
    r"^[\s,;:-]*(?:except(?:\s+for)?|but(?!\s+only\b)(?:\s+not|\s+keep|\s+leave)?|apart\s+from|other\s+than|"
    r"besides|(?:and\s+)?(?:leave|keep)|not)\s+(?P<en>\S.*)$"
    r"|^[\s,;:-]*(?:חוץ\s+מ-?|מלבד|פרט\s+ל-?|אבל\s+לא|אבל\s+(?:תשאיר|תשאירי)|ו?(?:תשאיר|תשאירי)|בלי)\s*(?P<he>\S.*)$",
    re.I,
)
#: Words after such a request that limit nothing ("now", "please", "for me", "לגמרי").
_NO_LIMIT = re.compile(
    r"^(?:[\s,.!?;:-]|now|right\s+now|please|pls|plz|for\s+me|thanks|thank\s+you|thx|asap|completely|"
    r"entirely|at\s+once|too|as\s+well|already|ok|okay|of\s+mine|mine|(?:that\s+)?i\s+have|(?:that\s+)?i\s+set|all|"
    r"the\s+lot|עכשיו|בבקשה|תודה|לגמרי|כבר|גם|שלי|שלנו|שיש\s+לי|כולן|כולם|הכל|הכול)*$",
    re.I,
)


#: "… שלי חוץ מאמא", "… of mine except mom": whose they are, before the limit.
_OWN = re.compile(r"^(?:[\s,]*(?:שלי|שלנו|of\s+mine|(?:that\s+)?i\s+have|now|please))+(?=[\s,]|$)", re.I)


def limit_of(tail: str) -> dict[str, str]:
    """What the words after "delete all my reminders" / "clear the list" say of the items: nothing,
    `{"keep": "call mom"}` ("except call mom"), or `{"only": "for tomorrow"}` (matched against the items when
    the approval is built; words that match none are asked about, never ignored)."""
    words = _OWN.sub("", clean(tail))
    if _NO_LIMIT.match(words):
        return {}
    keep = _KEEP_TAIL.match(words)
    if keep is not None:
        return {"keep": clean(keep.group("en") or keep.group("he")).strip(" ,;:-")}
    return {"only": re.sub(r"^(?:but\s+)?(?:only|just|רק)\s+", "", words.strip(" ,;:-"), flags=re.I)}


#: "them", "both", "את שניהם": every item the latest request made or changed, not only its last.
PLURAL_REF_EN = r"them|both|both of them|them both|all of them|those|these|the two of them"
PLURAL_REF_HE = r"אותם|אותן|את שניהם|שניהם|את שתיהן|שתיהן|את שתיהם|את כולם|את כולן"
REF_EN = rf"it|that|this|that one|this one|the last one|the last|{PLURAL_REF_EN}"
REF_HE = rf"זה|זאת|אותו|אותה|את זה|את זאת|את האחרון|את האחרונה|האחרון|האחרונה|{PLURAL_REF_HE}"

REMINDER_EN = r"reminders?"
REMINDER_HE = r"ה?תזכור(?:ת|ות)"
NOTE_EN = r"notes?|memos?"
NOTE_HE = r"ה?(?:פתקים|פתק|הערות|הערה)"


#: "how many reminders do I have?", "כמה דברים יש ברשימה?": a listing whose reply says how many.
HOW_MANY = re.compile(r"^(?:how\s+many|כמה)\b", re.I)


#: Hebrew nouns said in the construct state before what they belong to ("מספר הלקוח", "קוד השער",
#: "סיסמת הוויפי"): with the word after them, a definite thing a note may hold.
HE_CONSTRUCT_THING = r"(?:מספר|שם|קוד|סיסמת|כתובת|מידת|טלפון|תאריך|מחיר|מפתח)\s+ה?\S{2,}"
