"""What people type, made plannable before any matcher runs.

- `fix_typos`: chat abbreviations spelled out ("tmrw", "pls", "u", "2nite") and typos of the
  planner's own keywords corrected ("remnd" -> "remind", "tomorow" -> "tomorrow", "shoping" ->
  "shopping"). Only a short list of distinctive keywords is corrected (Damerau-Levenshtein with
  rapidfuzz: one edit, two for words of eight letters or more), and real words one edit away from
  them ("shipping", "remote", "remainder", "mourning", ...) are left alone, so a title never changes
  meaning. Case and punctuation are kept. A Hebrew request's opening verb said to a woman or with a
  letter missing is read in the form the matchers know ("תשימי" -> "תשים", "תזכר לי" -> "תזכיר לי").
- `strip_pleasantries`: the greeting and lead-in words before a request ("hi memo, ...", "actually
  ...", "בעצם ...") and the thanks/please after it ("... thx", "... 🙏", "..., תודה") are not part
  of the request.
"""

from __future__ import annotations

import re

from rapidfuzz.distance import DamerauLevenshtein

from memo.text.matching import list_word_spelled

#: Chat spellings -> words the matchers know (lower case keys; whole tokens only).
ABBREVIATIONS: dict[str, str] = {
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "tmrow": "tomorrow",
    "tmw": "tomorrow",
    "2morrow": "tomorrow",
    "2moro": "tomorrow",
    "2mrw": "tomorrow",
    "tomoz": "tomorrow",
    "2day": "today",
    "2nite": "tonight",
    "tonite": "tonight",
    "pls": "please",
    "plz": "please",
    "plss": "please",
    "thx": "thanks",
    "thnx": "thanks",
    "tnx": "thanks",
    "thanx": "thanks",
    "u": "you",
    "ur": "your",
    "r": "are",
    "rmnd": "remind",
    "rmd": "remind",
    "remindme": "remind me",
    "hrs": "hours",
    "hr": "hour",
    "mins": "minutes",
    "min": "minutes",
    "appt": "appointment",
    "wat": "what",
    "wht": "what",
    "waht": "what",
    "whta": "what",
    "shwo": "show",
    "sohw": "show",
    "b4": "before",
    "wanna": "want to",
    "gotta": "have to",
    "תזכירלי": "תזכיר לי",
    "תזכרלי": "תזכיר לי",
    "תזכיריל": "תזכירי לי",
}

#: The keywords whose typos are corrected. Short or common words ("note", "list", "add") are not:
#: one edit away from them are too many words a title may hold.
KEYWORDS: tuple[str, ...] = (
    "remind",
    "reminder",
    "reminders",
    "tomorrow",
    "tonight",
    "delete",
    "shopping",
    "groceries",
    "grocery",
    "minutes",
    "please",
    "thanks",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "afternoon",
    "evening",
    "remember",
    "reschedule",
    "rename",
    "appointment",
    "birthday",
    "alarm",
)

#: Real words one edit away from a keyword: never "corrected".
_REAL_WORDS = frozenset(
    {
        "shipping",
        "chopping",
        "whopping",
        "stopping",
        "mourning",
        "remainder",
        "remainders",
        "reminded",
        "reminds",
        "deleted",
        "deletes",
        "pleased",
        "pleases",
        "thank",
        "thanked",
        "evenings",
        "mondays",
        "tuesdays",
        "wednesdays",
        "thursdays",
        "fridays",
        "saturdays",
        "sundays",
        "afternoons",
        "minute",
        "renamed",
        "remembered",
        "remembers",
        "birthdays",
        "alarms",
        "alarmed",
        "remote",
        "reminiscent",
        "grocer",
        "grocers",
        "tonights",
        "evening's",
        "sunday's",
        "monday's",
        "friday's",
        "todays",
        "thanksgiving",
        "schedule",
        "scheduled",
        "schedules",
        "lease",
        "leases",
        "leased",
    }
)

_TOKEN = re.compile(r"[A-Za-z0-9\u0590-\u05FF']+")


def _correct(word: str) -> str | None:
    lower = word.lower()
    if lower in ABBREVIATIONS:
        return ABBREVIATIONS[lower]
    if len(lower) < 5 or not lower.isascii() or not lower.isalpha() or lower in _REAL_WORDS:
        return None
    if lower in KEYWORDS:
        return None
    best: str | None = None
    best_distance = 3
    for keyword in KEYWORDS:
        if abs(len(keyword) - len(lower)) > 2:
            continue
        allowed = 2 if len(keyword) >= 8 else 1
        distance = DamerauLevenshtein.distance(lower, keyword, score_cutoff=allowed)
        if distance == 2 and lower[0] != keyword[0]:
            continue  # two edits and another first letter: another word ("schedule", not "reschedule")
        if distance <= allowed and distance < best_distance:
            best, best_distance = keyword, distance
    return best


