"""Skipping times of a repeating reminder: its next time ("skip the gym this time", "skip the next
one", "תדלג על הפעם הבאה"), or each of its times on the days the words name ("skip next week",
"skip the gym this week", "don't remind me about the gym next week", "no gym next week", "pause
the gym reminders for two weeks", "cancel the dentist tomorrow", "אל תזכיר לי על החדר כושר בשבוע הבא"). A delete
scoped to the reminder's occurrence: a one-time reminder due on those days is deleted.

Words that are a skip only with days ("don't remind me about X", "pause X", "cancel X") are no skip
without them; days said in another clause of the message count ("I'm on vacation next week, skip
the gym"). Which reminder, and whether it comes on those days, is entity resolution's
(`memo.resolution.recurring.coming_within`).
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from zoneinfo import ZoneInfo

from memo.planner.base import PlannerInput
from memo.planner.intents.reminder_changes import one_dropped
from memo.planner.intents.reminder_queries import days_named
from memo.planner.lexicon import NOTE_EN, NOTE_HE, REMINDER_EN, REMINDER_HE, as_title, clean
from memo.planner.match import CONFIDENT, REFERENTIAL, Match, latest_action, target_constraints
from memo.planner.when.days import take_day
from memo.planner.when.periods import month_period
from memo.planner.when.scan import Scan

#: (pattern, days needed): "skip ..." / "תדלג על ..." is a skip of the next time without days;
#: the others are a skip only when the words name days.
_RE_SKIP: tuple[tuple[re.Pattern[str], bool], ...] = (
    (re.compile(r"^(?:skip|miss)\s+(?P<rest>.+?)\s*[.!]*$", re.I), False),
    (re.compile(r"^(?:תדלג|תדלגי|דלג|דלגי)\s+(?:לי\s+)?(?:על\s+)?(?P<rest>.+?)\s*[.!]*$"), False),
    (
        re.compile(
            r"^(?:don'?t|do\s+not|no\s+need\s+to)\s+remind\s+me\s+(?:about\s+|to\s+|of\s+)?(?P<rest>.+?)\s*[.!]*$",
            re.I,
        ),
        True,
    ),
    (re.compile(r"^(?:pause|hold|cancel|delete)\s+(?P<rest>.+?)\s*[.!]*$", re.I), True),
    # "no gym next week", "no more gym for two weeks", "without the gym until the 10th"
    # ("no wait, tomorrow", "no no, friday" are corrections, never a skip of "wait")
    (
        re.compile(r"^(?:no(?:\s+more)?|without)\s+(?!(?:wait|no|hold\s+on)\b)(?P<rest>.+?)\s*[.!]*$", re.I),
        True,
    ),
    (re.compile(r"^(?:בלי|ללא)\s+(?P<rest>.+?)\s*[.!]*$"), True),
    (re.compile(r"^אל\s+(?:תזכיר|תזכירי)\s+לי\s+(?:על\s+|ל)?(?P<rest>.+?)\s*[.!]*$"), True),
    (
        re.compile(
            r"^(?:תבטל|תבטלי|בטל|תמחק|תמחקי|מחק|תשהה|תשהי)\s+(?:לי\s+)?(?:את\s+)?(?P<rest>.+?)\s*[.!]*$"
        ),
        True,
    ),
)
#: What days alone cannot make a skip of: all of them, a note or a list ("delete all my reminders
#: tomorrow", "delete the note from yesterday", "remove milk from the list").
_NOT_ONE_REMINDER = re.compile(
    rf"^(?:all|every|everything|כל|כול|הכל|הכול|כולם|כולן)(?=\s|$)|\b(?:{NOTE_EN}|lists?)\b|(?:{NOTE_HE}|רשימ)",
    re.I,
)
_NEXT_ONE = re.compile(
    r"\b(?:(?:just|only)\s+)?(?:next\s+time|this\s+time|it|that|this(?:\s+one)?|the\s+next(?:\s+one)?|once|one)\b"
    r"|(?:ב)?(?:ה)?פעם(?:\s+ה?באה|\s+הזאת|\s+הזו)?|(?:את\s+)?(?:זה|זאת)(?=\s|$)",
    re.I,
)
_SKIP_LEFTOVERS = re.compile(r"(?:^|\s)(?:['’]s|the|my|on|for|of|של)(?=\s|$)", re.I)

#: A clause of its own after the skip ("skip the gym, I'll go tomorrow instead"): not the skip's.
_THEN_SAID = re.compile(
    r"\s*[,;.]\s*(?:i|i'm|im|i'll|i've|i\s+am|we|we're|because|since|cause|אני|אנחנו|כי|בגלל)(?=\s|$).*$",
    re.I,
)
_DAYS_OWN = re.compile(
    r"\b(week|month|year|weekend|tomorrow|today|tonight|(?:mon|tues|wednes|thurs|fri|satur|sun)day)['’]s\b",
    re.I,
)
_WEEK = re.compile(r"\b(?:this|next)\s+week\b|שבוע", re.I)
_COUNTS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
#: "for two weeks", "for the next 10 days", "לשבועיים", "לשבוע", "ל-3 ימים": from today on.
_FOR = re.compile(
    r"\bfor\s+(?:the\s+)?(?:next\s+|coming\s+)?(?P<n>\d{1,2}|a|one|two|three|four|five|six)\s+(?P<unit>day|week)s?\b"
    r"|(?:^|\s)ל(?:-|\s)?(?P<he_n>\d{1,2})\s+(?P<he_unit>ימים|שבועות)(?=\s|$)"
    r"|(?:^|\s)ל(?P<he_word>יום|יומיים|שבוע|שבועיים)(?=\s|$)",
    re.I,
)
_HE_SPANS = {"יום": 1, "יומיים": 2, "שבוע": 7, "שבועיים": 14}
#: "until december 10", "till friday", "עד יום שישי": from today through that day.
_UNTIL = re.compile(r"\b(?:until|till|til|through)\s+(?P<day>.+)$|(?:^|\s)עד\s+(?P<he_day>.+)$", re.I)


#: A reminder named by nothing but its day ("delete tomorrow's reminder", "תמחק את התזכורת של מחר").
_THE_REMINDER = re.compile(r"(?:(?:the|my)\s+)?reminder|(?:את\s+)?ה?תזכורת(?:\s+של)?", re.I)


def skip(text: str, inp: PlannerInput) -> Match | None:
    for pattern, days_needed in _RE_SKIP:
        match = pattern.search(text)
        if match is None:
            continue
        rest = _DAYS_OWN.sub(
            r"\1", _THEN_SAID.sub("", match.group("rest"))
        )  # "next week's gym": next week, the gym
        if days_needed and (not _names_days(rest, inp) or _NOT_ONE_REMINDER.search(rest)):
            continue  # "cancel the 6pm one", "delete everything tomorrow": no skip
        within, words = _days_of(rest, inp)
        if days_needed and _THE_REMINDER.fullmatch(clean(words)):
            # "delete tomorrow's reminder": the reminders of that day, shown and approved as a
            # "delete my reminders for tomorrow" is, never the latest one's time that day.
            return _of_the_day(clean(_THE_REMINDER.sub(" ", rest)))
        before = _before(text, inp.message)
        if not within and not days_needed and _names_days(before, inp):
            # "I'm on vacation next week, skip the gym": days said in the clause before the skip
            # (not after it: "skip the gym, I'll go tomorrow" is no skip of tomorrow).
            within = _days_of(before, inp)[0]
        return _skip_match(words, within, inp)
    return None


def _of_the_day(day: str) -> Match:
    return Match(
        capability="reminders",
        action="delete_all",
        confidence=CONFIDENT,
        risk="high",
        constraints={"only": day},
        needs_approval=True,
        pattern="delete_all",
    )


#: "the next two", "the next 3 times", "twice", "3 times", "פעמיים", "3 פעמים", "שתי הפעמים הבאות":
#: how many of its next times a skip takes.
_TIMES = re.compile(
    r"\b(?:the\s+)?next\s+(?P<n>two|three|four|five|[2-9])(?:\s+times)?(?:\s+of)?\b"
    r"|\b(?P<n2>twice|two\s+times|three\s+times|[2-9]\s+times)\b"
    r"|(?:^|(?<=\s))(?:את\s+)?(?P<he>פעמיים|(?:שתי|שלוש|ארבע|[2-9])\s+(?:ה)?פעמים(?:\s+ה?באות)?)(?:\s+של)?(?=\s|$)",
    re.I,
)
_COUNT_WORDS = {
    "two": 2,
    "twice": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "פעמיים": 2,
    "שתי": 2,
    "שלוש": 3,
    "ארבע": 4,
}


def _times_said(words: str) -> tuple[int | None, str]:
    """How many next times a skip names ("skip the next two vitamins": 2), and the words without
    them; None for one (its next time, as a skip is)."""
    found = _TIMES.search(words)
    if found is None:
        return None, words
    said = (found.group("n") or found.group("n2") or found.group("he")).lower().split()[0]
    n = int(said) if said.isdigit() else _COUNT_WORDS.get(said, 0)
    return (n if n >= 2 else None), words[: found.start()] + " " + words[found.end() :]


def _skip_match(words: str, within: dict[str, str], inp: PlannerInput) -> Match | None:
    times, words = _times_said(words) if not within else (None, words)
    words = re.sub(rf"\b{REMINDER_EN}\b|{REMINDER_HE}", " ", _NEXT_ONE.sub(" ", words), flags=re.I)
    # "skip tomorrow's", "skip the one on friday": what is left of the day's words is no name.
    words = _SKIP_LEFTOVERS.sub(" ", words)
    target = as_title(one_dropped(clean(words)))
    constraints: dict[str, object] = {"scope": "occurrence"}
    if within:
        constraints["within"] = within
    if times is not None:
        constraints["times"] = times  # its next `times` times (entity resolution finds their days)
    if target:
        found, missing, confidence = target_constraints(target, inp, "reminders")
        constraints = {**found, **constraints}
    else:
        # "skip next week": the reminder just made or named.
        if latest_action(inp, "reminders") is None:
            return None
        constraints = {"targetRef": "latest_action", **constraints}
        missing, confidence = (), REFERENTIAL
    return Match(
        capability="reminders",
        action="delete",
        confidence=confidence,
        risk="high",
        constraints=constraints,
        missing=tuple(missing),
        pattern="reminders:skip",
    )


def _days_of(text: str, inp: PlannerInput) -> tuple[dict[str, str], str]:
    """The days words name, as {"from", "until"} (the end excluded), and the words without them:
    a stretch from today ("for two weeks", "until december 10"), or the days `days_named` reads."""
    today = inp.now.astimezone(ZoneInfo(inp.timezone)).date()
    spans = _FOR.search(text)
    if spans is not None:
        return _from_today(today, _span_days(spans)), clean(text[: spans.start()] + " " + text[spans.end() :])
    until = _UNTIL.search(text)
    if until is not None:
        # "until friday" (through it), "through next week" (to its end), "עד סוף החודש".
        named, _ = days_named(until.group("day") or until.group("he_day") or "", inp)
        end = date.fromisoformat(named["until"]) if named else None
        if end is not None and today < end:  # past a year: refused when resolved
            return _from_today(today, (end - today).days), clean(text[: until.start()])
    return days_named(text, inp)


def _before(clause: str, message: str) -> str:
    """What the message says before the clause ("" when the clause starts it, or is not found)."""
    at = message.casefold().find(" ".join(clause.split()[:3]).casefold())
    return message[:at] if at > 0 else ""


def _names_days(text: str, inp: PlannerInput) -> bool:
    """Whether `text` names days (a day, a week, a month, a stretch), not only a time of day ("the
    6pm one" names none)."""
    if _FOR.search(text) or _UNTIL.search(text) or _WEEK.search(text):
        return True
    now_local = inp.now.astimezone(ZoneInfo(inp.timezone))
    if month_period(text, now_local.date()) is not None:
        return True
    found = take_day(
        Scan(text), now_local=now_local, language=inp.language, timezone=inp.timezone, repeating=False
    )
    return found.day is not None


def _span_days(found: re.Match[str]) -> int:
    if found.group("he_word"):
        return _HE_SPANS[found.group("he_word")]
    n, unit = found.group("n") or found.group("he_n"), found.group("unit") or found.group("he_unit")
    count = int(n) if n.isdigit() else _COUNTS[n.lower()]
    return count * (7 if unit.lower() in ("week", "שבועות") else 1)


def _from_today(today: date, days: int) -> dict[str, str]:
    return {"from": today.isoformat(), "until": (today + timedelta(days=max(days, 1))).isoformat()}
