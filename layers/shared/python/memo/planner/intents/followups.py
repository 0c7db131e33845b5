"""Follow-ups that point back at the latest actions: "delete it", "move it to 6", "תמחק את זה",
"and again in 4 hours"; a correction ("i meant tomorrow", `corrections`) is read as one of them."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from memo.domain import LatestAction
from memo.planner.base import PlannerInput, PlannerResult
from memo.planner.intents.corrections import (
    SOON,
    correction,
    in_its_place,
    names_a_time,
    replacement_title,
    spoken_clock,
)
from memo.planner.intents.reminder_changes import scope_of, without_same_time
from memo.planner.intents.reminders import after_remind_words
from memo.planner.lexicon import (
    BARE_DURATION,
    BARE_HOUR,
    DELETE_EN,
    DELETE_HE,
    MOVE_EN,
    MOVE_HE,
    PLURAL_REF_EN,
    PLURAL_REF_HE,
    REF_EN,
    REF_HE,
    RENAME_EN,
    as_title,
    clean,
    has_hebrew,
    named_in,
)
from memo.planner.match import (
    GUESS,
    REFERENTIAL,
    SHIFT_BY,
    SHIFT_DIRECTION_REQUIRED,
    SHIFT_NAMES,
    SHOWN_ONLY,
    Match,
    iso,
    latest_action,
    parse_when,
    ref_to,
    shift_of,
    unclear,
    unsigned_shift,
)
from memo.planner.timeparse import ParsedWhen

# "תוריד את זה", "cross it off", "scratch the last one": a list's verbs, also said of the reminder
# just set.
_RE_REF_DELETE = re.compile(
    rf"^(?:{DELETE_EN}|{DELETE_HE}|scratch|cross\s+off|cross\s+out|strike\s+off|take\s+off|tick\s+off|"
    rf"תוריד|תורידי|הורד|להוריד)\s+(?:{REF_EN}|{REF_HE})\s*[.!]?$",
    re.I,
)
# "take it off the list", "remove it from my shopping list", "cross that off", "תוריד את זה מהרשימה":
# the list item just added (never a reminder: the list is said).
_RE_REF_OFF_LIST = re.compile(
    rf"^(?:(?:take|cross|strike|tick|check|scratch)\s+(?:{REF_EN})\s+off(?:\s+(?:the|my)\s+(?:\w+\s+)?list)?|"
    rf"(?:{DELETE_EN}|take)\s+(?:{REF_EN})\s+(?:from|off(?:\s+of)?|out\s+of)\s+(?:the|my)\s+(?:\w+\s+)?list)"
    r"\s*[.!]?$|"
    rf"^(?:תוריד|תורידי|הורד|להוריד|{DELETE_HE})\s+(?:{REF_HE})\s+מ(?:ה)?רשימ(?:ה|ת\s+\S+)\s*[.!]?$",
    re.I,
)
_OFF_THE_LIST = re.compile(
    r"\s+(?:off|from|out\s+of)(?:\s+of)?(?:\s+(?:the|my)\s+(?:\w+\s+)?list)?\s*[.!]?$|\s+מ(?:ה)?רשימ\S*(?:\s+\S+)?\s*[.!]?$",
    re.I,
)
_RE_REF_MOVE = re.compile(
    rf"^(?:{MOVE_EN}|{MOVE_HE}|bring|pull|תעשה|תעשי|תקבע|תקבעי)\s+(?:{REF_EN}|{REF_HE})\b\s*(?P<rest>.*)$",
    re.I,
)
#: "change to 9", "move to tomorrow", "תשנה לתשע", "תעביר למחר": "it" left unsaid before a time.
_IT_UNSAID = re.compile(
    r"^(?P<en>change|move|switch|push|reschedule)\s+(?P<rest>to\s+\S.*)$"
    r"|^(?P<he>תשנה|תשני|שנה|שני|תעביר|תעבירי|העבר|תזיז|תזיזי|הזז|תדחה|תדחי)\s+(?P<rest_he>ל-?\S.*)$",
    re.I,
)
_RE_REF_SWITCH = re.compile(rf"^switch\s+(?:{REF_EN})\s+(?P<rest>to\s+.+)$", re.I)
_RE_REF_RENAME = re.compile(
    rf"^(?:(?:{RENAME_EN})\s+(?:{REF_EN})\s+(?:to|as)?|(?:תשנה|שנה|תקרא|תקראי)\s+(?:ל|את\s+השם\s+של\s+)?(?:{REF_HE})\s+ל-?)\s*(?P<new>.+)$",
    re.I,
)


_MAKE_IT_THING = re.compile(
    r"^(?:(?:no|wait|actually|oops|sorry)[\s,!.]+)*(?:(?P<make>make\s+it)|i\s+meant|i\s+mean)\s+(?P<new>(?:the|my|a|an|our|his|her|their|your)\s+[^\W\d]+)\s*[.!]?$"
    r"|^(?:(?:לא|רגע|אופס|סליחה|בעצם)[\s,!.]+)*(?:התכוונתי|הכוונה|בעצם)\s+(?P<new_he>(?:ל|את\s+)?\S+\s+שלי)\s*[.!]?$",
    re.I,
)
_PLURAL_REF = re.compile(rf"\s(?:{PLURAL_REF_EN}|{PLURAL_REF_HE})\s*[.!]?$", re.I)
#: "delete both", "the two of them", "שניהם": two things, the latest two even when two requests made
#: them (`refCount`); "them" alone is what one request made.
_BOTH_REF = re.compile(
    r"\s(?:both(?:\s+of\s+them)?|them\s+both|the\s+two\s+of\s+them|(?:את\s+)?(?:שניהם|שתיהן|שתיהם))\s*[.!]?$",
    re.I,
)
# "remove the last one" after one request added several: the last of them, not "which one?".
_LAST_REF = re.compile(r"\s(?:the\s+last(?:\s+one)?|(?:את\s+)?האחרונ?ה?|(?:את\s+)?האחרון)\s*[.!]?$", re.I)


def _latest_batch(inp: PlannerInput) -> list[LatestAction]:
    """The latest actions of the most recent request."""
    if not inp.latest_actions:
        return []
    newest = inp.latest_actions[0].request
    return [a for a in inp.latest_actions if a.request == newest]


#: How recent a reminder is for a bare time to be read as its correction.
_JUST_SET = timedelta(minutes=15)


def a_time_for_the_reminder_just_set(text: str, latest: Sequence[LatestAction], now: datetime) -> bool:
    """ "8", "8:30", "5am" alone, within minutes of a reminder set: its time, maybe (a guess the
    person confirms; with nothing just set, a bare number is a stale answer)."""
    if not latest or latest[0].capability != "reminders" or latest[0].action != "create":
        return False
    return now - latest[0].created_at <= _JUST_SET and bool(_BARE_CLOCK.match(clean(text)))


_BARE_CLOCK = re.compile(
    r"^(?:at\s+|ב-?)?(?:[01]?\d|2[0-3])(?::[0-5]\d)?\s*(?:am|pm|a\.m\.|p\.m\.)?\s*[.!?]?$", re.I
)


def _nearer_half(said: str, inp: PlannerInput) -> str:
    """ "7" for a reminder at 09:00 is 07:00, for one at 17:00 it is 19:00: an hour without am/pm is
    in the half of the day nearer the time just set ("HH:MM"); the words as they are otherwise."""
    found = re.match(r"^(?:at\s+|ב-?)?(?P<h>\d{1,2})(?::(?P<m>[0-5]\d))?\s*[.!?]?$", said)
    latest = inp.latest_actions[0].when if inp.latest_actions else None
    if found is None or latest is None or not 1 <= int(found.group("h")) <= 12:
        return said.removeprefix("at ")
    local = latest.astimezone(ZoneInfo(inp.timezone))
    minute = int(found.group("m") or 0)
    set_at = local.hour * 60 + local.minute
    hour = min(
        (int(found.group("h")) % 12, int(found.group("h")) % 12 + 12),
        key=lambda h: abs(h * 60 + minute - set_at),
    )
    return f"{hour:02d}:{minute:02d}"


def referential(text: str, inp: PlannerInput) -> Match | PlannerResult | None:
    unsaid = _IT_UNSAID.match(text)
    if unsaid is not None and names_a_time(unsaid.group("rest") or unsaid.group("rest_he"), inp.now):
        en = unsaid.group("en")
        text = (
            f"{en} it {unsaid.group('rest')}"
            if en
            else f"{unsaid.group('he')} את זה {unsaid.group('rest_he')}"
        )
    if a_time_for_the_reminder_just_set(text, inp.latest_actions, inp.now):
        # "remind me every morning to water the plants" (09:00) -> "8": move it to 8? (confirmed)
        found = _referential(f"make it {_nearer_half(clean(text), inp)}", inp)
        if not isinstance(found, Match):
            return found
        # Just set: a repeating one is corrected as a whole ("every morning" -> "8": every morning at 8).
        return replace(found, confidence=GUESS, constraints={**found.constraints, "scope": "series"})
    found = _referential(text, inp)
    scope = scope_of(text)
    if (
        isinstance(found, Match)
        and found.capability == "reminders"
        and scope
        and "scope" not in found.constraints
    ):
        return replace(found, constraints={**found.constraints, **scope})  # "move it to 9 just this once"
    return found


def _renamed(latest: LatestAction, title: str, when: Mapping[str, object] | None = None) -> Match:
    """The latest item, given a new title (and, for a reminder, a new time)."""
    return Match(
        capability=latest.capability,
        action="update",
        confidence=REFERENTIAL,
        risk="medium",
        constraints=ref_to(latest),
        changes={"title": title, **(when or {})},
        pattern="ref:rename",
    )


def _retitled_and_moved(text: str, inp: PlannerInput) -> Match | None:
    """ "no, call dad instead at 6" right after a reminder: its new title and its new time at once;
    None unless the words say they replace, and name both."""
    latest = latest_action(inp)
    if latest is None or latest.capability != "reminders" or latest.action != "create":
        return None
    new = replacement_title(text, with_time=True)
    if new is None:
        return None
    parsed = parse_when(new, inp)
    title = as_title(after_remind_words(parsed.remainder))
    if not parsed.found or parsed.problem is not None or not title or not parsed.change():
        return None
    return _renamed(latest, title, parsed.change())


def _referential(text: str, inp: PlannerInput) -> Match | PlannerResult | None:
    both = _retitled_and_moved(text, inp)
    if both is not None:
        return both
    thing = _MAKE_IT_THING.match(text)
    latest = latest_action(inp)
    if thing is not None and latest is not None and latest.capability == "reminders":
        # "make it the electrician" after “call the plumber”: that thing in its place, else unsaid
        said = thing.group("new") or thing.group("new_he")
        placed = in_its_place(latest, said)
        if placed != said:
            return _renamed(latest, as_title(placed))
        if thing.group("make"):
            return unclear(text)
    text = correction(text, inp) or text
    if _RE_REF_DELETE.match(text):
        return _deleted(text, inp)
    if _RE_REF_OFF_LIST.match(text):
        latest = latest_action(inp)
        if latest is None or latest.capability != "lists":
            return unclear(text)
        return _deleted(_OFF_THE_LIST.sub("", text), inp)  # "them" / "the last one" read as said
    rename = _RE_REF_RENAME.match(text)
    # "תשנה את זה לימי שני": the ל the words began with makes them a time ("to mondays"), no title.
    said = rename.group("new") if rename else ""
    if (
        rename
        and not names_a_time(said, inp.now)
        and not (has_hebrew(said) and names_a_time(f"ל{said}", inp.now))
    ):
        latest = latest_action(inp)
        if latest is None:
            return unclear(text)
        return _renamed(latest, as_title(rename.group("new")))
    move = _RE_REF_MOVE.match(text)
    if move:
        return _changed(text, move.group("rest"), inp)
    switch = _RE_REF_SWITCH.match(text)
    if switch:
        # "switch it to mondays": a time or days only; "switch it to hebrew" is no new title.
        return _moved(text, switch.group("rest"), inp)
    return None


def _deleted(text: str, inp: PlannerInput) -> Match | PlannerResult:
    """ "delete it", "delete them", "remove the last one": the latest thing done, deleted (or, for a
    list item, taken off its list)."""
    latest = latest_action(inp)
    if latest is None:
        # "delete it" with nothing recent to point at: ask what the user means.
        return unclear(text)
    plural = bool(_PLURAL_REF.search(text))
    place: dict[str, object] = {"refPlace": "last"} if _LAST_REF.search(text) else {}
    if _BOTH_REF.search(text):
        place["refCount"] = 2
    if plural and len({a.capability for a in _latest_batch(inp)}) > 1:
        # "delete them" after a reminder and a list item: one request cannot delete both kinds.
        return unclear(text)
    key = (latest.external_ids or {}).get("listKey")
    if latest.capability == "lists" and isinstance(key, str) and key:
        # "delete it" after "add milk to my shopping list": milk comes off that list.
        return Match(
            capability="lists",
            action="remove",
            confidence=REFERENTIAL,
            risk="medium",
            constraints={
                "listName": key,
                "targetRef": "latest_action",
                **({"plural": True} if plural else {}),
                **place,
            },
            pattern="ref:remove",
        )
    return Match(
        capability=latest.capability,
        action="delete",
        confidence=REFERENTIAL,
        risk="high",
        constraints={**ref_to(latest), **({"plural": True} if plural else {}), **place},
        pattern="ref:delete",
    )


def _changed(text: str, rest: str, inp: PlannerInput) -> Match | PlannerResult | None:
    """ "move it to 6", "push it by an hour", "make it 45 minutes", "change it to call dad": the
    reminder just set at a new time, or the latest thing done with a new title."""
    shift = shift_of(text.split()[0], rest)
    if shift is not None and not shift[1]:
        return _shifted(text, shift[0], inp)
    # "make it 45 minutes" is a new amount from now (below), not a shift of its time.
    unsigned = None if _NEW_VALUE_VERBS.match(text) else unsigned_shift(text.split()[0], rest)
    if unsigned is not None and not unsigned[1]:
        return _which_way(text, unsigned[0], inp)
    rest = without_same_time(rest)  # "move it to tomorrow, same time": its time kept
    if BARE_HOUR.match(rest):
        rest = f"at {rest}"  # "make it 6", "change it to 17:30": a time of day
    rest = spoken_clock(rest, inp.now) or rest  # "make it nine thirty": one in words
    duration = BARE_DURATION.match(rest)
    if duration is not None:
        # "in an hour" -> "actually make it 45 minutes": 45 minutes from now, for a reminder
        # due soon (later ones were not set by an amount of time, so the words are asked).
        reminder = latest_action(inp, "reminders")
        if reminder is None or reminder.when is None or reminder.when - inp.now > SOON:
            return unclear(text)
        rest = f"{'בעוד' if has_hebrew(rest) else 'in'} {duration.group('amount')}"
    latest = latest_action(inp)
    retitled = _RE_RETITLE.match(rest)
    if retitled and latest is not None and not names_a_time(rest, inp.now):
        # "change it to call dad": no time in it, so the words are the new title.
        return _renamed(latest, as_title(retitled.group("new")))
    return _moved(text, rest, inp)


def _shifted(text: str, minutes: int, inp: PlannerInput) -> Match | PlannerResult:
    """ "push it by an hour", "תדחה את זה בחצי שעה": the reminder's own time, moved."""
    reminder = latest_action(inp, "reminders")
    if reminder is None:
        return unclear(text)
    return Match(
        capability="reminders",
        action="update",
        confidence=REFERENTIAL if reminder is latest_action(inp) else 0.75,
        risk="medium",
        constraints=ref_to(reminder, text),
        changes={"shiftMinutes": minutes},
        pattern="ref:shift",
    )