#: Words a code or a label follows ("gate B4", "seat r", "vitamin b4"): the token after them is kept.
_LABELS = re.compile(
    r"(?:gate|seat|row|room|rm|apt|apartment|flat|unit|section|sec|platform|terminal|level|floor|bay|"
    r"locker|table|bus|line|route|vitamin|building|block|spot|space|hall|desk|box|suite|ward|car|coach|"
    r"plan|option|type|size|grade|class|zone|wing|door|pier|dock|stand|court|field|lot|aisle)\W*$",
    re.I,
)


def _chat_spelling(text: str, match: re.Match[str]) -> bool:
    """Whether a token that reads as a chat spelling ("b4", "u", "2nite") is one: typed in lower case
    (or capitalized as the message's first word, or in a message all in capitals), and not right after
    a word a code or a label follows. "Gate B4", "row R", "seat u" keep their letters."""
    word = match.group(0)
    first = match.start() == len(text) - len(text.lstrip())
    shouted = text.upper() == text  # "REMIND ME TMRW": every word is in capitals
    if (
        word != word.lower()
        and not shouted
        and not (first and word[1:] == word[1:].lower() and word[1:].isalpha())
    ):
        return False
    # Only the word before counts: a bounded look back, however long the message.
    return _LABELS.search(text[max(0, match.start() - 24) : match.start()]) is None


def _keep_case(original: str, fixed: str) -> str:
    if original.isupper() and len(original) > 1:
        return fixed.upper()
    if original[:1].isupper():
        return fixed[:1].upper() + fixed[1:]
    return fixed


#: "cal mom" after "to": a short typo that only a neighbour makes certain.
_TO_CAL = re.compile(r"\b(to|and)\s+cal\b", re.I)
#: "to by milk": "buy", as only "to" before it makes certain.
_TO_BY = re.compile(r"\b(to)\s+by\b(?=\s+(?!the\s+(?:way|end))\w)", re.I)
#: "remind me too walk the dog", "remind me t call mom", "remind em to ...": the "to" (or "me") of
#: "remind me to" mistyped; right after "remind me" no word is anything else.
_REMIND_ME_TO = re.compile(r"\b(?P<remind>remind\s+(?:me|us))\s+(?:too|tp|ti|yo|t|ot|tto)\s+(?=[a-z])", re.I)
_REMIND_EM = re.compile(
    r"\b(?P<remind>remind)\s+(?-i:em)\b(?=\s+(?:to|at|in|on|tomorrow|tonight|every|about)\b)", re.I
)
#: "remind me tmrw 2 call mom": "2" for "to" before a verb of a task (never a count: "2 eggs").
_TWO_FOR_TO = re.compile(
    r"(?<=\s)2\s+(?=(?:call|buy|get|take|pick|pay|send|check|go|do|book|email|text|water|feed|clean|make|"
    r"bring|see|meet|visit|finish|start|cancel|order|wash|walk|renew|submit|return|print|charge|fix)\b)",
    re.I,
)
#: "@ 9", "@9pm": "at".
_AT_SIGN = re.compile(r"(?<!\S)@\s*(?=\d)")
#: "at 3 15", "at 11 45pm": the minutes after a space are the clock's ("at 3:15"); never a count
#: ("at 5 10 minutes before", "at 9 12 eggs").
_AT_H_MM = re.compile(
    r"\b(?P<at>at|by|around)\s+(?P<h>[01]?\d|2[0-3])\s(?P<m>[0-5]\d)"
    r"(?=\s*(?:am|pm|a\.m\.?|p\.m\.?)?(?:\s+(?:to|for|and|tomorrow|today|tonight|on|every)\b|\s*[,.!?]?$))",
    re.I,
)

