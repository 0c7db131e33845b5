"""A reminder moved from the time it is at to another: "move the 3pm reminder to 4pm", "move my 9am
to 10", "move the dentist from 3 to 4", "move the 3pm water to 3:30", "move tomorrow's 3pm to 5".

The words after the last "to" are the new time, alone; the words before it name the reminder by
its time (and its title, when they have one). Read as one phrase, "the 3pm reminder to 4pm" was the
reminder "4pm" moved to 15:00, and "from 3 to 4" was 15:57 (three minutes to four). When the words
before "to" say no time, this matcher leaves the message to `memo.planner.intents.reminder_changes`.
"""

from __future__ import annotations

import re

from memo.planner.base import PlannerInput
from memo.planner.intents.reminder_changes import moved_reminder, one_dropped, strip_scope
from memo.planner.lexicon import MOVE_HE, REMINDER_EN, REMINDER_HE, as_title, clean, has_hebrew
from memo.planner.match import Match, is_ref, latest_action, parse_when
from memo.planner.timeparse import ParsedWhen

#: The move verbs ("make it from 10 to 6" is more often the hours of a repeating reminder).
_MOVE = re.compile(
    r"^(?:move|reschedule|push|postpone|delay|shift|change|update|bring)\s+(?P<rest>\S.*)$", re.I
)
_MOVE_HE = re.compile(rf"^(?:{MOVE_HE})\s+(?:לי\s+)?(?:את\s+)?(?P<rest>\S.*)$")
#: "to" before the new time: "to 4pm", "ל-16:00", "לשעה 4", "ל4".
_TO = re.compile(r"\s+(?:to|till|until|->|→)\s+|\s+ל(?:-|שעה\s+)?(?=\d)", re.I)
_FROM = re.compile(r"^(?P<which>.*?)\s*(?:\bfrom\s+|(?<!\S)מ(?:-|שעה\s+)?(?=\d))(?P<at>\S.*)$", re.I)
#: "4", "10:30": an hour said without am/pm is a time of day after "to" and "from".
_BARE_HOUR = re.compile(r"^(?:1[0-2]|0?\d|1[3-9]|2[0-3])(?::[0-5]\d)?$")
_NOT_A_NAME = re.compile(
    rf"\b(?:{REMINDER_EN}|one)\b|['’]s\b|(?<!\S){REMINDER_HE}(?!\S)|(?<!\S)של(?!\S)", re.I
)
#: The most words a new time takes ("next tuesday at 5:30 pm"): a "to" further back is no time's.
_LONGEST_TIME = 6
_ITS_HOURS = re.compile(r"\b(?:hours?|times?|window)\b|שעות", re.I)
#: Words at either end of the name that are no part of it: "the", "my", "at".
_EDGES = re.compile(r"^(?:(?:the|my|our|a|an|at|on|of|for)\b\s*)+|(?:\s+\b(?:the|my|at|on|of|for))+$", re.I)


def from_to(text: str, inp: PlannerInput) -> Match | None:
    move = _MOVE.match(text) or _MOVE_HE.match(text)
    if move is None:
        return None
    rest = strip_scope(move.group("rest"))
    if parse_when(rest, inp).recurrence is not None:
        return None  # "change it to every hour from 10 to 6": the hours of a repetition
    for to in reversed(list(_TO.finditer(rest))):
        if len(rest[to.end() :].split()) > _LONGEST_TIME:
            return None  # the words after this "to" are more than a time (and so after each before it)
        new = _a_time(rest[to.end() :], inp)
        if new is None:
            continue
        which = _which(rest[: to.start()], inp)
        return (
            None
            if which is None
            else moved_reminder(text, which, dict(new.change()), inp, "reminders:update")
        )
    return None


def _which(words: str, inp: PlannerInput) -> str | None:
    """The reminder `words` name by its time, as a target: its time words, then its title words
    ("3pm water", "3pm"); None when they say no time."""
    said = _FROM.match(words)
    if said is not None and _a_time(said.group("at"), inp) is not None:
        at, title = said.group("at"), said.group("which")
    else:
        parsed = parse_when(words, inp)
        if not parsed.named_time or parsed.problem is not None or not parsed.fragments:
            return None  # "move monday's meeting to 11pm": a day alone is where it goes
        at, title = " ".join(parsed.fragments), parsed.remainder
    title = as_title(one_dropped(clean(_EDGES.sub("", _NOT_A_NAME.sub(" ", title).strip()))))
    if _ITS_HOURS.search(title):
        return None  # "change the hours to 10am to 6pm": the hours of a repetition, not a name
    if title and is_ref(title) and latest_action(inp, "reminders") is not None:
        return title  # "move it from 3pm to 4pm": the reminder just set
    return at if not title or is_ref(title) else f"{at} {title}"


def _a_time(words: str, inp: PlannerInput) -> ParsedWhen | None:
    """`words` as a time and nothing else ("4pm", "tomorrow", "4", "at 10:30"), or None."""
    words = clean(words)
    if _BARE_HOUR.match(words):  # "4": at 4, "ב4"
        words = f"ב{words}" if has_hebrew(inp.message) else f"at {words}"
    parsed = parse_when(words, inp)
    if not parsed.found or parsed.problem is not None or clean(parsed.remainder) or not parsed.change():
        return None
    return parsed
