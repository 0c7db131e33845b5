"""The days of a repetition in words: weekday names (English and Hebrew), the work week and the
weekend of a timezone (Sunday to Thursday, and Friday and Saturday, in Israel), and a day of the
month said as a number or an ordinal ("the 1st", "first", "בראשון לחודש")."""

from __future__ import annotations

import re

EN_WEEKDAY_WORDS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2, "weds": 2,
    "thursday": 3, "thu": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
    "sunday": 6, "sun": 6,
}  # fmt: skip
HE_WEEKDAY_WORDS = {"ראשון": 6, "שני": 0, "שלישי": 1, "רביעי": 2, "חמישי": 3, "שישי": 4, "שבת": 5}

EN_ORDINAL_DAYS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "fifteenth": 15, "twentieth": 20,
}  # fmt: skip
#: "בראשון לכל חודש", "בכל אחד לחודש": a day of the month said as a Hebrew ordinal.
HE_ORDINALS = ("ראשון", "שני", "שלישי", "רביעי", "חמישי", "שישי", "שביעי", "שמיני", "תשיעי", "עשירי")
HE_ORDINAL_DAYS = {"אחד": 1} | {word: n for n, word in enumerate(HE_ORDINALS, 1)}


def weekday_list(words: str, table: dict[str, int]) -> tuple[int, ...]:
    found: list[int] = []
    for token in re.findall(r"[^\s,&]+", words):
        key = token.lower().removeprefix("ו")
        if key.endswith("s") and key[:-1] in table:
            key = key[:-1]
        if key in table and table[key] not in found:
            found.append(table[key])
    return tuple(found)


def workweek(timezone: str) -> tuple[int, ...]:
    return (6, 0, 1, 2, 3) if timezone == "Asia/Jerusalem" else (0, 1, 2, 3, 4)


def weekend(timezone: str) -> tuple[int, ...]:
    return (4, 5) if timezone == "Asia/Jerusalem" else (5, 6)


def month_day(said: str) -> int:
    """ "1", "1st", "first", "ראשון": the day of the month said."""
    word = said.lower()
    if word in EN_ORDINAL_DAYS or word in HE_ORDINAL_DAYS:
        return EN_ORDINAL_DAYS.get(word) or HE_ORDINAL_DAYS[word]
    return int(re.sub(r"\D", "", word))
