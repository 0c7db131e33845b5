"""The months' names in English and Hebrew, and the month each name (or abbreviation) says."""

from __future__ import annotations

MONTHS_EN = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
             "October", "November", "December")  # fmt: skip
MONTHS_HE = ("ינואר", "פברואר", "מרץ", "אפריל", "מאי", "יוני", "יולי", "אוגוסט", "ספטמבר", "אוקטובר",
             "נובמבר", "דצמבר")  # fmt: skip
_ABBREVIATIONS = {"sept": 9, **{name[:3].lower(): n for n, name in enumerate(MONTHS_EN, start=1)}}

#: Every way a month is written -> its number: "january", "jan", "sept", "ינואר", "מרס" (lower case).
MONTH_NUMBERS: dict[str, int] = {
    **{name.lower(): n for n, name in enumerate(MONTHS_EN, start=1)},
    **_ABBREVIATIONS,
    **{name: n for n, name in enumerate(MONTHS_HE, start=1)},
    "מרס": 3,
}


def month_names(*, hebrew: bool) -> str:
    """A regex alternation of the month names of one language, longest first."""
    names = [n for n in MONTH_NUMBERS if n.isascii() != hebrew]
    return "|".join(sorted(names, key=len, reverse=True))
