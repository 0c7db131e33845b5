"""Small talk: greetings, thanks, "how are you", "who are you", goodbyes — in English and Hebrew.

This module holds the one small-talk lexicon (the rule planner's conversation matcher builds on it
too), `classify` for a message, and the replies. Replies are friendly, use the user's WhatsApp
profile name when Meta sent one, and greet by the time of day in the user's timezone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from memo.text.dates import format_when
from memo.text.language import Language

SmallTalk = Literal[
    "greeting",
    "how_are_you",
    "thanks",
    "identity",
    "goodbye",
    "affirmation",
    "clock",
    "timezone",
    "laugh",
    "list_rename",
    "series_to_once",
    "pause",
    "how_to",
]


# --- the lexicon -------------------------------------------------------------------------------
# The one list of small-talk words. `classify` below and the rule planner's conversation matcher
# (`memo.planner.intents.conversation`) both build their patterns from it, so what the planner
# calls small talk the responder recognises too. Entries are regex fragments.


@dataclass(frozen=True)
class Words:
    """The phrases of one kind, English and Hebrew, as regex fragments."""

    en: tuple[str, ...]
    he: tuple[str, ...]

    @property
    def any(self) -> str:
        return "|".join(self.en + self.he)

    @property
    def any_en(self) -> str:
        return "|".join(self.en)

    @property
    def any_he(self) -> str:
        return "|".join(self.he)


#: Hebrew "how are you" phrases that open a chat the way "hi" does ("מה נשמע?" is a greeting).
HE_OPENING_QUESTIONS = ("מה נשמע", "מה קורה", "מה שלומך", "מה המצב")

GREETINGS = Words(
    en=(
        r"hi+",
        r"hello+",
        r"hey+",
        "hiya",
        "heya",
        "yo",
        "howdy",
        r"good (?:morning|afternoon|evening)",
        "morning",
        "shalom",
    ),
    he=("שלום", "היי", "הי", "אהלן(?: וסהלן)?", "הלו", "בוקר טוב", "ערב טוב", "צהריים טובים", "מה הולך"),
)
HOW_ARE_YOU = Words(
    en=(
        r"how are (?:you|u)(?: doing)?(?: today)?",
        r"how'?s it going",
        "how do you do",
        r"what'?s up",
        r"\bsup\b",
        "how are things",
    ),
    he=(*HE_OPENING_QUESTIONS, r"מה שלומ\w*", "מה העניינים", "איך אתה"),
)
THANKS = Words(
    en=("thanks", "thank you", "thx", "ty", "cheers", "appreciate it", "much appreciated"),
    he=("תודה(?: רבה)?(?: לך)?", "תנקס", "תנקיו"),
)
IDENTITY = Words(
    en=(
        "who are you",
        "what are you",
        "what can you do",
        "what do you do",
        "how does this work",
        "how do you work",
        r"help\b",
        r"^\s*menu\s*$",
    ),
    he=("מי אתה", "מה (?:אתה|את) (?:יודע|יודעת|יכול|יכולה)(?: לעשות)?", "איך זה עובד", "עזרה"),
)
GOODBYES = Words(
    en=("bye", "goodbye", "see you", "good night", "cya", "later"),
    he=("ביי", "להתראות", "לילה טוב", "יאללה ביי"),
)
AFFIRMATIONS = Words(
    en=("cool", "nice", "great", "awesome", r"ok(?:ay)?", "👍", "😊", "🙏"),
    he=("אחלה", "מגניב", "סבבה", "יופי"),
)
#: What may come before a thank-you ("great, thanks").
THANKS_LEADS = Words(
    en=(r"ok(?:ay)?", "great", "awesome", "perfect", "cool", "nice"), he=("מעולה", "יופי", "סבבה", "אחלה")
)
#: Whom a greeting may name ("hi there", "hey memo").
ADDRESSEES = Words(en=("there", "memo", "everyone", "friend", "you"), he=("ממו",))
#: What may follow a thank-you ("thanks so much").
THANKS_TAILS = Words(en=("so much", "a lot", "memo", "again"), he=("ממו",))

#: "what time is it?", "what's the date today?", "מה השעה?", "איזה יום היום?": answered from the
#: person's own timezone (the one their reminders use).
CLOCK = re.compile(
    r"^\W*(?:what(?:'s|’s|\s+is)?\s+(?:the\s+)?(?:time|date|day)(?:\s+(?:is\s+it|now|today|it\s+is))?(?:\s+(?:now|today))?"
    r"|what\s+time\s+is\s+it(?:\s+now)?|what\s+day\s+is\s+(?:it|today)|what(?:'s|’s|\s+is)\s+today(?:'s|’s)?\s+date"
    r"|מה\s+השעה(?:\s+עכשיו)?|איזה\s+יום\s+היום|מה\s+התאריך(?:\s+היום)?|איזה\s+תאריך\s+היום)\W*$",
    re.I,
)

#: "rename the shopping list to groceries", "תשנה את השם של רשימת הקניות": lists keep the name they
#: were made with (a list is its items under that name), which the answer says, with the way round it.
LIST_RENAME = re.compile(
    r"^\W*(?:rename|retitle|change\s+the\s+(?:name|title)\s+of)\s+(?:the\s+|my\s+|our\s+)?"
    r"(?:[\w\-' ]{1,30}\s+)?list\b(?:\s+[\w\-' ]{1,30})?\s+(?:to|as|into)\s+\S"
    r"|^\W*(?:תשנה|תשני|שנה|לשנות|תחליף|תחליפי)\s+(?:את\s+)?(?:ה)?שם\s+(?:של\s+)?(?:ה)?רשימ"
    r"|^\W*(?:תשנה|תשני|שנה|לשנות)\s+(?:את\s+)?(?:ה)?רשימה\s+\S+(?:\s+\S+)?\s+ל",
    re.I,
)

#: Whole Hebrew words ("ביי", never the letters inside "וגרביים"); a one-letter prefix (ו, ו-) may lead.
_HE_WORD_START = r"(?<![\u05D0-\u05EA])(?:ו-?)?"
_HE_WORD_END = r"(?![\u05D0-\u05EA])"

#: "stop repeating it", "make it one-time", "don't repeat it", "תפסיק לחזור על זה": a repeating reminder
#: cannot be made one-time in place; the answer says what can be done instead.
SERIES_TO_ONCE = re.compile(
    r"^\W*(?:(?:please\s+)?(?:stop|quit)\s+repeating(?:\s+(?:it|that|this|the\s+\w+(?:\s+reminder)?))?"
    r"|(?:make|set)\s+(?:it|that|this)\s+(?:a\s+)?(?:one[\s-]?time|one[\s-]?off|just\s+once|once|not\s+repeat(?:ing)?)"
    r"|(?:don'?t|do\s+not)\s+repeat\s+(?:it|that|this)(?:\s+any\s*more)?"
    r"|(?:it|that)\s+shouldn'?t\s+repeat)\W*$"
    r"|^\W*(?:תפסיק|תפסיקי|הפסק|די)\s+(?:לחזור\s+על|לחזור\s+עם)\s+(?:זה|זאת|התזכורת)\W*$"
    r"|^\W*(?:שיהיה|תעשה\s+(?:את\s+)?(?:זה|זאת)|תהפוך\s+(?:את\s+)?(?:זה|זאת)\s+ל)\s*חד[\s-]?פעמי(?:ת)?\W*$"
    r"|^\W*(?:שלא|אל\s+ת)(?:יחזור|חזור)\s+על\s+עצמו\W*$",
    re.I,
)

#: "pause all my reminders", "mute my reminders for a week", "תשהה את כל התזכורות": reminders cannot be
#: paused; the answer says what can be done instead.
PAUSE = re.compile(
    r"^\W*(?:(?:please|can\s+you|could\s+you)\s+)?(?:pause|mute|silence|disable|turn\s+off|switch\s+off|freeze|suspend)"
    r"\s+(?:all\s+)?(?:(?:of\s+)?(?:my|the)\s+)?(?:reminders|notifications|alerts)\b.*$"
    r"|^\W*(?:תשהה|תשהי|תשתיק|תשתיקי|תקפיא|תקפיאי|תכבה|תכבי|תעצור|תעצרי)\s+(?:לי\s+)?(?:את\s+)?(?:כל\s+)?(?:ה)?(?:תזכורות|התראות)(?:\s+.*)?$",
    re.I,
)

#: "what's my timezone?", "which time zone am I in?", "מה אזור הזמן שלי?": the zone Memo uses for them.
TIMEZONE_ASKED = re.compile(
    r"^\W*(?:what(?:'s|’s|\s+is)\s+my\s+time\s*zone|which\s+time\s*zone\s+(?:am\s+i\s+in|are\s+you\s+using|do\s+you\s+use)"
    r"|what\s+time\s*zone\s+(?:am\s+i\s+in|are\s+you\s+using|do\s+you\s+use|is\s+(?:mine|set))"
    r"|(?:מה|איזה)\s+אזור\s+(?:ה)?זמן\s+(?:שלי|שלך|מוגדר)|באיזה\s+אזור\s+(?:ה)?זמן\s+(?:אני|אתה))\W*$",
    re.I,
)

_PATTERNS: tuple[tuple[SmallTalk, re.Pattern[str]], ...] = (
    ("list_rename", LIST_RENAME),
    ("series_to_once", SERIES_TO_ONCE),
    ("pause", PAUSE),
    ("timezone", TIMEZONE_ASKED),
    ("clock", CLOCK),
    ("how_are_you", re.compile(HOW_ARE_YOU.any, re.I)),
    (
        "thanks",
        re.compile(rf"\b(?:{THANKS.any_en})\b|{_HE_WORD_START}(?:{THANKS.any_he}){_HE_WORD_END}", re.I),
    ),
    (
        "goodbye",
        re.compile(rf"\b(?:{GOODBYES.any_en})\b|{_HE_WORD_START}(?:{GOODBYES.any_he}){_HE_WORD_END}", re.I),
    ),
    ("identity", re.compile(IDENTITY.any, re.I)),
    ("greeting", re.compile(rf"^\W*(?:{GREETINGS.any_en})\b|^\W*(?:{GREETINGS.any_he})", re.I)),
    ("affirmation", re.compile(rf"^\W*(?:{AFFIRMATIONS.any})\W*$", re.I)),
)

_CAPABILITIES = {
    "en": "I can set reminders, keep notes and manage your lists — just tell me what you need.",
    "he": "אני יכול לקבוע תזכורות, לשמור פתקים ולנהל רשימות — פשוט לכתוב לי מה צריך.",
}


def classify(text: str) -> SmallTalk | None:
    for kind, pattern in _PATTERNS:
        if pattern.search(text):
            return kind
    return None


def _part_of_day(local: datetime, language: Language) -> str:
    hour = local.hour
    if language == "he":
        return (
            "בוקר טוב"
            if 5 <= hour < 12
            else "צהריים טובים"
            if 12 <= hour < 17
            else "ערב טוב"
            if 17 <= hour < 22
            else "לילה טוב"
        )
    return "Good morning" if 5 <= hour < 12 else "Good afternoon" if 12 <= hour < 17 else "Good evening"


def reply(kind: SmallTalk, *, language: Language, local_now: datetime, name: str | None) -> str:
    first = (name or "").split()[0] if name and name.strip() else ""
    if language == "he":
        hello = f"{_part_of_day(local_now, 'he')}{', ' + first if first else ''}!"
        texts = {
            "greeting": f"{hello} כאן Memo 👋 {_CAPABILITIES['he']}",
            "how_are_you": "מצוין, תודה ששאלת! 😊 איך אני יכול לעזור היום?",
            "thanks": "בכיף! אני כאן אם צריך עוד משהו.",
            "identity": f"אני Memo, העוזר שלך בוואטסאפ. {_CAPABILITIES['he']}",
            "goodbye": "להתראות! אפשר לכתוב לי בכל זמן.",
            "affirmation": "👍 אם צריך משהו — אני כאן.",
            "laugh": "😄 אם צריך משהו — אני כאן.",
            "clock": f"עכשיו {local_now:%H:%M}, {format_when(local_now.date(), 'he', str(local_now.tzinfo))}.",
            "timezone": f"אזור הזמן שלך הוא {local_now.tzinfo}: השעה שם עכשיו {local_now:%H:%M}. כדי לשנות, "
            "אפשר לכתוב לי איפה נמצאים עכשיו (למשל „אני בלונדון”).",
            "list_rename": "אין לי אפשרות לשנות שם של רשימה: רשימה נשארת עם השם שבו נפתחה. אפשר להוסיף את "
            "הפריטים לרשימה בשם החדש (למשל „תוסיף חלב לרשימת האוכל”) ולנקות את הישנה.",
            "how_to": "פשוט לכתוב לי במילים שלך, למשל: „תזכיר לי מחר ב-9 להתקשר לאמא”, „תזיז את רופא השיניים "
            "ל-5”, „תמחק את התזכורת של רופא השיניים”, „תוסיף חלב לרשימת הקניות”, „תרשום: קוד השער 4411”.",
            "pause": "אין לי אפשרות להשהות תזכורות. אפשר לדלג על הפעם הבאה של תזכורת חוזרת („תדלג על הפעם "
            "הבאה”), לדחות תזכורת כשהיא מגיעה, או למחוק את אלה שלא צריך. לא שיניתי כלום.",
            "series_to_once": "אין לי אפשרות להפוך תזכורת חוזרת לחד־פעמית. אפשר למחוק את הסדרה ולקבוע "
            "תזכורת חדשה לפעם אחת, או לדלג רק על הפעם הבאה („תדלג על הפעם הבאה”). לא שיניתי כלום.",
        }
        return texts[kind]
    hello = f"{_part_of_day(local_now, 'en')}{', ' + first if first else ''}!"
    texts = {
        "greeting": f"{hello} I'm Memo 👋 {_CAPABILITIES['en']}",
        "how_are_you": "Doing great, thanks for asking! 😊 How can I help today?",
        "thanks": "You're welcome! I'm here if you need anything else.",
        "identity": f"I'm Memo, your WhatsApp assistant. {_CAPABILITIES['en']}",
        "goodbye": "Bye for now! Message me any time.",
        "affirmation": "👍 Just say the word if you need anything.",
        "laugh": "😄 Just say the word if you need anything.",
        "clock": f"It's {local_now:%H:%M} on {format_when(local_now.date(), 'en', str(local_now.tzinfo))}.",
        "timezone": f"Your timezone is {local_now.tzinfo}: it's {local_now:%H:%M} there now. To change it, "
        "tell me where you are (e.g. “I'm in London”).",
        "list_rename": "I can't rename a list: a list keeps the name it was started with. You can add its "
        "items to a list with the new name (e.g. “add milk to my food list”) and clear the old one.",
        "how_to": "Just tell me in your own words, for example: “remind me tomorrow at 9 to call mom”, “move the "
        "dentist to 5pm”, “delete the dentist reminder”, “add milk to my shopping list”, “note: gate code 4411”.",
        "pause": "I can't pause reminders. You can skip a repeating one's next time (“skip the next one”), "
        "snooze one when it goes off, or delete the ones you don't need. I haven't changed anything.",
        "series_to_once": "I can't turn a repeating reminder into a one-time one. You can delete the series "
        "and set a new reminder for once, or skip only its next time (“skip the next one”). I haven't changed anything.",
    }
    return texts[kind]


#: Bare acknowledgements: with no question pending they get a short friendly answer, never the
#: stale-reply text (that one is for bare confirmations and choices: "yes", "2", "כן").
_ACKNOWLEDGEMENTS = frozenset(
    {
        "ok", "okay", "k", "kk", "okey", "oki", "ok thanks", "okay thanks", "ok thank you", "sure", "alright",
        "all right", "fine", "cool", "great", "nice", "perfect", "awesome", "got it", "noted", "ok cool",
        "sounds good", "good", "thanks", "thank you", "thx", "ty", "cheers", "thanks a lot", "thank you so much",
        "אוקיי", "אוקי", "אוקיי תודה", "סבבה", "סבבה תודה", "תודה", "תודה רבה", "יופי", "אחלה", "מעולה", "מצוין",
        "טוב", "בסדר", "הבנתי", "קיבלתי", "מגניב", "סגור",
    }
)  # fmt: skip
_ACK_EMOJI = frozenset({"👍", "👌", "🙏", "😊", "🙂", "👏", "💪", "❤", "❤️", "🆗", "✅"})
#: A laugh ("lol", "haha", "חחח", "😂"): it asks nothing, so it opens no question either.
_LAUGH_EMOJI = frozenset({"😂", "🤣", "😆", "😅", "😄", "😁", "😹"})
_LAUGH = re.compile(r"^(?:(?:ha){2,}h?|(?:he){2,}h?|(?:hi){2,}|lo+l|lmf?ao+|rofl|x+d+|ח{2,}|ח(?:ח|ה)+)$")
_ACK_PUNCT = re.compile(r"[\s.,!?;:\"'“”‘’()…~*_-]+")


def acknowledgement(text: str) -> SmallTalk | None:
    """ "thanks", "affirmation" or "laugh" for a bare acknowledgement ("ok", "👍", "thanks", "סבבה",
    "haha", "😂"), else None."""
    stripped = text.strip()
    if not stripped:
        return None
    emoji = "".join(ch for ch in stripped if not ch.isspace()).replace("\ufe0f", "")
    if emoji and all(ch in _LAUGH_EMOJI for ch in emoji):
        return "laugh"
    if emoji and all(ch in _ACK_EMOJI or ch == "\u2764" for ch in emoji):
        return "affirmation"
    words = " ".join(_ACK_PUNCT.sub(" ", stripped.casefold()).split())
    if words and all(_LAUGH.match(w) or set(w.replace("\ufe0f", "")) <= _LAUGH_EMOJI for w in words.split()):
        return "laugh"
    if words not in _ACKNOWLEDGEMENTS:
        return None
    return "thanks" if dict(_PATTERNS)["thanks"].search(words) else "affirmation"


def unsupported_type(language: Language) -> str:
    if language == "he":
        return "כרגע אני קורא רק הודעות טקסט 🙏 אפשר לכתוב לי את זה במילים?"
    return "For now I can only read text messages 🙏 Could you type that for me?"


def turn_failed(language: Language) -> str:
    """A message whose turn kept failing: said once, instead of silence (nothing was done)."""
    if language == "he":
        return "סליחה, משהו השתבש אצלי ולא הצלחתי לטפל בהודעה הזאת 😕 לא עשיתי כלום. אפשר לשלוח אותה שוב?"
    return "Sorry, something went wrong on my side and I couldn't handle that message 😕 I haven't done anything. Could you send it again?"


def file_not_kept(language: Language) -> str:
    """A picture or a file asked to be saved: Memo keeps words only."""
    if language == "he":
        return "קבצים ותמונות אני עוד לא יכול לשמור 🙏"
    return "I can't keep files or pictures yet 🙏"


def other_language() -> str:
    """A message in a language Memo does not read: one short answer, in both languages it reads."""
    return (
        "Sorry, I only read English and Hebrew 🙏 Could you write to me in one of them?\n"
        "סליחה, אני קורא רק עברית ואנגלית 🙏 אפשר לכתוב לי באחת מהן?"
    )


def not_understood(language: Language) -> str:
    if language == "he":
        return "לא בטוח שהבנתי 🤔 " + _CAPABILITIES["he"]
    return "I'm not sure I understood 🤔 " + _CAPABILITIES["en"]
