"""Amounts of time said in words, as digits: "ten minutes" -> "10 minutes", "two hours" -> "2 hours",
"בעשר דקות" -> "ב10 דקות", "שלוש שעות" -> "3 שעות". Only a number word right before a unit of time
is rewritten ("ten past five" and "one more thing" stay as they are), so every reader of amounts
("push it by 10 minutes", "snooze 10 min") reads the words the same as the digits."""

from __future__ import annotations

import re

EN_AMOUNT_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "twenty-five": 25, "twenty five": 25,
    "thirty": 30, "forty": 40, "forty-five": 45, "forty five": 45, "fifty": 50, "sixty": 60, "ninety": 90,
    "a couple of": 2, "a couple": 2, "couple of": 2,
}  # fmt: skip
#: Hebrew amounts said in words before a unit: "בעוד עשר דקות", "תדחה בחמש דקות".
HE_AMOUNT_WORDS = {
    "שתי": 2, "שני": 2, "שלוש": 3, "ארבע": 4, "חמש": 5, "שש": 6, "שבע": 7, "שמונה": 8, "תשע": 9, "עשר": 10,
    "שלושה": 3, "ארבעה": 4, "חמישה": 5, "שישה": 6, "שבעה": 7, "עשרה": 10,
    "חמש עשרה": 15, "עשרים": 20, "עשרים וחמש": 25, "שלושים": 30, "ארבעים": 40, "ארבעים וחמש": 45, "חמישים": 50,
    "כמה": 3,  # "בעוד כמה דקות": a few
}  # fmt: skip

_EN_UNIT = r"(?:more\s+)?(?:minutes?|mins?|hours?|hrs?|days?|weeks?)\b"
_EN_WORDS = re.compile(
    rf"\b(?P<n>{'|'.join(sorted(map(re.escape, EN_AMOUNT_WORDS), key=len, reverse=True))})\s+(?={_EN_UNIT})",
    re.I,
)
_HE_UNIT = r"(?:דקות|דקה|שעות|ימים|שבועות)(?=\s|$|[,.!?])"
_HE_WORDS = re.compile(
    rf"(?:(?<=\s)|^)(?P<lead>ב-?|בעוד\s+|עוד\s+|ל-?)?(?P<n>{'|'.join(sorted(HE_AMOUNT_WORDS, key=len, reverse=True))})"
    rf"\s+(?={_HE_UNIT})"
)


def amount_digits(text: str) -> str:
    """`text` with each amount of time said in words written in digits."""
    text = _EN_WORDS.sub(lambda m: f"{EN_AMOUNT_WORDS[' '.join(m.group('n').lower().split())]} ", text)
    return _HE_WORDS.sub(lambda m: f"{m.group('lead') or ''}{HE_AMOUNT_WORDS[m.group('n')]} ", text)
