"""Changing a reminder: its title ("rename X to Y") or its time ("move X to 6", "push the dentist
by an hour"), and which part of a repeating one ("just this one", "the whole series")."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta
from zoneinfo import ZoneInfo

from memo.conversation.smalltalk import LIST_RENAME
from memo.domain import Capability
from memo.planner.base import PlannerInput
from memo.planner.intents.reminder_retitles import renamed_instead, spoken_time_last
from memo.planner.intents.reminders import TIME_PROBLEMS
from memo.planner.lexicon import (
    BARE_HOUR,
    MOVE_EN,
    MOVE_HE,
    NOTE_EN,
    REMINDER_EN,
    REMINDER_HE,
    as_title,
    clean,
    strip_lead,
    the_one_named,
)
from memo.planner.match import (
    REFERENTIAL,
    SHIFT_BY,
    SHIFT_DIRECTION_REQUIRED,
    SHIFT_NAMES,
    Match,
    is_ref,
    latest_action,
    parse_when,
    shift_of,
    target_constraints,
    unsigned_shift,
)
from memo.planner.when.offsets import HE_AMOUNT, HE_AMOUNT_WORDS
from memo.text.months import last_day_said

_RE_REMINDER_RENAME = (
    re.compile(
        rf"^(?:rename|retitle)\s+(?:the\s+|my\s+)?(?:{REMINDER_EN}\s+)?(?P<old>.*?)\s+(?:to|as|into)\s+(?P<new>.+)$",
        re.I,
    ),
    re.compile(
        rf"^(?:change|update|set)\s+(?:the\s+)?(?:title|name|text)\s+(?:of\s+)?(?:the\s+|my\s+)?(?:{REMINDER_EN}\s+)?"
        r"(?P<old>.*?)\s+(?:to|as)\s+(?P<new>.+)$",
        re.I,
    ),
    # "change the bank reminder to say call the insurance", "make it read pick up the kids"
    re.compile(
        rf"^(?:change|update|edit|make|set|fix)\s+(?:the\s+|my\s+)?(?:{REMINDER_EN}\s+)?(?P<old>.*?)"
        rf"(?:\s+{REMINDER_EN})?\s+(?:(?:to|so\s+(?:it|that\s+it))\s+)?(?:says?|reads?)\s+(?P<new>\S.*)$",
        re.I,
    ),
    re.compile(
        rf"^(?:תשנה|תשני|שנה|שני|לשנות)\s+(?:לי\s+)?(?:את\s+)?(?:{REMINDER_HE}\s*)?(?P<old>.*?)\s+"
        r"(?:כך\s+)?(?:שיהיה\s+כתוב|שיהיה\s+רשום|שייכתב|שיירשם|שתגיד|שיגיד)\s+(?P<new>\S.*)$"
    ),
    re.compile(
        rf"^(?:תשנה|תשני|שנה|לשנות)\s+(?:את\s+)?(?:ה)?(?:שם|כותרת|טקסט)\s+(?:של\s+)?(?:{REMINDER_HE}\s*)?"
        r"(?P<old>.*)\s+ל-(?P<new>\S.*)$"
    ),
    re.compile(
        rf"^(?:תשנה|תשני|שנה|לשנות)\s+(?:את\s+)?(?:ה)?(?:שם|כותרת|טקסט)\s+(?:של\s+)?(?:{REMINDER_HE}\s*)?"
        r"(?P<old>.*?)\s+ל(?P<new>\S.*)$"
    ),
)


def rename(text: str, inp: PlannerInput) -> Match | None:
    if LIST_RENAME.search(text):
        return None  # a list's name, which the small-talk answer explains
    for pattern in _RE_REMINDER_RENAME:
        match = pattern.search(text)
        if not match:
            continue
        old = strip_lead(match.group("old"), r"about|to|for|called|named|על|של")
        capability: Capability = "notes" if re.search(rf"\b(?:{NOTE_EN})\b|פתק", text, re.I) else "reminders"
        constraints, missing, confidence = target_constraints(old, inp, capability)
        return Match(
            capability=capability,
            action="update",
            confidence=confidence,
            risk="medium",
            constraints=constraints,
            changes={"title": as_title(match.group("new"))},
            missing=missing,
            pattern=f"{capability}:rename",
        )
    return None


_RE_REMINDER_MOVE = (
    re.compile(rf"^(?:{MOVE_EN})\s+(?:the\s+|my\s+)?{REMINDER_EN}\b\s*(?P<rest>.*)$", re.I),
    re.compile(rf"^(?:{MOVE_EN})\s+(?:the\s+|my\s+)?(?P<rest>.+?\s+{REMINDER_EN}\b.*)$", re.I),
    re.compile(rf"^(?:{MOVE_HE})\s+(?:לי\s+)?(?:את\s+)?{REMINDER_HE}\s*(?P<rest>.*)$"),
)


def move(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_REMINDER_MOVE:
        match = pattern.search(text)
        if not match:
            continue
        rest = re.sub(rf"\b{REMINDER_EN}\b", " ", match.group("rest"), flags=re.I)
        shift = shift_of(text.split()[0], he_amount_digits(strip_scope(rest)))
        if shift is not None:
            return _shifted(text, shift, inp)
        unsigned = unsigned_shift(text.split()[0], he_amount_digits(strip_scope(rest)))
        if unsigned is not None and as_title(unsigned[1]):
            return _which_way(text, unsigned, inp)
        rest = spoken_time_last(rest, inp)
        parsed = parse_when(strip_scope(rest), inp)
        # "change the time of the reminder to 4pm": the words about its time name no reminder.
        target = as_title(_time_words_dropped(parsed.remainder, bare=""))
        constraints, missing, confidence = target_constraints(target, inp, "reminders")
        constraints = {**constraints, **scope_of(text)}
        # A time alone keeps the reminder's day, a day alone keeps its time (in its timezone).
        changes: dict[str, object] = dict(parsed.change())
        missing_fields = list(missing)
        if parsed.problem is not None:
            missing_fields += [TIME_PROBLEMS[parsed.problem], "time_unclear"]
        elif not changes:
            renamed = renamed_instead(text, rest, inp)
            if renamed is not None:  # "change the reminder buy milk to buy oat milk"
                return moved_reminder(text, renamed[0], {"title": renamed[1]}, inp, "reminders:rename")
            missing_fields.append("time_unclear")
        return Match(
            capability="reminders",
            action="update",
            confidence=confidence,
            risk="medium",
            constraints=constraints,
            changes=changes,
            missing=tuple(missing_fields),
            pattern="reminders:update",
        )
    return None


def moved_reminder(
    text: str, target: str, changes: dict[str, object], inp: PlannerInput, pattern: str
) -> Match:
    """The reminder `target` names, given `changes` of its time (the part of a series `text` says)."""
    constraints, missing, confidence = target_constraints(target, inp, "reminders")
    return Match(
        capability="reminders",
        action="update",
        confidence=confidence,
        risk="medium",
        constraints={**constraints, **scope_of(text)},
        changes=changes,
        missing=missing,
        pattern=pattern,
    )


def _latest_moved(text: str, changes: dict[str, object], inp: PlannerInput) -> Match | None:
    """ "move only this time to 9pm", "just this once at 9": the part of a series the words say, of
    the reminder just set or named; nothing when no reminder was."""
    if latest_action(inp, "reminders") is None:
        return None
    return Match(
        capability="reminders",
        action="update",
        confidence=REFERENTIAL,
        risk="medium",
        constraints={"targetRef": "latest_action", **scope_of(text)},
        changes=changes,
        pattern="reminders:update",
    )


def _shifted(text: str, shift: tuple[int, str], inp: PlannerInput) -> Match:
    """ "push the call mom reminder by an hour": the named reminder's own time, moved."""
    minutes, before = shift
    return moved_reminder(
        text, as_title(one_dropped(before)), {"shiftMinutes": minutes}, inp, "reminders:shift"
    )