#: A Hebrew request's verb in the form the matchers know: said to a woman ("תשימי", "תראי"). Only
#: the verb that opens the message or a sentence is read so: the words of a title or a note are kept
#: as written.
HE_VERBS: dict[str, str] = {
    "תשימי": "תשים",
    "תמחקי": "תמחק",
    "תוסיפי": "תוסיף",
    "תראי": "תראה",
    "תרוקני": "תרוקן",
    "תנקי": "תנקה",
    "תדחי": "תדחה",
    "תשני": "תשנה",
    "תזיזי": "תזיז",
    "תעבירי": "תעביר",
    "תבטלי": "תבטל",
    "תורידי": "תוריד",
    "תכניסי": "תכניס",
    "תרשמי": "תרשום",
    "תשמרי": "תשמור",
    "תעדכני": "תעדכן",
    "תחפשי": "תחפש",
    "תמצאי": "תמצא",
    "תשלחי": "תשלח",
    "תסירי": "תסיר",
    "תזכירו": "תזכיר",
}
_HE_VERB = re.compile(rf"(?:^|(?<=[,.;:!?\n])\s*)(?P<and>ו?)(?P<verb>{'|'.join(HE_VERBS)})(?=\s|$)")
#: An opening Hebrew verb typed with its last letter not in the final form ("תוסיפ" for "תוסיף"):
#: read with the final form.
_FINAL = {"כ": "ך", "מ": "ם", "נ": "ן", "פ": "ף", "צ": "ץ"}
_HE_OPEN_NOT_FINAL = re.compile(r"^(?P<word>ו?ת[\u05D0-\u05EA]{2,})(?P<last>[כמנפצ])(?=\s)")
#: The days of the week by their letters: "יום א'" is Sunday ... "יום ו'" Friday.
_HE_LETTER_DAYS = {"א": "ראשון", "ב": "שני", "ג": "שלישי", "ד": "רביעי", "ה": "חמישי", "ו": "שישי"}

#: Hebrew time words as people spell them, in the spelling the time parser reads: "ששי" (Friday),
#: "אחרי הצהריים" / "אחר הצהרים" (the afternoon), "ב 5" (at 5, with a space for the hyphen).
_HE_SPELLINGS = (
    (re.compile(r"(?:(?<=\s)|^)(?P<pre>[בל]?-?(?:יום\s+)?)ששי(?=\s|$|[,.!?])"), r"\g<pre>שישי"),
    (re.compile(r"(?:(?<=\s)|^)אחרי?\s+ה?צהרי?ים(?=\s|$|[,.!?])"), "אחר הצהריים"),
    # "בסופ״ש", "בסופ\"ש", "בסופש": the weekend, abbreviated
    (re.compile(r"(?:(?<=\s)|^)(?P<pre>[בל]?-?)סופ(?:״|\"|'|׳)?ש(?=\s|$|[,.!?])"), r"\g<pre>סוף השבוע"),
    (
        re.compile(
            r"(?:(?<=\s)|^)(?P<pre>[בל])\s+(?=\d{1,2}(?::[0-5]\d)?(?:$|[,.!?]|\s+(?!ק\"ג|ק״ג|קילו|גרם|ליטר|שקל|ש\"ח|ש״ח|"
            r"אחוז|דקות|שעות|ימים|שבועות|חודשים|יחידות|חבילות|בקבוקים|אנשים)))"
        ),
        r"\g<pre>-",
    ),
)
_HE_LETTER_DAY = re.compile(r"(?:(?<=\s)|^)(?P<pre>[בל]?-?)יום\s+(?P<d>[אבגדהו])['׳](?=\s|$|[,.!?])")
#: "תזרוק את הפתק" is a delete, said of a note, reminder or list only ("תזרוק את הזבל" is no command).
_HE_THROW_AWAY = re.compile(
    r"^(?P<and>ו?)(?:תזרוק|תזרקי)(?=\s+(?:לי\s+)?(?:את\s+)?(?:כל\s+)?ה?(?:פתק|פתקים|תזכורת|תזכורות|הערה|רשימ))"
)
#: "תזכר לי" (a letter missing), "תזקיר לי" (ק for כ, as said): "תזכיר לי"; "תזכור" alone is "remember".
_HE_REMIND_TYPO = re.compile(r"(?:^|(?<=\s))(?P<and>ו?)(?:תזכר|תזכיל|תזכירר|תזקיר|תזקר)(?=\s+לי\b)")