_NEW_VALUE_VERBS = re.compile(r"^(?:make|set|תעשה|תעשי|תקבע|תקבעי)\b", re.I)


def _which_way(text: str, minutes: int, inp: PlannerInput) -> Match | PlannerResult:
    """ "move it an hour", "תזיז את זה בשעה": earlier or later is asked, never guessed; the answer
    ("later", "מוקדם יותר") moves the reminder just set (`memo.hitl.plan_edits`)."""
    reminder = latest_action(inp, "reminders")
    if reminder is None:
        return unclear(text)
    # The question names the reminder; after a listing ("what are my reminders?") there is no one
    # title to name, and the question says "it".
    named = {} if reminder.action in SHOWN_ONLY else {SHIFT_NAMES: named_in(reminder.summary)}
    return Match(
        capability="reminders",
        action="update",
        confidence=REFERENTIAL if reminder is latest_action(inp) else 0.75,
        risk="medium",
        constraints={**ref_to(reminder, text), **named},
        changes={SHIFT_BY: minutes},
        missing=(SHIFT_DIRECTION_REQUIRED,),
        pattern="ref:shift_which_way",
    )


def _moved(text: str, rest: str, inp: PlannerInput) -> Match | PlannerResult | None:
    """The latest reminder at the time `rest` says (a bare hour on the reminder's own day)."""
    reminder = latest_action(inp, "reminders")
    zone = ZoneInfo(inp.timezone)
    own_day = reminder.when.astimezone(zone).date() if reminder and reminder.when else None
    if own_day == inp.now.astimezone(zone).date():
        own_day = None  # today: a bare hour already past is its evening ("move it to 9" at noon: 21:00)
    parsed = parse_when(rest, inp, day=own_day)
    if not parsed.found:
        return None
    if reminder is None:
        return unclear(text)
    when, changes = _new_time(parsed, reminder, inp)
    return Match(
        capability="reminders",
        action="update",
        confidence=REFERENTIAL if reminder is latest_action(inp) else 0.75,
        risk="medium",
        constraints=ref_to(reminder, text),
        changes=changes,
        # A day alone keeps the reminder's own time, known or not here ("move it to sunday" after a
        # listing of it).
        missing=()
        if when is not None or {"day", "time", "recurrence"} & changes.keys()
        else ("reminder_time_required",),
        pattern="ref:move",
    )