def _which_way(text: str, shift: tuple[int, str], inp: PlannerInput) -> Match:
    """ "move the dentist an hour": the named reminder, earlier or later asked (never guessed)."""
    minutes, before = shift
    target = as_title(one_dropped(before))
    found = moved_reminder(text, target, {SHIFT_BY: minutes}, inp, "reminders:shift_which_way")
    return replace(
        found,
        constraints={**found.constraints, SHIFT_NAMES: target},
        missing=(*found.missing, SHIFT_DIRECTION_REQUIRED),
    )


#: Moving a thing in time without saying "reminder": only reminders have a time ("move call mom to
#: 7pm", "push the dentist by an hour", "תדחה את הרופא שיניים בשעה"). "change"/"set"/"make" are
#: left out: "change X to Y" renames, "set ..." creates.
_RE_MOVE_NAMED = (
    re.compile(
        r"^(?P<verb>move|reschedule|push(?:\s+back)?|postpone|delay|shift|bump|bring|pull)\s+(?P<rest>.+)$",
        re.I,
    ),
    re.compile(
        r"^(?P<verb>תזיז|תזיזי|הזז|תדחה|תדחי|דחה|תעביר|תעבירי|העבר|תקדים|תקדימי|הקדם)\s+(?:לי\s+)?(?:את\s+)?(?P<rest>.+)$"
    ),
)