def fix_typos(text: str) -> str:
    """`text` with chat abbreviations spelled out and typos of the planner's keywords corrected."""

    def replace(match: re.Match[str]) -> str:
        word = match.group(0)
        if word.lower() in ABBREVIATIONS and not _chat_spelling(text, match):
            return word  # "gate B4", "row r": a name or a code, kept as written
        fixed = _correct(word)
        return word if fixed is None else _keep_case(word, fixed)

    text = _TOKEN.sub(replace, text)
    text = _TO_CAL.sub(lambda m: f"{m.group(1)} call", text)
    text = _TO_BY.sub(lambda m: f"{m.group(1)} buy", text)
    text = _HE_VERB.sub(lambda m: f"{m.group('and')}{HE_VERBS[m.group('verb')]}", text)
    text = _HE_REMIND_TYPO.sub(lambda m: f"{m.group('and')}תזכיר", text)
    text = _HE_THROW_AWAY.sub(lambda m: f"{m.group('and')}תמחק", text)
    text = _HE_OPEN_NOT_FINAL.sub(lambda m: m.group("word") + _FINAL[m.group("last")], text)
    for spelled, read in _HE_SPELLINGS:
        text = spelled.sub(read, text)
    text = _HE_LETTER_DAY.sub(lambda m: f"{m.group('pre')}יום {_HE_LETTER_DAYS[m.group('d')]}", text)
    text = _AT_SIGN.sub("at ", _TWO_FOR_TO.sub("to ", text))
    text = _REMIND_EM.sub(lambda m: f"{m.group('remind')} me", text)
    text = _REMIND_ME_TO.sub(lambda m: f"{m.group('remind')} to ", text)
    text = _AT_H_MM.sub(lambda m: f"{m.group('at')} {m.group('h')}:{m.group('m')}", text)
    text = _TO_THE_HOUR.sub("בשעה", text)
    text = _HE_LIST_NAMED.sub(
        lambda m: m.group("pre") + (list_word_spelled(m.group("name")) or m.group("name")), text
    )
    return _AT_H_P.sub(lambda m: f"{m.group('t')}{m.group('p')}m", text)


#: "לרשימת הקנית" (a letter missing): the name of the list that every language names, spelled right.
_HE_LIST_NAMED = re.compile(r"(?P<pre>(?:(?<=\s)|^)[לבמ]?רשימת\s+)(?P<name>[\u05D0-\u05EA]+)")


#: "תזיז את הרופא לשעה 3", "לשעה 17:30": to the hour, said as "at the hour" is ("בשעה 3").
_TO_THE_HOUR = re.compile(r"(?:(?<=\s)|^)לשעה(?=\s+\d)")


#: "at 5p", "at 7:30a": a clock time with only the first letter of am/pm (read after "at" only).
_AT_H_P = re.compile(r"(?<=\bat\s)(?P<t>(?:1[0-2]|0?[1-9])(?::[0-5]\d)?)(?P<p>[ap])(?![\w.'’])", re.I)


_GREETING = re.compile(
    r"^(?:(?:hi|hey|hello|hiya|yo|morning|good\s+(?:morning|afternoon|evening)|heya|"
    r"היי|הי|שלום|אהלן|בוקר\s+טוב|ערב\s+טוב|צהריים\s+טובים)"
    r"(?:\s+(?:there|memo|again|מממו|ממו))?\s*[,!.:;]*\s+)",
    re.I,
)
# Words people start a message with that are not the request ("actually make it the 2nd", "oh and
# add eggs", "בעצם תזיז את זה ל-7"); repeated ("ok so actually ...").
_LEAD_IN = re.compile(
    r"^(?:ok(?:ay)?\s+so\s+|"
    r"(?:actually|oh(?:\s+and)?|and|ah|also|ok(?:ay)?|wait|sorry|hmm+|um+|btw|by\s+the\s+way|one\s+more\s+thing|"
    r"בעצם|רגע|אה|אוקיי|אגב|ועוד\s+משהו)\s*[,!.:;-]*\s+|"
    # words that begin other sentences too ("so long", "well done", "טוב לדעת"): only with a comma
    r"(?:so|well|טוב)\s*,\s*)+",
    re.I,
)
_THANKS_TAIL = re.compile(
    # A word of thanks stands apart from the word before it ("... party" is no "ty"); an emoji or a
    # smiley may follow a word directly.
    r"(?:(?:[\s,.;!-]+|^)(?:thanks?(?:\s+you)?(?:\s+(?:so\s+much|a\s+lot|very\s+much|in\s+advance))?|"
    r"thx|ty|cheers|please|kindly|ok\?|okay\?|"
    r"תודה(?:\s+רבה)?(?:\s+מראש)?|בבקשה|תודה\s+לך)(?=[\s.!]*$|[\s.!]*[\s,.;!-])[\s.!]*|"
    r"[\s,.;!-]*(?:[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F]+|:\)|:-\))[\s.!]*)+$",
    re.I,
)


