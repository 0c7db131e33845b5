"""An item named by its place in a list Memo shows: "the first item", "the 2nd one", "item 3",
"number 2", "the last item", "the one before last", "הפריט הראשון", "את השני", "פריט 3", "האחרונה".

`position(words)` is the index the words name (0 the first, -1 the last, -2 the one before it),
or None when they name no place (a title such as "first aid kit" is a title: only the whole words
are read as a place). The order is the one Memo shows the items in: a list in the order its
items were added, reminders soonest first.
"""

from __future__ import annotations

import re

_EN_ORDINALS = {
    "first": 0,
    "1st": 0,
    "second": 1,
    "2nd": 1,
    "third": 2,
    "3rd": 2,
    "fourth": 3,
    "4th": 3,
    "fifth": 4,
    "5th": 4,
    "sixth": 5,
    "6th": 5,
    "seventh": 6,
    "7th": 6,
    "eighth": 7,
    "8th": 7,
    "ninth": 8,
    "9th": 8,
    "tenth": 9,
    "10th": 9,
    "last": -1,
    "second to last": -2,
    "second-to-last": -2,
    "next to last": -2,
    "one before last": -2,
    "one before the last": -2,
    "penultimate": -2,
}
# Masculine and feminine ("הפריט השני", "התזכורת השנייה"), with or without the article.
_HE_ORDINALS = {
    "ראשון": 0,
    "ראשונה": 0,
    "שני": 1,
    "שנייה": 1,
    "שניה": 1,
    "שלישי": 2,
    "שלישית": 2,
    "רביעי": 3,
    "רביעית": 3,
    "חמישי": 4,
    "חמישית": 4,
    "שישי": 5,
    "שישית": 5,
    "שביעי": 6,
    "שביעית": 6,
    "שמיני": 7,
    "שמינית": 7,
    "תשיעי": 8,
    "תשיעית": 8,
    "עשירי": 9,
    "עשירית": 9,
    "אחרון": -1,
    "אחרונה": -1,
}
_EN_NOUN = r"(?:one|item|thing|entry|reminder)"
_EN = re.compile(
    rf"^(?:the\s+|my\s+)?(?P<ord>{'|'.join(sorted(map(re.escape, _EN_ORDINALS), key=len, reverse=True))})"
    rf"(?:\s+{_EN_NOUN})?(?:\s+(?:on|in|from)\s+(?:the|my)\s+list)?$",
    re.IGNORECASE,
)
_EN_NUMBERED = re.compile(r"^(?:the\s+)?(?:item|number|no\.?|#)\s*(?P<n>\d{1,2})$", re.IGNORECASE)
_HE_LEAD = re.compile(r"^(?:את\s+)?(?:ה?(?:פריט|דבר|תזכורת|משימה)\s+)?")
_HE_BEFORE_LAST = re.compile(r"^(?:(?:זה|זאת|זו|ה?אחד|ה?אחת)\s+)?ש?לפני\s+ה?(?:אחרון|אחרונה)$")
_HE_NUMBERED = re.compile(r"^(?:את\s+)?(?:ה?פריט|מספר|פריט\s+מספר)\s*(?P<n>\d{1,2})$")


def position(words: str) -> int | None:
    """The place the words name (0-based; negative from the end), or None."""
    text = " ".join(words.split()).strip(" .!?,")
    if not text:
        return None
    for numbered in (_EN_NUMBERED, _HE_NUMBERED):
        found = numbered.match(text)
        if found is not None:
            n = int(found.group("n"))
            return n - 1 if n >= 1 else None
    found = _EN.match(text)
    if found is not None:
        return _EN_ORDINALS[found.group("ord").lower()]
    said = _HE_LEAD.sub("", text)
    if _HE_BEFORE_LAST.match(said):
        return -2
    # With its article only ("השני", "הפריט השני"): a bare "שני" may be a name, or Monday.
    return _HE_ORDINALS.get(said[1:]) if said.startswith("ה") else None