#: "change the bread one to 9am", "set call mom to 6pm": "change"/"set"/"make" move a reminder only
#: when everything after the last "to" is a time ("change X to Y" otherwise renames).
_RE_CHANGE_TO_TIME = re.compile(
    r"^(?:change|set|make|update|switch)\s+(?P<target>.+)\s+(?:to|for)\s+(?P<when>[^ ].*)$", re.I
)


#: "תשנה את רופא השיניים ל-11:30", "תשני את השעה של הפגישה לשעה 5": as "change X to <a time>".
_RE_CHANGE_TO_TIME_HE = re.compile(
    r"^(?:תשנה|תשני|שנה|שני|לשנות)\s+(?:לי\s+)?(?:את\s+)?(?P<target>.+)\s+(?P<when>(?:ל\S|בשעה\s).*)$"
)


#: "change the time to 3:15", "set its time to 9": the time of the reminder just set or named.
_TIME_OF_IT = re.compile(
    r"^(?:the\s+|its\s+)?(?:time|hour)(?:\s+(?:of|for)\s+(?:it|that|(?:the|my)(?:\s+reminder)?))?$"
    r"|^(?:את\s+)?ה?שעה(?:\s+של(?:\s+(?:זה|התזכורת)|ה))?$",
    re.I,
)


#: "the time of the dentist", "the dentist's time", "the dentist time": the dentist.
_TIME_OF_X = re.compile(
    r"^(?:the\s+)?(?:time|hour)\s+(?:of|for)\s+(?!(?:it|that|(?:the|my)(?:\s+reminder)?)$)(?:the\s+|my\s+)?(?P<x>.+)$"
    r"|^(?:את\s+)?ה?שעה\s+(?:של\s+|ל)(?!(?:זה|התזכורת)$)(?:ה?תזכורת\s+(?:של\s+|ל)?)?(?P<he>\S.*)$",
    re.I,
)
_X_TIME = re.compile(r"^(?P<x>.+?)(?:['’]s)?\s+(?:time|hour)$", re.I)


def _time_words_dropped(target: str, bare: str | None = None) -> str:
    """The name in "the time of X" / "X's time" / "השעה של X"; "the time" alone (of it) is `bare`
    when given, else kept as said."""
    if _TIME_OF_IT.match(target):
        return target if bare is None else bare
    found = _TIME_OF_X.match(target) or _X_TIME.match(target)
    return target if found is None else found.group("x") or found.group("he")


def one_dropped(target: str) -> str:
    """ "the bread one" -> "bread", "the one for dad" -> "dad"."""
    named = the_one_named(target)
    if named != target:
        return named
    return re.sub(
        r"\s+(?:one|reminder)$", "", re.sub(r"^(?:the|my|our)\s+", "", target, flags=re.I), flags=re.I
    )


