"""A request inside the answer to a question: read by the rule planner (passed in), so an answer
that carries a request of its own is never taken for a bare yes or a bare value.

- `is_new_request`: the answer is a complete request on its own (switch intent);
- `yes_and_more`: "yes, and remind me to ..." (one at a time: asked again);
- `redated_guess`: "no, the 15th" to a "just to check" of a guessed time (that day instead);
- `retitled_request`: "no, call mom instead" to "When?" (the title replaced);
- `completed_request`: "to buy stamps" to "What about?" (the request read again, whole);
- `retimed_request`: "no wait, 7pm" to "What about?" (the request at that time, its title asked);
- `cancels_another`: "cancel the call mom reminder" to another question (a delete of its own).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from memo.domain import (
    LIST_ITEMS_REQUIRED,
    LIST_NAME_REQUIRED,
    PendingHITL,
    PlannerOutput,
    PlanStep,
    TurnState,
)
from memo.hitl import narrowing
from memo.hitl.complete_request import is_complete_request
from memo.hitl.plan_edits import bare_edit, origin_step, says_more
from memo.hitl.transitions import removes
from memo.planner.base import Planner, PlannerInput
from memo.text.language import detect_language


def is_new_request(
    raw: str,
    state: TurnState,
    now: datetime,
    rules: Planner,
    *,
    allow_missing: bool = False,
    allow_guess: bool = False,
) -> bool:
    """A message that is a complete request on its own, read in its own language (`allow_missing`:
    or a request that still lacks a detail, such as "remind me tomorrow"; `allow_guess`: or one
    the planner only guesses at, which its own turn confirms or asks about before it runs)."""
    return is_complete_request(
        raw,
        now=now,
        timezone=state.input.timezone,
        language=detect_language(raw, state.input.language),
        allow_missing=allow_missing,
        allow_guess=allow_guess,
        rules=rules,
    )


_NO_THEN = re.compile(
    r"^\W*(?:no|nope|nah|not\s+that(?:\s+one)?|לא)\b[\s,!.:-]+(?P<rest>\S.*)$"
    # "yes but at 8", "כן אבל בשמונה": the guess is right but for its time
    r"|^\W*(?:yes|yeah|yep|ok(?:ay)?|sure|כן|אוקיי?|בסדר)\b[\s,!.]*(?:but|אבל)\s+(?P<but>\S.*)$",
    re.I,
)
#: "no, the one after", "the week after", "לא, בשבוע שאחרי": the same day a week later.
_WEEK_LATER = re.compile(
    r"^(?:the\s+)?(?:one|week|tuesday|wednesday|thursday|friday|saturday|sunday|monday)\s+after(?:\s+that)?|"
    r"^(?:a\s+week\s+later|next\s+week(?:'?s)?(?:\s+one)?)|^(?:ב?שבוע\s+שאחרי|ב?שבוע\s+הבא|זה\s+שאחרי|שבוע\s+אחרי)",
    re.I,
)


_YES_AND = re.compile(
    r"^\W*(?:yes|yeah|yep|sure|ok(?:ay)?|go\s+ahead|approve[d]?|כן|בטח|אוקיי?|סבבה|מאשר[ת]?)\b[\s,!.;:-]*"
    r"(?:(?:(?:and|also|plus|then|&)\s+)+|ו(?:גם\s+)?(?=\S)|גם\s+)?(?P<rest>\S.*)$",
    re.I,
)


def yes_and_more(raw: str, state: TurnState, pending: PendingHITL, now: datetime, rules: Planner) -> bool:
    """A yes with a request of its own after it ("yes, and remind me to call mom at 5", "yes, and
    add eggs too", even one Memo would confirm first, and "yes, and also delete the mom one" when
    that reminder was not shown); not a yes that says the approved removal again with some of the
    items shown ("yes, delete the call mom reminder": a narrowing, `narrowing.parse`)."""
    found = _YES_AND.match(raw.strip())
    if found is None:
        return False
    rest = found.group("rest")
    language = detect_language(rest, state.input.language)
    output = rules.plan(
        PlannerInput(message=rest, now=now, timezone=state.input.timezone, language=language)
    ).output
    if output.intent_type != "operation" or not output.plan or "intent_unclear" in output.missing_fields:
        return False  # "yes, thanks", "yes please do": no request of its own
    step = origin_step(state, pending)
    # Only a removal is narrowed by naming its items; any other request after a yes is one more.
    narrows = (
        step is not None
        and removes(step)
        and all(p.capability == step.capability and removes(p) for p in output.plan)
    )
    if not narrows:
        return True
    # The removal said again narrows only with what was shown; naming anything else is one more
    # removal ("yes and also delete the mom one"), which the yes would silently leave undone.
    shown = (pending.context.candidates if pending.context else None) or []
    named = narrowing.parse(
        rest, shown, now=now, timezone=state.input.timezone, language=language, removal=True
    )
    return named is None or named.unresolved or not named.ids


def of_several(state: TurnState, pending: PendingHITL) -> bool:
    """A question about several requests that is no approval (a "Just to check")."""
    output = state.planner_output
    return pending.kind != "approval" and output is not None and len(output.plan) > 1


def redated_guess(
    state: TurnState, pending: PendingHITL, raw: str, now: datetime
) -> tuple[PlanStep, dict[str, Any]] | None:
    """ "Just to check — a reminder for Tue 8 Dec, 10:00?" answered "no, the 15th" or "no, the one
    after": the new time of the reminder to create (only its time changes); None for anything else
    (a plain "no" cancels)."""
    said = _NO_THEN.match(raw.strip())
    step = origin_step(state, pending)
    if (
        said is None
        or pending.reason != "low_confidence_plan"
        or step is None
        or (step.capability, step.action) != ("reminders", "create")
        or not isinstance(step.constraints.get("when"), str)
    ):
        return None
    rest = (said.group("rest") or said.group("but")).strip(" .!")
    if re.fullmatch(r"\d{1,2}(?::\d{2})?", rest):
        rest = f"at {rest}"  # "no, 9": an hour
    if _WEEK_LATER.match(rest):
        guessed = datetime.fromisoformat(str(step.constraints["when"]))
        return step, {"when": (guessed + timedelta(days=7)).isoformat()}
    mods = bare_edit(rest, step, state, now)
    if not mods or set(mods) - {"when"}:
        return None
    return step, mods


def retitled_request(state: TurnState, pending: PendingHITL, raw: str, now: datetime) -> str | None:
    """ "remind me to call dad" -> "When?" -> "no, call mom instead" (or "i meant call mom
    tomorrow"): the request with its title replaced by the answer's words, when the answer says it
    replaces and the request says the title word for word; None otherwise."""
    from memo.planner.intents.corrections import replacement_title

    step = origin_step(state, pending)
    new = replacement_title(raw.strip(), with_time=True)
    if step is None or new is None or (step.capability, step.action) != ("reminders", "create"):
        return None
    if _only_a_time(new, state, now):
        return None  # "sorry i meant 7pm": a time (`retimed_request`, the fast path), never a title
    old = step.constraints.get("title")
    message = state.input.message
    if not isinstance(old, str) or not old or old not in message:
        return None
    return message.replace(old, new, 1)


#: An answer that corrects or takes away ("actually without the bread", "בעצם בלי הלחם", "no, not
#: milk"): never more words of the request (it would add "לחם בעצם בלי הלחם" as an item).
_CORRECTS = re.compile(
    r"^\W*(?:actually|no|nope|wait|oops|sorry|scratch\s+that|בעצם|לא|רגע|אופס|סליחה)(?=[\s,!.]|$)"
    r"|\b(?:without|minus|except|not)\b|(?:^|\s)(?:בלי|חוץ\s+מ|מלבד)",
    re.I,
)


_EVERY_DAY = re.compile(
    r"^(?:(?:ok|okay|yes|כן)[,\s]+)?(?:every\s*day|daily|each\s+day|כל\s+יום|מדי\s+יום|כל\s+הימים)[.!]?$",
    re.I,
)


def _without_days(message: str, state: TurnState, now: datetime) -> str:
    """`message` without the words that name the days of its repetition ("on weekdays", "בימי חול")."""
    from memo.text.recurrence import find_recurrence

    zone = ZoneInfo(state.input.timezone)
    found = find_recurrence(
        message, timezone=state.input.timezone, now_local=now.astimezone(zone), language=state.input.language
    )
    for start, end in sorted(found.spans if found else (), reverse=True):
        alone = find_recurrence(
            message[start:end],
            timezone=state.input.timezone,
            now_local=now.astimezone(zone),
            language=state.input.language,
        )
        if alone is not None and alone.recurrence.weekdays and alone.recurrence.window is None:
            message = " ".join(f"{message[:start]} {message[end:]}".split())
    return message


def completed_request(state: TurnState, raw: str, now: datetime, rules: Planner) -> str | None:
    """The original request with the answer appended, when that reads as the same operation with
    fewer missing parts than before, or as many but more known ("remind me to stretch" -> "When?"
    -> "every sunday": it repeats, the time is still asked); None otherwise (the interpreter
    decides)."""
    from memo.planner.intents.reminders import after_remind_words

    before = state.planner_output
    if before is None or not before.plan or not raw.strip() or _CORRECTS.search(raw.strip()):
        return None
    # "remind me tomorrow" -> "what about?" -> "remind me to buy stamps": the answer's own
    # "remind me" is not part of the title.
    message = state.input.message.strip()
    if "day_unclear" in before.missing_fields:
        # "remind me on her birthday to call noa" -> "Which day is that?" -> "december 3": the day
        # answered takes the place of the words that named it ("on her birthday" is no title).
        from memo.planner.when.day_phrases import take_unplaced
        from memo.planner.when.scan import Scan, tidy

        scan = Scan(message)
        if take_unplaced(scan):
            message = tidy(scan.text)
    if "repeat_over_midnight" in before.missing_fields and _EVERY_DAY.match(raw.strip()):
        # "... from 10pm to 2am on weekdays" -> "every day or by midnight?" -> "every day": the
        # days said give way to every day.
        message = _without_days(message, state, now)
    if (
        _titled_anew(before, raw, now, state, rules)
        or _REMIND_LATER.search(raw)
        or _beside_a_title(before, raw, now, state)
        or _adds_nothing(before, raw)
        or _TAKES_AWAY.match(raw.strip())
    ):
        return None
    combined = f"{message} {after_remind_words(raw)}"
    output = rules.plan(
        PlannerInput(message=combined, now=now, timezone=state.input.timezone, language=state.input.language)
    ).output
    if output.intent_type != "operation" or not output.plan or "intent_unclear" in output.missing_fields:
        return None
    same = [(p.capability, p.action) for p in output.plan] == [(p.capability, p.action) for p in before.plan]
    if not same or len(output.missing_fields) > len(before.missing_fields):
        return None
    fewer = len(output.missing_fields) < len(before.missing_fields)
    more_known = any(
        set(new.constraints) > set(old.constraints) for new, old in zip(output.plan, before.plan, strict=True)
    )
    return combined if fewer or more_known else None


#: "at 5 and also remind me to water plants": a second request after the answer, never more words
#: of the one asked about.
_REMIND_LATER = re.compile(r"\S.*?\b(?:remind\s+me|תזכיר(?:י)?\s+לי)\b", re.I)


#: "delete them", "undo that", "תמחק את זה": a request that takes something away, never the words
#: of the thing asked about ("it delete them" is no reminder).
_TAKES_AWAY = re.compile(
    r"(?:please\s+)?(?:delete|remove|erase|clear|undo|cancel)\s+(?:them|it|that|this|those|these|all|everything)\b"
    r"|(?:תמחק|תמחקי|תבטל|תבטלי|תוריד|תורידי|מחק|בטל)\s+(?:אותם|אותן|אותו|אותה|את\s+זה|את\s+הכל|הכל|זה)(?=\s|$|[.!?])",
    re.I,
)


def _adds_nothing(before: PlannerOutput, raw: str) -> bool:
    """ "add to my shopping list" -> "What should I add?" -> "add" (or "תוסיף"): the request's own
    verb again names no item, and the request read with it would add the verb itself; an answer to
    "Which list?" that names none is no more of the request either."""
    from memo.planner.intents.lists import answered_items, answered_list_name  # the planner's own words

    if LIST_NAME_REQUIRED in before.missing_fields and answered_list_name(raw) is None:
        return True  # "take bread off the list" to "Which list should I take it off?": a request of its own
    return LIST_ITEMS_REQUIRED in before.missing_fields and not answered_items(raw)


def _beside_a_title(before: PlannerOutput, raw: str, now: datetime, state: TurnState) -> bool:
    """ "remind me to buy milk" -> "When?" -> "5pm buy the new charger for dad": the reminder has its
    title, and the words beside the answer's time say more: a request of their own, never more title."""
    from memo.planner.timeparse import extract_when

    if not any(step.constraints.get("title") for step in before.plan):
        return False
    parsed = extract_when(raw, now=now, timezone=state.input.timezone, language=state.input.language)
    return parsed.found and says_more(parsed.remainder)


def _titled_anew(before: PlannerOutput, raw: str, now: datetime, state: TurnState, rules: Planner) -> bool:
    """ "remind me to email the boss" -> "When?" -> "remind me to book a haircut on friday": a
    reminder of its own (its own title), never more words of the titled one asked about."""
    from memo.planner.intents.reminders import after_remind_words

    titled = [step.constraints.get("title") for step in before.plan if step.action == "create"]
    if not any(titled) or after_remind_words(raw).strip() == raw.strip():
        return False
    alone = rules.plan(
        PlannerInput(message=raw, now=now, timezone=state.input.timezone, language=state.input.language)
    ).output
    return any(step.action == "create" and step.constraints.get("title") for step in alone.plan)


#: "cancel the call mom reminder", "delete the dentist one", "תבטל את התזכורת של אמא": a cancel word
#: that names something.
_CANCEL_NAMED = re.compile(
    r"^\W*(?:(?:no|wait|actually|please|לא|רגע|בעצם)[\s,!.]+)*"
    r"(?:cancel|delete|remove|תבטל|תבטלי|בטל|תמחק|תמחקי|מחק)\s+(?P<named>\S.*)$",
    re.I,
)
#: Words that name no particular thing: "the", "reminder", "של", "התזכורת".
_NAMING_FILLER = frozenset(
    {"the", "a", "my", "that", "this", "it", "reminder", "one", "for", "to", "about",
     "את", "של", "זה", "זאת", "התזכורת", "תזכורת", "ה", "ל"}
)  # fmt: skip


def _words(text: str) -> set[str]:
    """The words of `text`, each also without a Hebrew prefix letter ("הפרחים" is "פרחים")."""
    words = set(re.findall(r"\w+", text.lower()))
    return words | {w[1:] for w in words if len(w) > 3 and w[0] in "הלבוש"}


def _subject(state: TurnState, pending: PendingHITL, step: PlanStep | None) -> set[str]:
    """The words that name what the open question is about: its request's title, items and list,
    and the items an approval shows."""
    said: list[str] = []
    if step is not None:
        for value in (
            step.constraints.get("title"),
            step.constraints.get("listName"),
            (step.changes or {}).get("items"),
        ):
            said.extend(str(v) for v in (value if isinstance(value, list) else [value]) if v)
    shown = (pending.context.candidates if pending.context else None) or []
    said.extend(c.label for c in shown)
    return _words(" ".join(said))


def _narrows_the_removal(raw: str, state: TurnState, pending: PendingHITL, now: datetime) -> bool:
    """ "cancel the first one", "delete 2" to a question about a removal: it picks among the items
    shown, a narrowing of that removal, never a request of its own."""
    shown = (pending.context.candidates if pending.context else None) or []
    picked = narrowing.parse(
        raw, shown, now=now, timezone=state.input.timezone, language=state.input.language, removal=True
    )
    return picked is not None and not picked.unresolved


def cancels_another(raw: str, state: TurnState, pending: PendingHITL, now: datetime, rules: Planner) -> bool:
    """ "cancel the call mom reminder" while "Just to check — add milk?" (or "clear the shopping
    list?") is open: a request of its own (the delete of what it names, asked as usual), never a
    "no" to the open question. Not when it names the open question's own subject ("cancel the
    flowers" to the flowers' question, "remove the milk" to the list clear showing milk), nor when
    it picks among the items a removal's question shows (a narrowing)."""
    found = _CANCEL_NAMED.match(raw.strip())
    step = origin_step(state, pending)
    if found is None:
        return False
    named = _words(found.group("named")) - _NAMING_FILLER
    if not named or named & _subject(state, pending, step):
        return False
    if removes(step) and _narrows_the_removal(raw, state, pending, now):
        return False
    language = detect_language(raw, state.input.language)
    output = rules.plan(
        PlannerInput(message=raw.strip(), now=now, timezone=state.input.timezone, language=language)
    ).output
    return (
        output.intent_type == "operation"
        and bool(output.plan)
        and "intent_unclear" not in output.missing_fields
        and all(removes(p) for p in output.plan)
    )


_MOVE_NAMED = re.compile(
    r"^\W*(?:(?:no|wait|actually|please|also|and|לא|רגע|בעצם|וגם)[\s,!.]+)*"
    r"(?:move|reschedule|push|postpone|delay|shift|bring|תזיז|תזיזי|הזז|תעביר|תעבירי|העבר|תדחה|תדחי|דחה|תקדים|הקדם)"
    r"\s+(?:לי\s+)?(?:את\s+)?(?P<named>\S.*)$",
    re.I,
)


def moves_another(raw: str, state: TurnState, pending: PendingHITL, now: datetime, rules: Planner) -> bool:
    """ "move the milk to 6pm" while "Just to check — set a reminder “call the bank” …?" is open: a
    request of its own (the move of the reminder it names), never a new time for the open question's
    reminder (it set "call the bank" at 18:00). Not when it names the open question's own subject
    ("move the bank call to 6"), nor "move it to 6" (the open question's)."""
    found = _MOVE_NAMED.match(raw.strip())
    if found is None:
        return False
    step = origin_step(state, pending)
    language = detect_language(raw, state.input.language)
    output = rules.plan(
        PlannerInput(message=raw.strip(), now=now, timezone=state.input.timezone, language=language)
    ).output
    targets = [p.constraints.get("target") for p in output.plan]
    if (
        output.intent_type != "operation"
        or not output.plan
        or "intent_unclear" in output.missing_fields
        or not all((p.capability, p.action) == ("reminders", "update") for p in output.plan)
        or not all(isinstance(t, str) and t for t in targets)
    ):
        return False
    named = set().union(*(_words(str(t)) for t in targets)) - _NAMING_FILLER
    return bool(named) and not named & _subject(state, pending, step)


#: Words that lead a correction in: "no wait, 7pm", "actually, at 6", "רגע לא, בשבע".
_CORRECTING = re.compile(
    r"^\W*(?:(?:no|nope|wait|actually|oops|sorry|sorry\s+i\s+meant|i\s+meant|לא|רגע|בעצם|אופס|סליחה|התכוונתי)[\s,!.:;-]+)+",
    re.I,
)


def retimed_request(state: TurnState, pending: PendingHITL, raw: str, now: datetime) -> str | None:
    """ "remind me at 5pm" -> "What should I remind you about?" -> "no wait, 7pm": the request at that
    time instead, planned again so its title is still asked (the correction is no title); None for
    anything else."""
    from memo.planner.timeparse import extract_when

    lead = _CORRECTING.match(raw.strip())
    step = origin_step(state, pending)
    if lead is None or step is None or (step.capability, step.action) != ("reminders", "create"):
        return None
    if step.constraints.get("title"):
        return None  # the title is known: a time answer is read by the fast path
    rest = raw.strip()[lead.end() :].strip(" .!")
    zone, language = state.input.timezone, detect_language(rest, state.input.language)
    said = extract_when(rest, now=now, timezone=zone, language=language)
    if not rest or not said.found or re.sub(r"[\W_]+", "", said.remainder):
        return None
    asked = extract_when(state.input.message, now=now, timezone=zone, language=state.input.language)
    if not asked.found:
        return f"{state.input.message.strip()} {rest}"
    # The day said before stays when the correction names none ("tomorrow at 5" -> "no, 7pm").
    days = [
        words
        for words in asked.fragments
        if not said.explicit_day
        and not extract_when(words, now=now, timezone=zone, language=state.input.language).named_time
    ]
    return " ".join([asked.remainder.strip(), *days, rest])


def _only_a_time(words: str, state: TurnState, now: datetime) -> bool:
    """ "7pm", "at 7", "ב-19:00": a time and nothing else."""
    from memo.planner.timeparse import extract_when

    language = detect_language(words, state.input.language)
    said = extract_when(words, now=now, timezone=state.input.timezone, language=language)
    return said.found and not re.sub(r"[\W_]+", "", said.remainder)


def corrects_with_a_request(raw: str, state: TurnState, now: datetime, rules: Planner) -> bool:
    """ "no wait, add napkins to the shopping list instead", "לא, תוסיף מפיות במקום" while a question
    is open: correction words before a complete request of its own, which takes the question's place
    (never a "no" with a reason, never the answer)."""
    from memo.planner.intents.instead import set_aside

    rest, said = set_aside(raw)
    return said and bool(rest) and is_new_request(raw, state, now, rules)


def names_the_list(pending: PendingHITL, raw: str) -> bool:
    """ "the todo list" to "Which list should I add eggs to?": the answer, though it would read as a
    request to show that list on its own."""
    missing = (pending.context.missing_fields if pending.context else None) or []
    if LIST_NAME_REQUIRED not in missing:
        return False
    from memo.planner.intents.lists import answered_list_name  # the planner's own words

    return answered_list_name(raw) is not None


def starts_another_list(pending: PendingHITL, raw: str) -> bool:
    """A list started as the answer to what to add to a list: a request, never the thing added."""
    missing = (pending.context.missing_fields if pending.context else None) or []
    if LIST_ITEMS_REQUIRED not in missing:
        return False
    from memo.planner.intents.list_starts import starts_a_list  # the planner's own words

    return starts_a_list(raw)
