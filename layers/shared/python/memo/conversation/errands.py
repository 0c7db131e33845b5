"""Errands Memo cannot run for anyone: booking, reserving, ordering ("book me a table for 2 at 8
tonight", "order pizza", "תזמין לי מונית לשש"). The planner reads them as not understood (a time in
them is the errand's, never a reminder's); the turn answers them with what Memo can do instead: a
reminder to do it, never one set without being asked."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memo.text.language import Language
from memo.text.wording import quote

_ERRAND_EN = re.compile(
    r"^(?:(?:can|could|would|will)\s+you\s+|please\s+|pls\s+)*(?P<verb>book|reserve|order|hail|get)\s+(?:me\s+|us\s+)?"
    r"(?:a\s+|an\s+|the\s+|some\s+|my\s+|our\s+)?(?:\d+\s+)?(?P<thing>table|reservation|flights?|hotel|room|taxi|cab|"
    r"uber|lyft|ride|tickets?|pizza|food|dinner|lunch|breakfast|sushi|burgers?|delivery|takeout|takeaway|"
    r"spot\s+at|seats?|car\s+rental|rental\s+car)\b",
    re.I,
)
_ERRAND_HE = re.compile(
    r"^(?:אפשר\s+)?(?:תזמין|תזמיני|הזמן|להזמין)\s+(?:לי\s+|לנו\s+)?(?:את\s+)?(?P<thing>(?:ה)?(?:שולחן|מקום|טיסה|טיסות|"
    r"מלון|חדר|מונית|פיצה|אוכל|משלוח|כרטיס|כרטיסים|סושי|ארוחה|רכב|אובר|גט))(?=\s|$|[,.!?])"
)
#: What the thing is called after a verb ("book a table", "order pizza"): an article where English
#: takes one.
_UNCOUNTED = frozenset(
    {"food", "pizza", "sushi", "delivery", "takeout", "takeaway", "dinner", "lunch", "breakfast"}
)


@dataclass(frozen=True)
class Errand:
    """ "book a table": the errand in the words of a reminder to do it."""

    what: str
    language: Language


def errand(text: str) -> Errand | None:
    """The errand a whole message asks Memo to run, or None."""
    cleaned = " ".join(text.strip().rstrip("?!.").split())
    found = _ERRAND_EN.match(cleaned)
    if found is not None:
        verb, thing = found.group("verb").lower(), found.group("thing").lower()
        verb = "get" if verb == "hail" else verb
        article = (
            "" if thing in _UNCOUNTED or thing.endswith("s") else ("an " if thing[0] in "aeiou" else "a ")
        )
        return Errand(f"{verb} {article}{thing}", "en")
    found = _ERRAND_HE.match(cleaned)
    if found is not None:
        return Errand(f"להזמין {found.group('thing')}", "he")
    return None


def refusal(found: Errand, language: Language) -> str:
    """I can't run it; I can remind you to (what to write for that)."""
    if language == "he":
        ask = quote(f"תזכיר לי {found.what} בעוד שעה" if found.language == "he" else "תזכיר לי להזמין", "he")
        return f"את זה אני לא יכול לעשות בשבילך — אני מטפל בתזכורות, פתקים ורשימות. אבל אפשר לבקש תזכורת לעשות את זה, למשל {ask}."
    ask = quote(
        f"remind me to {found.what} in an hour" if found.language == "en" else "remind me to book it", "en"
    )
    return (
        "That's something I can't do for you — I handle reminders, notes and lists. "
        f"I can remind you to do it, though: e.g. {ask}."
    )
