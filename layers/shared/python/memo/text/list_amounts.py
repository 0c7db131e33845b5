"""A list item's amount and the thing it is of: "2 milk", "6 eggs", "a dozen eggs", "3 bottles of
water", "2 ליטר חלב", "שני לחמים" -> (True, the thing). Two items are the same thing when their things
are, whatever their amounts ("milk" and "2 milk"): the list then holds one line of it."""

from __future__ import annotations

import re

from memo.text.bilingual import has_hebrew
from memo.text.matching import normalize

_EN_NUMBERS = (
    r"\d+(?:[.,]\d+)?|an?\s+dozen|dozen|half\s+an?|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve|a\s+couple\s+of|a\s+few"
)
_EN_UNITS = (
    r"kg|kgs|kilos?|g|grams?|lbs?|pounds?|l|liters?|litres?|ml|packs?|packets?|bottles?|boxes?|cans?|"
    r"cartons?|bags?|jars?|loaves|loaf|bunch(?:es)?|dozen|pieces?|units?|rolls?|tubs?"
)
_HE_NUMBERS = (
    r"\d+(?:[.,]\d+)?|שני|שתי|שלוש|שלושה|ארבע|ארבעה|חמש|חמישה|שש|שישה|שבע|שבעה|שמונה|תשע|תשעה|עשר|עשרה|"
    r"תריסר|חצי"
)
_HE_UNITS = (
    r"ק\"ג|ק״ג|קילו|גרם|ליטר|ליטרים|בקבוק|בקבוקים|חבילה|חבילות|קרטון|קרטונים|שקית|שקיות|קופסה|קופסאות|יחידות"
)
_EN_AMOUNT = re.compile(
    rf"^(?:{_EN_NUMBERS})(?:\s*x)?\s+(?:(?:{_EN_UNITS})\s+(?:of\s+)?)?(?P<thing>\S.*)$",
    re.I,
)
_HE_AMOUNT = re.compile(rf"^(?:{_HE_NUMBERS})\s+(?:(?:{_HE_UNITS})\s+)?(?P<thing>\S.*)$")


#: "milk x2", "חלב ×3", "eggs 2x": an amount after the thing, as a count.
_TIMES_AFTER = re.compile(r"^(?P<thing>\S.*?)\s+(?:[x×]\s*\d+|\d+\s*[x×])$", re.I)


def amount_and_thing(text: str) -> tuple[bool, str]:
    """Whether `text` says an amount, and the thing it is of (normalised for comparing)."""
    said = (_HE_AMOUNT if has_hebrew(text) else _EN_AMOUNT).match(text.strip()) or _TIMES_AFTER.match(
        text.strip()
    )
    return (True, normalize(said.group("thing"))) if said is not None else (False, normalize(text))