def _new_time(
    parsed: ParsedWhen, reminder: LatestAction, inp: PlannerInput
) -> tuple[datetime | None, dict[str, object]]:
    """The reminder's new time (None: still to be asked) and the changes that set it."""
    when = parsed.when
    if when is None and parsed.day is not None and reminder.when is not None:
        # "move it to friday": keep the reminder's time of day.
        kept = reminder.when.astimezone(ZoneInfo(inp.timezone)).time()
        when = datetime.combine(parsed.day, kept, tzinfo=ZoneInfo(inp.timezone))
    changes: dict[str, object] = {"when": iso(when)} if when is not None else {}
    if when is None and parsed.day is not None:
        changes["day"] = parsed.day.isoformat()
    if "time" in parsed.change() or "recurrence" in parsed.change():
        # "change it to 6pm": a time alone keeps the reminder's day (each in its own timezone);
        # "move it to every sunday at 10": it repeats from then on.
        changes = dict(parsed.change())
        when = parsed.when
    if parsed.recurrence is not None and parsed.when is None and "BYDAY=" in parsed.recurrence:
        # "change it to saturdays": the days it comes on, from now on at its own time of day (the
        # Saturday before its next Sunday included); the capability keeps the time.
        return None, {"recurrence": parsed.recurrence}
    if parsed.recurrence is not None and parsed.when is None and reminder.when is not None:
        # "make it every day", "make it repeat every week": the reminder's own time of day,
        # repeating from its next time on (it was asked "when?", and the repetition was lost).
        when = _next_at_its_time(reminder.when, inp)
        changes = {"when": iso(when), "recurrence": parsed.recurrence}
    return when, changes


