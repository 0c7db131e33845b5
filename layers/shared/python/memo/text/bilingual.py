"""Everyday words of reminders, notes and lists in English and Hebrew, so that a target said in one
language finds an item titled in the other: "תמחק את הבנק" finds “call the bank”, "delete the mom
reminder" finds „להתקשר לאמא”.

The words are few and plain on purpose (people, errands, home, health): a word with two everyday
meanings in one language ("ספר" is a book and a barber, "דוד" an uncle and a name) is left out. A
phrase is crossed only when every one of its content words is known, so a half-translated phrase
never scores against a title (`memo.text.matching.score`).
"""

from __future__ import annotations

import re

#: (English, Hebrew) pairs; several English words may share one Hebrew word and the other way round.
PAIRS: tuple[tuple[str, str], ...] = (
    # people
    ("mom", "אמא"),
    ("mother", "אמא"),
    ("dad", "אבא"),
    ("father", "אבא"),
    ("grandma", "סבתא"),
    ("grandmother", "סבתא"),
    ("grandpa", "סבא"),
    ("grandfather", "סבא"),
    ("sister", "אחות"),
    ("kids", "ילדים"),
    ("children", "ילדים"),
    ("boss", "בוס"),
    ("neighbor", "שכן"),
    ("neighbour", "שכן"),
    ("teacher", "מורה"),
    ("lawyer", "עורך דין"),
    ("accountant", "רואה חשבון"),
    ("plumber", "אינסטלטור"),
    ("electrician", "חשמלאי"),
    ("vet", "וטרינר"),
    # health
    ("dentist", "רופא שיניים"),
    ("doctor", "רופא"),
    ("doctor", "רופאה"),
    ("pharmacy", "בית מרקחת"),
    ("pills", "כדורים"),
    ("pill", "כדור"),
    ("medicine", "תרופה"),
    ("medicine", "תרופות"),
    ("meds", "תרופות"),
    ("vitamins", "ויטמינים"),
    ("gym", "חדר כושר"),
    ("haircut", "תספורת"),
    ("appointment", "תור"),
    # errands and bills
    ("bank", "בנק"),
    ("rent", "שכר דירה"),
    ("bill", "חשבון"),
    ("bills", "חשבונות"),
    ("electricity", "חשמל"),
    ("water", "מים"),
    ("insurance", "ביטוח"),
    ("taxes", "מסים"),
    ("passport", "דרכון"),
    ("package", "חבילה"),
    ("parcel", "חבילה"),
    ("post office", "דואר"),
    ("car", "רכב"),
    ("car", "אוטו"),
    ("flight", "טיסה"),
    ("train", "רכבת"),
    ("meeting", "פגישה"),
    ("birthday", "יום הולדת"),
    ("gift", "מתנה"),
    ("present", "מתנה"),
    ("flowers", "פרחים"),
    ("party", "מסיבה"),
    ("wedding", "חתונה"),
    ("homework", "שיעורי בית"),
    ("exam", "מבחן"),
    # home
    ("trash", "זבל"),
    ("garbage", "זבל"),
    ("laundry", "כביסה"),
    ("dishes", "כלים"),
    ("plants", "עציצים"),
    ("plants", "צמחים"),
    ("dog", "כלב"),
    ("cat", "חתול"),
    ("windows", "חלונות"),
    ("keys", "מפתחות"),
    ("groceries", "קניות"),
    ("shopping", "קניות"),
    ("dinner", "ארוחת ערב"),
    ("lunch", "ארוחת צהריים"),
    ("breakfast", "ארוחת בוקר"),
    ("milk", "חלב"),
    ("bread", "לחם"),
    ("eggs", "ביצים"),
    ("coffee", "קפה"),
    # verbs of a title
    ("call", "להתקשר"),
    ("buy", "לקנות"),
    ("pay", "לשלם"),
    ("clean", "לנקות"),
    ("take", "לקחת"),
    ("book", "להזמין"),
)

#: One-letter and two-letter Hebrew prefixes a known word may carry ("לבנק", "והבנק", "שלאמא").
_HE_PREFIX = r"(?:וש|של|וה|וב|ול|ומ|לה|מה|שה|בה|[הולבמש])?"
_HEBREW = re.compile(r"[\u05D0-\u05EA]")
_LATIN = re.compile(r"[a-z]")


#: How many readings of one phrase are tried at most (a Hebrew word may have two English words).
MAX_READINGS = 8


def _table(
    pairs: tuple[tuple[str, str], ...], *, to_hebrew: bool
) -> list[tuple[re.Pattern[str], tuple[str, ...]]]:
    """(pattern of a word in the source language, its words in the other), longest phrases first."""
    rows: dict[str, list[str]] = {}
    for english, hebrew in pairs:
        source, target = (english, hebrew) if to_hebrew else (hebrew, english)
        rows.setdefault(source, []).append(target)
    ordered = sorted(rows, key=len, reverse=True)
    if to_hebrew:
        return [(re.compile(rf"(?<![\w]){re.escape(word)}(?![\w])"), tuple(rows[word])) for word in ordered]
    return [
        (re.compile(rf"(?<!\S){_HE_PREFIX}{re.escape(word)}(?!\S)"), tuple(rows[word])) for word in ordered
    ]


_TO_HEBREW = _table(PAIRS, to_hebrew=True)
_TO_ENGLISH = _table(PAIRS, to_hebrew=False)


def crossed(words: str, *, to_hebrew: bool) -> list[str]:
    """The readings of `words` (normalized) with every known word put in the other language (each
    of its words there, up to `MAX_READINGS`); unknown words stay as they are, so the caller can
    tell whether the whole phrase crossed."""
    readings = [words]
    for pattern, others in _TO_HEBREW if to_hebrew else _TO_ENGLISH:
        if not pattern.search(readings[0]):
            continue
        readings = [pattern.sub(other, reading) for reading in readings for other in others][:MAX_READINGS]
    return readings


_KNOWN = frozenset(word for pair in PAIRS for word in pair if " " not in word)


def is_known(word: str) -> bool:
    """Whether `word` (normalized, a Hebrew prefix off) is one of the words the table crosses: a
    word of the language, not a typo."""
    return word in _KNOWN


def has_hebrew(text: str) -> bool:
    return bool(_HEBREW.search(text))


def has_latin(text: str) -> bool:
    return bool(_LATIN.search(text))
