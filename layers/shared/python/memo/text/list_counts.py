"""Taking some of a list line off: "remove one tomato" with "3 tomatoes" on the list leaves
"2 tomatoes", "תוריד עגבניה אחת" with "3 עגבניות" leaves "2 עגבניות".

`counted` reads how many of what a line (or the words of a removal) says: a count first ("3
tomatoes", "two bottles of water", "שתי עגבניות") or after the thing ("milk x2", "עגבניה אחת").
`left_after` is what a line becomes when the removal's count is taken off it: the line's words with
the smaller count, the whole line gone (`GONE`: no count said, or at least as many as the line
has), or `UNCLEAR` when the two do not count the same way ("one milk" off "2 liters of milk"):
then nothing is changed and the person is asked to say it again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from memo.text.bilingual import has_hebrew

_EN_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a dozen": 12, "dozen": 12,
    "a couple of": 2, "a couple": 2,
}  # fmt: skip
_HE_NUMBERS = {
    "אחד": 1, "אחת": 1, "שני": 2, "שתי": 2, "שניים": 2, "שתיים": 2, "שלוש": 3, "שלושה": 3, "ארבע": 4,
    "ארבעה": 4, "חמש": 5, "חמישה": 5, "שש": 6, "שישה": 6, "שבע": 7, "שבעה": 7, "שמונה": 8, "תשע": 9,
    "תשעה": 9, "עשר": 10, "עשרה": 10, "תריסר": 12,
}  # fmt: skip
_EN_UNITS = (
    r"kg|kgs|kilos?|g|grams?|lbs?|pounds?|l|liters?|litres?|ml|packs?|packets?|bottles?|boxes?|cans?|"
    r"cartons?|bags?|jars?|loaves|loaf|bunch(?:es)?|pieces?|units?|rolls?|tubs?|cups?|slices?"
)
_HE_UNITS = (
    r"ק\"ג|ק״ג|קילו|גרם|ליטר|ליטרים|בקבוק|בקבוקים|חבילה|חבילות|קרטון|קרטונים|שקית|שקיות|קופסה|קופסאות|"
    r"יחידה|יחידות"
)


def _alternatives(words: dict[str, int]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


_COUNT_FIRST = re.compile(
    rf"^(?P<n>\d+|{_alternatives(_EN_NUMBERS)}|{_alternatives(_HE_NUMBERS)})(?:\s*[x×])?\s+"
    rf"(?:(?P<unit>{_EN_UNITS}|{_HE_UNITS})\s+(?:of\s+)?)?(?P<thing>\S.*)$",
    re.I,
)
#: "milk x2", "eggs ×3", "עגבניה אחת", "חלב 2": the count after the thing.
_COUNT_AFTER = re.compile(
    r"^(?P<thing>\S.*?)\s+(?:[x×]\s*(?P<n>\d+)|(?P<m>\d+)\s*[x×]|(?P<he>אחד|אחת|\d+))$", re.I
)


@dataclass(frozen=True)
class Counted:
    """How many (None: no count said), in what unit (None: things counted one by one), of what (the
    words as written)."""

    count: int | None
    unit: str | None
    thing: str


def counted(text: str) -> Counted:
    """The count, unit and thing of `text` ("3 tomatoes": 3 of "tomatoes"; "2 liters of milk": 2
    "liters" of "milk"; "milk": no count)."""
    words = " ".join(text.split())
    first = _COUNT_FIRST.match(words)
    if first is not None:
        unit = first.group("unit")
        return Counted(_number(first.group("n")), unit.lower() if unit else None, first.group("thing"))
    after = _COUNT_AFTER.match(words)
    if after is not None and (after.group("he") is None or has_hebrew(after.group("thing"))):
        number = after.group("n") or after.group("m") or after.group("he")
        return Counted(_number(number), None, after.group("thing"))
    return Counted(None, None, words)


def _number(said: str) -> int:
    key = " ".join(said.lower().split())
    return int(key) if key.isdigit() else _EN_NUMBERS.get(key) or _HE_NUMBERS[key]


GONE: Final = "gone"
UNCLEAR: Final = "unclear"


def left_after(line: str, said: str) -> str:
    """What `line` becomes when the count `said` is taken off it: its words with the count left,
    `GONE` or `UNCLEAR` (see the module)."""
    off, have = counted(said), counted(line)
    if off.count is None or have.count is None:
        return GONE  # "remove milk", or "remove 2 eggs" with "eggs": the line
    if _unit(off.unit) != _unit(have.unit):
        return UNCLEAR  # "one milk" off "2 liters of milk", "a pack of eggs" off "12 eggs"
    if off.count >= have.count:
        return GONE
    left = have.count - off.count
    if have.unit is not None:
        unit = _one(have.unit) if left == 1 else have.unit
        joint = " of " if re.search(rf"\b{re.escape(have.unit)}\s+of\s", line, re.I) else " "
        return f"{left} {unit}{joint}{have.thing}"
    return f"{left} {_one(have.thing) if left == 1 else have.thing}"


def _unit(unit: str | None) -> str | None:
    return None if unit is None else _one(unit.lower())


_EN_ONE = {"loaves": "loaf", "knives": "knife", "leaves": "leaf", "halves": "half", "potatoes": "potato",
           "tomatoes": "tomato", "mangoes": "mango", "children": "child", "mice": "mouse"}  # fmt: skip
_HE_ONE = {"ביצים": "ביצה", "ליטרים": "ליטר", "בקבוקים": "בקבוק", "קרטונים": "קרטון", "שקיות": "שקית",
           "קופסאות": "קופסה", "חבילות": "חבילה", "יחידות": "יחידה", "לחמניות": "לחמנייה"}  # fmt: skip


_FINAL = str.maketrans("כמנפצ", "ךםןףץ")


def _final(word: str) -> str:
    """A Hebrew word with its last letter in its final form ("מלפפונ": "מלפפון")."""
    return word[:-1] + word[-1:].translate(_FINAL)


def _one(words: str) -> str:
    """`words` said of one: their last word in the singular ("cherry tomatoes": "cherry tomato")."""
    head, _, last = words.rpartition(" ")
    lower = last.lower()
    if lower in _EN_ONE or last in _HE_ONE:
        single = _EN_ONE.get(lower) or _HE_ONE[last]
    elif has_hebrew(last):
        single = (
            last[:-2] + "ה" if last.endswith("ות") else _final(last[:-2]) if last.endswith("ים") else last
        )
    elif re.search(r"[^aeiou]ies$", lower):
        single = last[:-3] + "y"
    elif re.search(r"(?:s|x|z|ch|sh)es$", lower):
        single = last[:-2]
    elif lower.endswith("s") and not lower.endswith(("ss", "us", "is")):
        single = last[:-1]
    else:
        single = last
    return f"{head} {single}" if head else single