def move_named(text: str, inp: PlannerInput) -> Match | None:
    change = _RE_CHANGE_TO_TIME.match(text) or _RE_CHANGE_TO_TIME_HE.match(text)
    if change is not None:
        when = re.sub(r"^ל(?=שעה\s)", "ב", change.group("when"))  # "לשעה 5": "בשעה 5"
        if (
            BARE_HOUR.match(when)
            and not when.startswith("ל")
            and not re.search(r"\balarm\b", change.group("target"), re.I)
        ):
            when = f"at {when}"  # "change the bank one to 5": an hour (an alarm's bare hour is not)
        parsed = parse_when(when, inp)
        target = as_title(one_dropped(_time_words_dropped(change.group("target"))))
        if (
            (_TIME_OF_IT.match(target) or _TIME_OF_IT.match(change.group("target")))
            and parsed.found
            and parsed.problem is None
            and not clean(parsed.remainder)
        ):
            return _latest_moved(text, dict(parsed.change()), inp)  # "change the time to 3:15"
        if (
            parsed.found
            and parsed.problem is None
            and not clean(parsed.remainder)
            and target
            and not is_ref(target)
        ):
            return moved_reminder(text, target, dict(parsed.change()), inp, "reminders:update")
    for pattern in _RE_MOVE_NAMED:
        match = pattern.search(text)
        if not match:
            continue
        rest = strip_scope(match.group("rest"))
        shift = shift_of(match.group("verb"), he_amount_digits(rest))
        if shift is not None:
            return _shifted(text, shift, inp) if as_title(shift[1]) else None
        unsigned = unsigned_shift(match.group("verb"), he_amount_digits(rest))
        if unsigned is not None:
            return _which_way(text, unsigned, inp) if as_title(unsigned[1]) else None
        parsed = parse_when(rest, inp)
        said = re.sub(r"\s+(?:to|till|until|for)$", "", parsed.remainder, flags=re.I)
        target = as_title(one_dropped(_time_words_dropped(said, bare="")))
        if (
            parsed.found
            and parsed.problem is None
            and not target
            and (scope_of(text) or _TIME_OF_IT.match(said))
        ):
            # "move only this time to 9pm", "move its time to 9pm"
            return _latest_moved(text, dict(parsed.change()), inp)
        if not parsed.found or parsed.problem is not None or not target or is_ref(target):
            return None  # no new time, or "it" (`followups.referential`): not this matcher's
        return moved_reminder(text, target, dict(parsed.change()), inp, "reminders:update")
    return None


_SCOPE_OCCURRENCE = re.compile(
    r"\b(?:(?:just|only)\s+(?:this\s+(?:time|once)|once|for\s+(?:today|tonight|tomorrow))|"
    r"this\s+(?:time|once)\s+only|"
    r"(?:just|only)\s+(?:this|the\s+next|the\s+upcoming|today'?s|tomorrow'?s)(?:\s+one)?|this\s+one|"
    r"(?:this|the\s+next)\s+occurrence|skip\s+(?:the\s+)?next)\b"
    r"|רק\s+(?:את\s+)?(?:הפעם\s+הזאת|הפעם\s+הזו|הקרובה|הבאה|של\s+היום|של\s+מחר)",
    re.I,
)
_SCOPE_SERIES = re.compile(
    r"\b(?:the\s+whole\s+series|the\s+entire\s+series|all\s+(?:of\s+)?(?:them|the\s+occurrences)|"
    r"every\s+one\s+of\s+them|for\s+good|the\s+series|(?:all\s+)?future\s+ones)\b"
    r"|את\s+כל\s+הסדרה|כל\s+הסדרה|לתמיד|את\s+כולן",
    re.I,
)


def scope_of(text: str) -> dict[str, object]:
    """`{"scope": "occurrence" | "series"}` when the words say which part of a recurring reminder
    ("just this one", "the whole series", "רק הפעם הזאת", "את כל הסדרה"); else nothing, and a
    recurring target gets the question."""
    if _SCOPE_OCCURRENCE.search(text):
        return {"scope": "occurrence"}
    if _SCOPE_SERIES.search(text):
        return {"scope": "series"}
    return {}