def _next_at_its_time(due: datetime, inp: PlannerInput) -> datetime:
    """The reminder's time, or, once it has passed, the same time of day next, in the user's zone."""
    if due > inp.now:
        return due
    zone = ZoneInfo(inp.timezone)
    at = due.astimezone(zone).time()
    candidate = datetime.combine(inp.now.astimezone(zone).date(), at, tzinfo=zone)
    return candidate if candidate > inp.now else candidate + timedelta(days=1)


#: "change it to call dad", "תשנה את זה ל-להתקשר לאבא": the new words, after "to" / "ל".
_RE_RETITLE = re.compile(r"^(?:to|into|ל-?)\s*(?P<new>\S.*)$", re.I)


#: "and again in 4 hours", "remind me about it again tomorrow", "ושוב בעוד 4 שעות": the reminder just
#: set, once more at another time.
_RE_AGAIN = re.compile(
    r"^(?:(?:and|also|then)\s+)?(?:remind\s+me\s+)?(?:(?:about\s+|of\s+)?(?:it|that|this)\s+)?(?:again|once\s+more)"
    r"[\s,]+(?P<rest>\S.*)$"
    # "remind me about it on sunday", "remind me of that too at 5": "it" is the reminder just set.
    r"|^(?:(?:and|also|then)\s+)?remind\s+me\s+(?:about|of)\s+(?:it|that|this)(?:\s+(?:too|also|as\s+well))?"
    r"[\s,]+(?P<also>\S.*)$"
    r"|^ו?(?:(?:תזכיר|תזכירי)\s+לי\s+)?(?:(?:על\s+|את\s+)?(?:זה|זאת)\s+)?(?:גם\s+)?(?:שוב|עוד\s+פעם)[\s,]+(?P<he>\S.*)$"
    r"|^ו?(?:תזכיר|תזכירי)\s+לי\s+(?:על\s+|את\s+)?(?:זה|זאת)(?:\s+גם)?[\s,]+(?P<he_also>\S.*)$",
    re.I,
)