#: "ותזיז את זה למחר" ("and move it to tomorrow"): the "and" glued to the request's verb.
_HE_AND_VERB = re.compile(
    r"^ו(?=ת(?:עשה|עשי|זיז|זיזי|וסיף|וסיפי|מחק|מחקי|זכיר|זכירי|שנה|שני|עביר|עבירי|בטל|בטלי|ראה|ראי|"
    r"שמור|שמרי|רשום|רשמי|וריד|ורידי|דחה|דחי|קבע|קבעי)\b)"
)


#: "תוסיף בבקשה חלב", "תרוקן בבקשה את הרשימה": the please said right after the verb.
_PLEASE_AFTER_VERB = re.compile(r"^(?P<verb>[\u05D0-\u05EA]{3,8})\s+בבקשה(?=\s+\S)")


#: The verbs a request starts with, as "would you mind ...ing" says them ("adding" -> "add").
_GERUNDS = {
    "adding": "add", "reminding": "remind", "jotting": "jot", "noting": "note", "writing": "write",
    "putting": "put", "saving": "save", "setting": "set", "making": "make", "deleting": "delete",
    "removing": "remove", "cancelling": "cancel", "canceling": "cancel", "moving": "move",
    "changing": "change", "showing": "show", "telling": "tell", "listing": "list", "clearing": "clear",
    "taking": "take", "pushing": "push", "snoozing": "snooze", "keeping": "keep", "recording": "record",
    "scheduling": "schedule", "creating": "create", "starting": "start", "marking": "mark",
    "getting": "get", "updating": "update", "renaming": "rename", "erasing": "erase",
}  # fmt: skip
_WOULD_YOU_MIND = re.compile(
    rf"^(?:would|do|could)\s+you\s+mind\s+(?:please\s+)?(?P<verb>{'|'.join(_GERUNDS)})\b", re.I
)
#: Hebrew "אכפת לך להזכיר לי ...", "אפשר בבקשה שתזכיר לי ...": the verb as a request says it.
_HE_INFINITIVES = {
    "להזכיר": "תזכיר", "להוסיף": "תוסיף", "לרשום": "תרשום", "לשמור": "תשמור", "למחוק": "תמחק",
    "לקבוע": "תקבע", "להעביר": "תעביר", "לבטל": "תבטל", "להראות": "תראה", "לשים": "תשים",
    "להוריד": "תוריד", "לשנות": "תשנה", "לדחות": "תדחה", "להזיז": "תזיז", "לכתוב": "תכתוב",
}  # fmt: skip
_HE_MIND = re.compile(
    r"^(?:(?:אכפת|איכפת)\s+לך\s+|(?:אפשר|תוכל|תוכלי|אתה\s+יכול|את\s+יכולה)\s+(?:בבקשה\s+)?)"
    rf"(?:(?P<inf>{'|'.join(_HE_INFINITIVES)})|ש(?P<future>ת[\u05D0-\u05EA]{{2,6}}))(?=\s|$)"
)


def _asked_plainly(text: str) -> str:
    """ "would you mind adding eggs ..." as "add eggs ...", "אכפת לך להזכיר לי ..." as "תזכיר לי ...",
    "אפשר שתזכיר לי ..." as "תזכיר לי ..."."""
    found = _WOULD_YOU_MIND.match(text)
    if found is not None:
        return _GERUNDS[found.group("verb").lower()] + text[found.end() :]
    found = _HE_MIND.match(text)
    if found is not None:
        verb = _HE_INFINITIVES[found.group("inf")] if found.group("inf") else found.group("future")
        return verb + text[found.end() :]
    return text


def greeted_off(text: str) -> str:
    """The words after the greeting and the lead-in ("hi, ...", "oh and ..."), as they were said:
    "היי, אתה יכול להזכיר לי דברים?" is still asked, not yet turned into a request."""
    core = _LEAD_IN.sub("", _GREETING.sub("", text, count=1), count=1)
    return core or text


def strip_pleasantries(text: str) -> str:
    """The request without the greeting before it and the thanks or please after it; the text
    itself when nothing else would be left."""
    core = _GREETING.sub("", text, count=1)
    core = _LEAD_IN.sub("", core, count=1)
    core = _asked_plainly(core)
    core = _HE_AND_VERB.sub("", core, count=1)
    core = _PLEASE_AFTER_VERB.sub(r"\g<verb>", core, count=1)
    core = _THANKS_TAIL.sub("", core).strip(" ,.;:-")
    return core or text