def strip_scope(text: str) -> str:
    """The target words without the scope words (and "at the same time": a new day keeps the time)."""
    text = _SCOPE_OCCURRENCE.sub(" ", without_same_time(text))
    return " ".join(_SCOPE_SERIES.sub(" ", text).split()).strip(" ,.-—")


#: "to tomorrow, same time", "למחר באותה שעה": the time the reminder has, kept (as a new day alone does).
_SAME_TIME = re.compile(
    r"[,\s]*\b(?:at\s+)?(?:the\s+)?same\s+time\b|[,\s]*(?:(?<=\s)|^)(?:ב)?אות[הו]\s+(?:ה)?(?:שעה|זמן)(?=\s|$|[,.!?])",
    re.I,
)


def without_same_time(text: str) -> str:
    return _SAME_TIME.sub(" ", text).strip()


#: Hebrew amounts said in words before a unit: "בעשר דקות" ("ברבע שעה" is elsewhere, "חצי שעה" too).
_HE_AMOUNT = re.compile(
    rf"(?:(?<=\s)|^)(?P<lead>ב-?|בעוד\s+|ל-?)(?P<n>{HE_AMOUNT})\s+(?P<unit>דקות|שעות|ימים)(?=\s|$|[,.!?])"
)


def he_amount_digits(text: str) -> str:
    """ "תדחה את הרופא בעשר דקות": the amount in digits ("ב-10 דקות"), so that it reads as an amount
    of time and not as ten o'clock."""
    return _HE_AMOUNT.sub(lambda m: f"ב-{HE_AMOUNT_WORDS[m.group('n')]} {m.group('unit')}", text)


#: The snooze word of a reminder's button, typed: "snooze that for 10 min", "snooze the dentist
#: reminder by an hour", "נודניק לתזכורת של הרופא ל-10 דקות".
_RE_SNOOZE = re.compile(
    r"^(?:snooze|נודניק|תעשה\s+נודניק|תעשי\s+נודניק)\b\s*(?:(?:ל|של|על)\s*(?=[\u05d0-\u05ea]))?(?P<rest>.*?)\s*[.!]*$",
    re.I,
)
_SNOOZE_UNTIL = re.compile(
    r"^(?P<target>.*?)\s*(?:\b(?:until|till|'?til|to)|(?<!\S)עד)\s+(?P<when>\S.*)$", re.I
)
#: What "snooze" with no amount means: the first of a delivered reminder's snooze buttons.
SNOOZE_DEFAULT_MINUTES = 10


def snooze(text: str, inp: PlannerInput) -> Match | None:
    """ "snooze that for 10 min" / "snooze the dentist by an hour": that reminder, later by that
    much (10 minutes when no amount is said); "it"/"that" or nothing is the latest reminder."""
    match = _RE_SNOOZE.match(clean(text))
    if match is None:
        return None
    rest = he_amount_digits(re.sub(r"^(?:it|this|that)\s+(?=for|by|in)", "", match.group("rest"), flags=re.I))
    rest = re.sub(r"(?:^|\s)(?:for|in)\s+(?=\S+\s*\S*$)", " by ", rest, flags=re.I)
    rest = re.sub(r"(?:^|(?<=\s))ל-?(?=\d)", "ב-", rest)
    shift = shift_of("push", rest)
    until = _SNOOZE_UNTIL.match(rest) if shift is None else None
    if until is not None:
        # "snooze the dentist until thursday", "snooze it till 5pm": to that time, as a move is.
        when = until.group("when")
        parsed = parse_when(f"at {when}" if BARE_HOUR.match(when) else when, inp)
        if parsed.found and parsed.problem is None and not clean(parsed.remainder):
            target = as_title(one_dropped(_reminder_word_dropped(until.group("target"))))
            if not target or is_ref(target):
                return _latest_moved(text, dict(parsed.change()), inp)
            return moved_reminder(text, target, dict(parsed.change()), inp, "reminders:update")
    if shift is None and rest and not is_ref(one_dropped(_reminder_word_dropped(rest))):
        return None  # "snooze <something that is no amount and no reminder>": not a snooze
    minutes, before = shift if shift is not None else (SNOOZE_DEFAULT_MINUTES, rest)
    target = as_title(one_dropped(_reminder_word_dropped(before)))
    return moved_reminder(text, target, {"shiftMinutes": minutes}, inp, "reminders:snooze")