def says_again(text: str) -> bool:
    """ "and again in 4 hours", "ושוב מחר": the words that repeat the reminder just set."""
    return bool(_RE_AGAIN.match(clean(text)))


def again(text: str, inp: PlannerInput) -> Match | None:
    """A second reminder with the title of the one just set, at the time said; nothing (the words
    go on to `reminders.create`, which asks what about) when the latest thing done is no reminder."""
    found = _RE_AGAIN.match(text)
    latest = latest_action(inp)
    if found is None or latest is None or latest.capability != "reminders" or latest.action != "create":
        return None
    said = found.group("rest") or found.group("also") or found.group("he") or found.group("he_also")
    parsed = parse_when(said, inp)
    title = named_in(latest.summary)
    if not parsed.found or parsed.problem is not None or re.sub(r"[\W_]+", "", parsed.remainder) or not title:
        return None
    constraints: dict[str, object] = {"title": title}
    if parsed.recurrence is not None:
        constraints["recurrence"] = parsed.recurrence
    when = parsed.when
    if when is None and parsed.day is not None and latest.when is not None:
        # "remind me again tomorrow": at the same time of day as the one just set.
        zone = ZoneInfo(inp.timezone)
        when = datetime.combine(parsed.day, latest.when.astimezone(zone).time(), tzinfo=zone)
    same = when is not None and latest.when is not None and when == latest.when and parsed.when is None
    if when is not None and when > inp.now and not same:
        constraints["when"] = iso(when)
    elif parsed.day is not None:
        # "remind me again tomorrow" of tomorrow's 17:00: not a second 17:00 one; the time is asked
        constraints["day"] = parsed.day.isoformat()
    return Match(
        capability="reminders",
        action="create",
        confidence=REFERENTIAL,
        risk="low",
        constraints=constraints,
        missing=() if "when" in constraints else ("reminder_time_required",),
        pattern="reminders:again",
    )
