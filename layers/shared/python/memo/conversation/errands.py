"""Errands Memo cannot run for anyone: booking, reserving, ordering, buying, paying ("book me a
table for 2 at 8 tonight", "order pizza", "can you call an uber", "pay my electricity bill",
"תזמין לי מונית לשש", "תקנה לי כרטיסים"). An appointment ("book a doctor's appointment", "תקבע לי תור
לרופא") is the calendar's, not an errand. The planner reads them as not understood (a time in
them is the errand's, never a reminder's); the turn answers them with what Memo can do instead: a
reminder to do it, never one set without being asked."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memo.text.language import Language
from memo.text.wording import quote

_ERRAND_EN = re.compile(
    r"^(?:(?:can|could|would|will)\s+you\s+|please\s+|pls\s+)*(?P<verb>book|reserve|order|hail|get|call|buy|make|pay|send)"
    r"\s+(?P<for>(?:me|us)\s+)?(?P<det>a\s+|an\s+|the\s+|some\s+|my\s+|our\s+)?(?:\d+\s+)?"
    r"(?P<kind>(?:electricity|water|gas|phone|internet|concert|movie|train|plane|bus)\s+)?"
    r"(?P<thing>table|reservation|flights?|hotel|room|taxi|cab|uber|lyft|ride|tickets?|pizza|food|"
    r"dinner|lunch|breakfast|sushi|burgers?|delivery|takeout|takeaway|groceries|flowers|bills?|spot\s+at|seats?|"
    r"car\s+rental|rental\s+car)\b",
    re.I,
)
#: Verbs that are an errand only with some things ("call an uber", not "call mom"; "pay the bill",
#: not "pay attention"), or only when asked for someone ("buy me tickets": "buy tickets" is a list item).
_EN_ONLY_WITH = {
    "call": frozenset({"taxi", "cab", "uber", "lyft", "ride"}),
    "make": frozenset({"reservation"}),
    "pay": frozenset({"bill", "bills"}),
    "send": frozenset({"flowers"}),
}
_EN_FOR_SOMEONE = frozenset({"buy"})
#: Things that are an errand only with some verbs ("get the bill" at a restaurant is no errand).
_EN_THING_WITH = {
    "bill": frozenset({"pay"}),
    "bills": frozenset({"pay"}),
    "flowers": frozenset({"send", "order", "buy"}),
    "groceries": frozenset({"order", "buy", "get"}),
}
_ERRAND_HE = re.compile(
    r"^(?:אפשר\s+)?(?P<verb>תזמין|תזמיני|הזמן|להזמין|תקנה|תקני|קנה|לקנות|תשלם|תשלמי|שלם|לשלם)"
    r"\s+(?P<for>(?:לי|לנו)\s+)?(?:את\s+)?(?P<thing>(?:ה)?(?:שולחן|מקום|טיסה|טיסות|מלון|חדר|מונית|פיצה|אוכל|משלוח|"
    r"כרטיס|כרטיסים|סושי|ארוחה|רכב|אובר|גט|פרחים|חשבון))(?=\s|$|[,.!?])"
)
#: The Hebrew verbs by their infinitive, and the things each is an errand with (None: any).
_HE_VERBS: dict[str, tuple[str, frozenset[str] | None]] = {
    **dict.fromkeys(("תזמין", "תזמיני", "הזמן", "להזמין"), ("להזמין", None)),
    **dict.fromkeys(("תקנה", "תקני", "קנה", "לקנות"), ("לקנות", frozenset({"כרטיס", "כרטיסים", "פרחים"}))),
    **dict.fromkeys(("תשלם", "תשלמי", "שלם", "לשלם"), ("לשלם", frozenset({"חשבון"}))),
}
#: What the thing is called after a verb ("book a table", "order pizza"): an article where English
#: takes one.
_UNCOUNTED = frozenset(
    {"food", "pizza", "sushi", "delivery", "takeout", "takeaway", "dinner", "lunch", "breakfast", "groceries"}
)


@dataclass(frozen=True)
class Errand:
    """ "book a table": the errand in the words of a reminder to do it."""

    what: str
    language: Language


def errand(text: str) -> Errand | None:
    """The errand a whole message asks Memo to run, or None."""
    cleaned = " ".join(text.strip().rstrip("?!.").split())
    return _english(cleaned) or _hebrew(cleaned)


def _english(text: str) -> Errand | None:
    found = _ERRAND_EN.match(text)
    if found is None:
        return None
    verb, thing = found.group("verb").lower(), found.group("thing").lower()
    if thing not in _EN_ONLY_WITH.get(verb, {thing}) or verb not in _EN_THING_WITH.get(thing, {verb}):
        return None
    if verb in _EN_FOR_SOMEONE and not found.group("for"):
        return None
    verb = "get" if verb == "hail" else verb
    kind = (found.group("kind") or "").lower()
    said = (found.group("det") or "").strip().lower()
    if thing in _UNCOUNTED or thing.endswith("s"):
        article = ""
    elif said in ("my", "our", "the"):
        article = "the "  # "pay my electricity bill": "pay the electricity bill"
    else:
        article = "an " if (kind or thing)[0] in "aeiou" else "a "
    return Errand(f"{verb} {article}{kind}{thing}", "en")


def _hebrew(text: str) -> Errand | None:
    found = _ERRAND_HE.match(text)
    if found is None:
        return None
    infinitive, things = _HE_VERBS[found.group("verb")]
    thing = found.group("thing")
    if things is not None and thing.removeprefix("ה") not in things:
        return None
    if infinitive == "לקנות" and not found.group("for"):
        return None  # "תקנה כרטיסים" may be a list item; "תקנה לי כרטיסים" is asked of Memo
    return Errand(f"{infinitive} {thing}", "he")


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
