"""Items named by their place in a list Memo showed: "the first one", "the last", "first and third",
"הראשונה והאחרונה" (`ordinals`), and a run at one end of it: "the first two", "the last 3", "שתי
הראשונות" (`run`). Places are 1-based; a place past the items shown names nothing.

Read by the answers that pick from a shown list: the choice of several items (`memo.hitl.fastpath`)
and the narrowing of an approval to some of its items (`memo.hitl.narrowing`).
"""

from __future__ import annotations

import re

#: "the first one", "the last", "הראשונה": the place in the shown list.
_ORDINALS = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
    "fifth": 5, "5th": 5, "הראשון": 1, "הראשונה": 1, "ראשון": 1, "ראשונה": 1, "השני": 2, "השנייה": 2,
    "השניה": 2, "שני": 2, "שנייה": 2, "השלישי": 3, "השלישית": 3, "שלישי": 3, "שלישית": 3,
    "הרביעי": 4, "הרביעית": 4, "החמישי": 5, "החמישית": 5,
}  # fmt: skip
_LAST = frozenset({"last", "האחרון", "האחרונה", "אחרון", "אחרונה"})


def _place(word: str, count: int) -> int | None:
    if word in _LAST:
        return count
    place = _ORDINALS.get(word)
    return place if place is not None and place <= count else None


def ordinals(words: str, count: int) -> list[int] | None:
    """The places the words name ("first", "first and last", "השנייה"); None when a word is no place."""
    places: list[int] = []
    for word in words.split():
        place = _place(word, count)
        if place is None and word.startswith("ו"):
            place = _place(word[1:], count)  # "והאחרונה": and the last
        if place is None:
            return None
        places.append(place)
    return list(dict.fromkeys(places)) or None


#: "the first two", "the last 3", "שתי הראשונות", "3 האחרונים": a run at one end of the shown list.
_RUN = re.compile(
    r"^(?:the\s+)?(?P<end>first|last|top|bottom)\s+(?P<n>two|three|four|five|\d{1,2})(?:\s+ones?)?$"
    r"|^(?:את\s+)?(?P<hn>שתי|שני|ה?שניים|ה?שתיים|שלוש|שלושת|ה?שלושה|ארבע|ארבעת|\d{1,2})\s+"
    r"(?P<hend>הראשונות|הראשונים|האחרונות|האחרונים)$"
)
_RUN_COUNTS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "שתי": 2, "שני": 2, "שלוש": 3, "שלושת": 3, "ארבע": 4, "ארבעת": 4,
    "שניים": 2, "השניים": 2, "שתיים": 2, "השתיים": 2, "שלושה": 3, "השלושה": 3,
}  # fmt: skip


def run(text: str, count: int) -> list[int] | None:
    """The places of "the first two" / "the last 3" / "שתי הראשונות" (`text` normalized,
    `memo.hitl.fastpath.normalize`); None when not such words or more than are shown."""
    found = _RUN.match(text)
    if found is None:
        return None
    raw = found.group("n") or found.group("hn")
    n = _RUN_COUNTS.get(raw) or int(raw)
    end = found.group("end") or found.group("hend")
    if not 1 <= n <= count:
        return None
    first = end in ("first", "top") or "ראשונ" in end
    return list(range(1, n + 1)) if first else list(range(count - n + 1, count + 1))