def _reminder_word_dropped(words: str) -> str:
    words = re.sub(rf"\b{REMINDER_EN}\b", " ", words, flags=re.I)
    return clean(re.sub(rf"(?:^|(?<=\s))(?:את\s+)?{REMINDER_HE}(?:\s+(?:של|על))?", " ", words))


#: "stop the vitamins after friday", "end the gym reminder on the 30th", "make the vitamins stop after
#: friday", "stop the vitamins from monday", "תפסיק את הויטמינים אחרי יום שישי", "תעצור את
#: התזכורת של הויטמינים מיום ראשון": a series' last day (after it, or the day before "from").
_ENDS = (
    re.compile(
        r"^(?:please\s+)?stop\s+reminding\s+me\s+(?:about\s+|to\s+)?(?P<target>.+?)\s+"
        r"(?P<how>after|from|starting|as\s+of|at)\s+(?P<day>\S.*?)\s*[.!]?$",
        re.I,
    ),
    re.compile(
        r"^(?:תפסיק|תפסיקי)\s+להזכיר\s+לי\s+(?:על\s+|את\s+)?(?P<target>.+?)\s+"
        r"(?P<how>אחרי|מ-?|החל\s+מ-?)\s*(?P<day>\S.*?)\s*[.!]?$"
    ),
    re.compile(
        rf"^(?:stop|end|finish)\s+(?:the\s+|my\s+)?(?P<target>.+?)(?:\s+{REMINDER_EN})?\s+"
        r"(?P<how>after|on|from|starting|as\s+of|at)\s+(?P<day>\S.*?)\s*[.!]?$",
        re.I,
    ),
    re.compile(
        rf"^(?:make|have|let)\s+(?:the\s+|my\s+)?(?P<target>.+?)(?:\s+{REMINDER_EN})?\s+(?:stop|end)\s+"
        r"(?P<how>after|on|from)\s+(?P<day>\S.*?)\s*[.!]?$",
        re.I,
    ),
    re.compile(
        rf"^(?:תפסיק|תפסיקי|תעצור|תעצרי|תסיים|תסיימי)\s+(?:את\s+)?(?:{REMINDER_HE}\s+(?:של|על)\s+)?(?P<target>.+?)\s+"
        r"(?P<how>אחרי|מ-?|החל\s+מ-?)\s*(?P<day>\S.*?)\s*[.!]?$"
    ),
)


def ends_on(text: str, inp: PlannerInput) -> Match | None:
    """A series stopped after a day: its last day changed (an update of the series itself)."""
    for pattern in _ENDS:
        found = pattern.match(text)
        if found is None:
            continue
        how = found.group("how").lower()
        starts = how in ("from", "starting", "as of") or how.startswith("מ") or how.startswith("החל")
        # "after december", "at the end of the year", "אחרי דצמבר": that month's (year's) last day
        day = last_day_said(found.group("day"), inp.now.astimezone(ZoneInfo(inp.timezone)).date())
        if day is not None:
            day = day.replace(day=1) - timedelta(days=1) if starts else day  # "from december"
        else:
            parsed = parse_when(found.group("day"), inp)
            day = parsed.day or (parsed.when.date() if parsed.when is not None else None)
            if day is None or parsed.named_time or parsed.recurrence or clean(parsed.remainder):
                return None  # "stop the gym after work": no day
            day = day - timedelta(days=1) if starts else day  # "from monday": sunday is its last day
        target = as_title(one_dropped(_reminder_word_dropped(found.group("target"))))
        if not target:
            return None
        constraints, missing, confidence = target_constraints(target, inp, "reminders")
        return Match(
            capability="reminders",
            action="update",
            confidence=confidence,
            risk="medium",
            constraints=constraints,
            changes={"endsOn": day.isoformat()},
            missing=missing,
            pattern="reminders:ends_on",
        )
    return None
