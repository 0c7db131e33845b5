"""Follow-ups that point back at the latest actions: "delete it", "move it to 6", "תמחק את זה",
and a noun-less "delete X" matched against what was just done."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from memo.capabilities.notes import has_a_value
from memo.domain import LatestAction
from memo.planner.base import PlannerInput, PlannerResult
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
    the_one_named,
)
from memo.planner.match import (
    CONFIDENT,
    GUESS,
    REFERENTIAL,
    Match,
    iso,
    latest_action,
    parse_when,
    shift_of,
    unclear,
)

# "תוריד את זה", "cross it off", "scratch the last one": a list's verbs, also said of the reminder
# just set.
_RE_REF_DELETE = re.compile(
    rf"^(?:{DELETE_EN}|{DELETE_HE}|scratch|cross\s+off|cross\s+out|strike\s+off|take\s+off|tick\s+off|"
    rf"תוריד|תורידי|הורד|להוריד)\s+(?:{REF_EN}|{REF_HE})\s*[.!]?$",
    re.I,
)
_RE_REF_MOVE = re.compile(
    rf"^(?:{MOVE_EN}|{MOVE_HE}|bring|pull|תעשה|תעשי|תקבע|תקבעי)\s+(?:{REF_EN}|{REF_HE})\b\s*(?P<rest>.*)$",
    re.I,
)
_RE_REF_RENAME = re.compile(
    rf"^(?:(?:{RENAME_EN})\s+(?:{REF_EN})\s+(?:to|as)?|(?:תשנה|שנה|תקרא|תקראי)\s+(?:ל|את\s+השם\s+של\s+)?(?:{REF_HE})\s+ל-?)\s*(?P<new>.+)$",
    re.I,
)


_PLURAL_REF = re.compile(rf"\s(?:{PLURAL_REF_EN}|{PLURAL_REF_HE})\s*[.!]?$", re.I)
# "remove the last one" after one request added several: the last of them, not "which one?".
_LAST_REF = re.compile(r"\s(?:the\s+last(?:\s+one)?|(?:את\s+)?האחרונ?ה?|(?:את\s+)?האחרון)\s*[.!]?$", re.I)


def _latest_batch(inp: PlannerInput) -> list[LatestAction]:
    """The latest actions of the most recent request."""
    if not inp.latest_actions:
        return []
    newest = inp.latest_actions[0].request
    return [a for a in inp.latest_actions if a.request == newest]


#: A correction of the time just set: "oops i meant tomorrow", "no, at 6", "sorry, 8pm", "actually
#: tomorrow", "התכוונתי למחר", "טעיתי, בשש".
_CORRECTION = re.compile(
    r"^(?:(?:oops|oh|no|nope|sorry|my\s+bad|אופס|לא|סליחה|טעיתי)[\s,!.]+)*"
    r"(?:i\s+meant|i\s+mean|meant|i\s+said|התכוונתי|הכוונה)\s*(?:ל-?(?=\S))?(?P<rest>\S.*)$"
    r"|^(?:oops|no|nope|sorry|my\s+bad|אופס|לא|סליחה|טעיתי)[\s,!.]+(?P<rest2>\S.*)$",
    re.I,
)
_SAID_ACTUALLY = re.compile(
    r"^\W*(?:actually|wait|sorry|oops|no|nope|my\s+bad|בעצם|רגע|סליחה|אופס|טעיתי)(?=[\s,!.]|$)", re.I
)


#: "no, call dad instead", "i meant call dad", "לא, להתקשר לאבא במקום": the words that replace.
_INSTEAD = re.compile(
    r"^(?:instead[\s,:]+)?(?P<new>\S.*?)(?:[\s,]+instead(?:\s+of\s+.+)?|\s+במקום(?:\s+זה)?)?\s*[.!]?$",
    re.I,
)
_INSTEAD_WORD = re.compile(r"(?:^|[\s,]+)instead(?!\s+of)\b|(?:^|\s+)במקום(?:\s+זה)?(?=\s|$)", re.I)
_SAYS_INSTEAD = re.compile(r"\binstead\b|\sבמקום(?:\s|$)", re.I)
_MEANT = re.compile(
    r"^(?:(?:oops|oh|no|nope|sorry|my\s+bad|אופס|לא|סליחה|טעיתי)[\s,!.]+)*(?:i\s+meant|התכוונתי)(?=[\s,:]|$)",
    re.I,
)


def _names_a_time(words: str) -> bool:
    """ "to half an hour from now", "בשש", "the evening": a time (read or only hinted), never a title."""
    from datetime import UTC

    from memo.planner.timeparse import extract_when

    if _TIMEISH.search(words):
        return True
    hebrew = has_hebrew(words)
    return extract_when(words, now=datetime.now(UTC), timezone="UTC", language="he" if hebrew else "en").found


def replacement_title(text: str, *, with_time: bool = False) -> str | None:
    """ "no, call dad instead", "i meant call dad", "לא, להתקשר לאבא במקום": the title that replaces
    the one just given; None when the words do not say they replace, or name a time ("i meant
    tomorrow" moves, `_correction`) unless `with_time` ("i meant call mom tomorrow")."""
    meant = _MEANT.match(text)
    if meant is not None:
        rest = text[meant.end() :].strip(" ,:")  # "התכוונתי להתקשר לאבא": the title keeps its "ל"
    else:
        found = _CORRECTION.match(text)
        rest = (found.group("rest") or found.group("rest2")) if found else text
        if not _SAYS_INSTEAD.search(rest):
            return None
    if not rest or (not with_time and _names_a_time(rest)):
        return None
    replaced = _INSTEAD.match(rest)
    words = _INSTEAD_WORD.sub(" ", replaced.group("new")) if replaced else ""
    new = as_title(after_remind_words(clean(words))) if clean(words) else ""
    return new or None


def _correction(text: str, inp: PlannerInput) -> str | None:
    """A correction right after a reminder was set, when the latest thing done is that reminder:
    "i meant tomorrow" -> "move it tomorrow" (only a time or day); "no, call dad instead" or "i
    meant call dad" -> "change it to call dad" (`replacement_title`)."""
    latest = latest_action(inp)
    if latest is None or latest.capability != "reminders":
        return None
    found = _CORRECTION.match(text)
    rest = (found.group("rest") or found.group("rest2")) if found else None
    if rest is None and _SAID_ACTUALLY.match(inp.message):
        rest = text  # "actually tomorrow": the lead-in word is already set aside
    if rest is not None:
        parsed = parse_when(f"at {rest}" if BARE_HOUR.match(rest) else rest, inp)
        if parsed.found and not re.sub(r"[\W_]+", "", parsed.remainder):
            return f"move it {rest}"
        if parsed.found:
            return None  # a new title with a time in it: asked
    new = replacement_title(text)
    return f"change it to {new}" if new else None


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


#: "actually it's sunshine43", "no, it's 4312", "sorry, it is X", "בעצם זה X", "לא, זה X": the
#: note just saved, said again.
_NOTE_SAID_AGAIN = re.compile(
    r"^\W*(?:(?:actually|oops|no|nope|sorry|my\s+bad|wait|correction|בעצם|אופס|לא|סליחה|טעיתי|רגע|תיקון)[\s,!.:-]+)+"
    r"(?:it'?s|it\s+is|its|that'?s|that\s+is|זה|הוא|היא)\s+(?P<value>\S.*?)\s*[.!]?$",
    re.I,
)


#: "no it's actually 4312", "it's really 4312": the value, without the word that hedges it.
_STILL_HEDGING = re.compile(r"^(?:actually|really|in\s+fact|באמת|בעצם)[\s,]+", re.I)


def note_said_again(text: str, inp: PlannerInput) -> Match | None:
    """ "save a note: wifi password is sunshine42" -> "actually it's sunshine43": that note, its value
    replaced ("wifi password is sunshine43", approved first). Only right after a note was saved."""
    latest = latest_action(inp)
    if latest is None or (latest.capability, latest.action) != ("notes", "save"):
        return None
    if inp.now - latest.created_at > _SOON:
        return None
    said = _NOTE_SAID_AGAIN.match(inp.message.strip()) or _NOTE_SAID_AGAIN.match(text)
    if said is None:
        return None
    saved = named_in(latest.summary)
    value = _STILL_HEDGING.sub("", said.group("value")).strip()
    if has_a_value(saved):
        changes: dict[str, object] = {"text": value}
    else:
        # "buy a gift for dana" -> "actually it's for noa": which words it replaces is a guess, so the
        # note as it would then read is asked about first, and exactly that is written ("whole"; the
        # saved text may also be cut short in the summary, so its value part is not looked for).
        changes = {"text": value, "whole": True}
    return Match(
        capability="notes",
        action="update",
        confidence=REFERENTIAL if "whole" not in changes else GUESS,
        risk="medium",
        constraints={"targetRef": "latest_action", "target": saved},
        changes=changes,
        pattern="ref:note_said_again",
    )


def referential(text: str, inp: PlannerInput) -> Match | PlannerResult | None:
    if a_time_for_the_reminder_just_set(text, inp.latest_actions, inp.now):
        # "remind me every morning to water the plants" (09:00) -> "8": move it to 8? (confirmed)
        found = _referential(f"make it {_nearer_half(clean(text), inp)}", inp)
        if not isinstance(found, Match):
            return found
        # Just set: a repeating one is corrected as a whole ("every morning" -> "8": every morning at 8).
        return replace(found, confidence=GUESS, constraints={**found.constraints, "scope": "series"})
    return _referential(text, inp)


def _renamed(latest: LatestAction, title: str, when: Mapping[str, object] | None = None) -> Match:
    """The latest item, given a new title (and, for a reminder, a new time)."""
    return Match(
        capability=latest.capability,
        action="update",
        confidence=REFERENTIAL,
        risk="medium",
        constraints={"targetRef": "latest_action", "target": named_in(latest.summary)},
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
    latest = latest_action(inp)
    both = _retitled_and_moved(text, inp)
    if both is not None:
        return both
    text = _correction(text, inp) or text
    if _RE_REF_DELETE.match(text):
        if latest is None:
            # "delete it" with nothing recent to point at: ask what the user means.
            return unclear(text)
        plural = bool(_PLURAL_REF.search(text))
        place = {"refPlace": "last"} if _LAST_REF.search(text) else {}
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
            constraints={
                "targetRef": "latest_action",
                "target": named_in(latest.summary),
                **({"plural": True} if plural else {}),
                **place,
            },
            pattern="ref:delete",
        )
    rename = _RE_REF_RENAME.match(text)
    if rename and not _names_a_time(rename.group("new")):
        if latest is None:
            return unclear(text)
        return _renamed(latest, as_title(rename.group("new")))
    move = _RE_REF_MOVE.match(text)
    if move:
        shift = shift_of(text.split()[0], move.group("rest"))
        if shift is not None and not shift[1]:
            # "push it by an hour", "תדחה את זה בחצי שעה": the reminder's own time, moved.
            reminder = latest_action(inp, "reminders")
            if reminder is None:
                return unclear(text)
            return Match(
                capability="reminders",
                action="update",
                confidence=REFERENTIAL if reminder is latest else 0.75,
                risk="medium",
                constraints={"targetRef": "latest_action", "target": named_in(reminder.summary)},
                changes={"shiftMinutes": shift[0]},
                pattern="ref:shift",
            )
        rest = move.group("rest")
        if BARE_HOUR.match(rest):
            rest = f"at {rest}"  # "make it 6", "change it to 17:30": a time of day
        duration = BARE_DURATION.match(rest)
        if duration is not None:
            # "in an hour" -> "actually make it 45 minutes": 45 minutes from now, for a reminder
            # due soon (later ones were not set by an amount of time, so the words are asked).
            reminder = latest_action(inp, "reminders")
            if reminder is None or reminder.when is None or reminder.when - inp.now > _SOON:
                return unclear(text)
            rest = f"{'בעוד' if has_hebrew(rest) else 'in'} {duration.group('amount')}"
        retitled = _RE_RETITLE.match(rest)
        if retitled and latest is not None and not _names_a_time(rest):
            # "change it to call dad": no time in it, so the words are the new title.
            return _renamed(latest, as_title(retitled.group("new")))
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
        if parsed.recurrence is not None and parsed.when is None and reminder.when is not None:
            # "make it every day", "make it repeat every week": the reminder's own time of day,
            # repeating from its next time on (it was asked "when?", and the repetition was lost).
            when = _next_at_its_time(reminder.when, inp)
            changes = {"when": iso(when), "recurrence": parsed.recurrence}
        return Match(
            capability="reminders",
            action="update",
            confidence=REFERENTIAL if reminder is latest else 0.75,
            risk="medium",
            constraints={"targetRef": "latest_action", "target": named_in(reminder.summary)},
            changes=changes,
            missing=() if when is not None else ("reminder_time_required",),
            pattern="ref:move",
        )
    return None


_SOON = timedelta(hours=12)


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
#: Words of a time the parser did not read ("change it to the evening"): never a new title.
_TIMEISH = re.compile(
    r"\d|\b(?:morning|afternoon|evening|night|noon|midnight|today|tonight|tomorrow|tmrw|week|weekend|month|"
    r"year|day|daily|weekly|monthly|later|earlier|sooner|am|pm|o'?clock|hour|minutes?|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b|"
    r"בוקר|ערב|לילה|צהריים|צהרים|מחר|היום|הערב|שבוע|חודש|שנה|יום|שעה|דקות|מאוחר|מוקדם",
    re.I,
)


#: "and again in 4 hours", "remind me about it again tomorrow", "ושוב בעוד 4 שעות": the reminder just
#: set, once more at another time.
_RE_AGAIN = re.compile(
    r"^(?:(?:and|also|then)\s+)?(?:remind\s+me\s+)?(?:(?:about\s+)?(?:it|that|this)\s+)?(?:again|once\s+more)"
    r"[\s,]+(?P<rest>\S.*)$"
    r"|^ו?(?:(?:תזכיר|תזכירי)\s+לי\s+)?(?:(?:על\s+)?(?:זה|זאת)\s+)?(?:שוב|עוד\s+פעם)[\s,]+(?P<he>\S.*)$",
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
    parsed = parse_when(found.group("rest") or found.group("he"), inp)
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
    if when is not None and when > inp.now:
        constraints["when"] = iso(when)
    elif parsed.day is not None:
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


_RE_BARE_DELETE = re.compile(rf"^(?:{DELETE_EN}|{DELETE_HE})\s+(?:the\s+|my\s+|את\s+)?(?P<target>.+)$", re.I)
#: "stop the 8pm one", "turn off the morning one", "תעצור את זו של שמונה": a repeating reminder, by its time.
_RE_STOP_THE_ONE = re.compile(
    r"^(?:stop|turn\s+off|disable|(?:תעצור|תעצרי|תפסיק|תפסיקי|תכבה|תכבי)\s+(?:את\s+)?)\s*(?:the\s+|my\s+)?(?P<target>.+)$",
    re.I,
)
#: "the 8pm one", "the morning one", "זו של שמונה בערב": what is left once "the ... one" is set aside
_BY_TIME_WORDS = re.compile(r"^(?:זו|זאת|זה|הזו|הזאת)?\s*(?:של\s+)?", re.I)


def _a_reminder_by_its_time(target: str) -> bool:
    """ "8pm", "the evening", "שמונה בערב": the words name a time and nothing else: only a reminder
    has one, and entity resolution picks it by that time (`memo.hitl.by_time`)."""
    from datetime import UTC

    from memo.planner.timeparse import extract_when

    words = _BY_TIME_WORDS.sub("", target).strip()
    if not words:
        return False
    language = "he" if has_hebrew(words) else "en"
    now = datetime.now(UTC)
    # As said, or as it would be said in full: "the 9 one" (at 9), "זו של שמונה בערב" (בשמונה בערב),
    # "the evening one" (in the evening).
    ways = (words, f"ב{words}") if language == "he" else (words, f"at {words}", f"in the {words}")
    for way in ways:
        parsed = extract_when(way, now=now, timezone="UTC", language=language)
        if parsed.found and parsed.recurrence is None and not clean(parsed.remainder).strip(" .,!?"):
            return True
    return False


def stop_by_time(text: str, inp: PlannerInput) -> Match | None:
    """ "stop the 8pm one": the reminder at that time, every time it comes (approved first)."""
    match = _RE_STOP_THE_ONE.match(text)
    if not match:
        return None
    target = clean(the_one_named(match.group("target")))
    if not _a_reminder_by_its_time(target):
        return None
    return Match(
        capability="reminders",
        action="delete",
        confidence=CONFIDENT,
        risk="high",
        constraints={"target": target, "scope": "series"},
        pattern="reminders:stop_by_time",
    )


def noun_less_delete(text: str, inp: PlannerInput) -> Match | None:
    match = _RE_BARE_DELETE.match(text)
    if not match:
        return None
    said = clean(the_one_named(match.group("target")))
    if _a_reminder_by_its_time(said):
        # "cancel the 8pm one": only a reminder has a time; which one is found by it, then approved.
        return Match(
            capability="reminders",
            action="delete",
            confidence=CONFIDENT,
            risk="high",
            constraints={"target": said},
            pattern="reminders:delete_by_time",
        )
    target = as_title(said)
    from rapidfuzz import fuzz

    for action in inp.latest_actions:
        if fuzz.partial_ratio(target.lower(), action.summary.lower()) >= 80:
            return Match(
                capability=action.capability,
                action="delete",
                confidence=0.8,
                risk="high",
                constraints={"target": target},
                pattern="delete:latest_match",
            )
    return Match(
        capability="reminders",
        action="delete",
        confidence=GUESS,
        risk="high",
        constraints={"target": target},
        pattern="delete:guess",
    )
