"""Matching a target's words against the user's items (`memo.text.matching`, English and Hebrew).

`by_text` matches one phrase (plural words on a delete take every match); `by_texts` matches each
list item of "remove milk and eggs" on its own; `at_time` and `in_part_of_day` find a reminder by
the time the words name ("the 8pm one", "the evening one") when no title has those words.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from memo.capabilities.items import Reminder
from memo.domain import PlanStep, TurnState
from memo.hitl.by_time import named_by_time
from memo.hitl.templates import MAX_OPTIONS
from memo.resolution.candidates import (
    MULTI_ACTIONS,
    Ambiguous,
    Entity,
    Found,
    Lookup,
    Missing,
    candidate,
    not_counted_text,
    not_found_text,
)
from memo.resolution.resolvers import TargetQuery
from memo.text.language import Language
from memo.text.list_counts import GONE, UNCLEAR, counted, left_after
from memo.text.matching import Scored, match, rank, stem, tokens


def by_text(step: PlanStep, target: TargetQuery, entities: list[Entity[Any]], language: Language) -> Lookup:
    text = target.text or ""
    multi = target.plural and step.action in MULTI_ACTIONS
    if multi:
        ranked = rank(text, entities, lambda e: e.label)
        if not ranked:
            return Missing(not_found_text(target.kind, [text], language))
        if len(ranked) == 1:
            return Found([ranked[0].item.id])
        # Every match, however many: the picker lists the first rows and "all" means all of them.
        return Ambiguous([candidate(s.item) for s in ranked], allow_multiple=True)
    outcome = match(text, entities, lambda e: e.label)
    if outcome.unique is not None:
        return Found([outcome.unique.id])
    if not outcome.found:
        return Missing(not_found_text(target.kind, [text], language))
    return Ambiguous([candidate(s.item) for s in outcome.matches[:MAX_OPTIONS]], allow_multiple=False)


def by_texts(target: TargetQuery, entities: list[Entity[Any]], language: Language) -> Lookup:
    """Several list items ("remove milk and eggs"): each word is matched on its own."""
    resolved: list[str] = []
    missing: list[str] = []
    ambiguous: dict[str, Entity[Any]] = {}
    lower: dict[str, dict[str, str]] = {}  # "one tomato" off "3 tomatoes": that line, then "2 tomatoes"
    unclear: list[str] = []  # "one milk" off "2 liters of milk": left as it is
    for text in target.texts:
        thing = counted(text).thing  # "עגבניה אחת" names the line "3 עגבניות" too
        outcome = match(thing, entities, lambda e: e.label)
        chosen = outcome.unique if outcome.unique is not None else _named_whole(thing, outcome.matches)
        left = left_after(chosen.label, text) if chosen is not None else GONE
        if chosen is not None and left == UNCLEAR:
            unclear.append(chosen.label)
        elif chosen is not None:
            resolved.append(chosen.id)
            lower.update({chosen.id: {"was": chosen.label, "left": left}} if left != GONE else {})
        elif outcome.found:
            for scored in outcome.matches:
                ambiguous.setdefault(scored.item.id, scored.item)
        else:
            missing.append(thing)  # "2 tomatoes" on no list: "tomatoes" is not there
    for entity_id in resolved:
        ambiguous.pop(entity_id, None)
    if not resolved and not ambiguous:
        if unclear and not missing:
            return Missing(not_counted_text(unclear, language), left_as_is=True)
        return Missing(not_found_text(target.kind, missing, language))
    counts = {key: said for key, said in (("lower", lower), ("unclear", unclear)) if said}
    extra = {"resolvedIds": resolved, "notFound": missing, **counts}
    if ambiguous:
        candidates = [candidate(e) for e in list(ambiguous.values())[:MAX_OPTIONS]]
        return Ambiguous(candidates, allow_multiple=True, extra=extra)
    return Found(resolved, extra={"notFound": missing, **counts})


def _named_whole(text: str, matches: tuple[Scored[Entity[Any]], ...]) -> Entity[Any] | None:
    """Of the list items a word matches, the one it names whole: "eggs" is the item "eggs", not
    also "egg noodles", which has every word of it and more (two items of those very words are
    still asked about)."""
    said = [stem(w) for w in tokens(text)]
    whole = [s.item for s in matches if [stem(w) for w in tokens(s.item.label)] == said]
    return whole[0] if len(whole) == 1 else None


def by_reminder_time(
    target: TargetQuery, entities: list[Entity[Any]], state: TurnState, now: datetime
) -> Lookup | None:
    """ "cancel the 8pm one", "זו של שמונה בערב": no title has those words, but one reminder has that
    time (or several that part of the day: which one is asked). None when the words name no time."""
    words = target.text or ""
    timed = at_time(words, entities, state, now)
    if len(timed) == 1:
        return Found([timed[0].id])
    if timed:  # "the 3pm one" with two at 3pm: which one is asked
        return Ambiguous([candidate(e) for e in timed[:MAX_OPTIONS]], allow_multiple=False)
    named = by_time_and_title(target, entities, state, now)
    if named is not None:
        return named
    within = in_part_of_day(words, entities, state.input.timezone)
    if len(within) == 1:
        return Found([within[0].id])
    if within:  # "the evening one" with two that evening: which one is asked
        return Ambiguous([candidate(e) for e in within[:MAX_OPTIONS]], allow_multiple=False)
    return None


#: The most words a reminder's time takes when it names the reminder beside its title words.
_TIME_WORDS = 4


def by_time_and_title(
    target: TargetQuery, entities: list[Entity[Any]], state: TurnState, now: datetime
) -> Lookup | None:
    """ "the 3pm water", "the dentist from 3", "tuesday dentist": a reminder named by its time and
    some of its title's words, the time first or last. Of the reminders at that time, the title
    words pick one (or several, asked); None when no time at either end of the words fits one."""
    words = (target.text or "").split()
    for size in range(1, min(_TIME_WORDS, len(words) - 1) + 1):
        # the time words first or last: at most `_TIME_WORDS` of them ("tomorrow at 3pm")
        for at, title in ((words[:size], words[size:]), (words[-size:], words[:-size])):
            timed = at_time(" ".join(at), entities, state, now)
            if not timed:
                continue
            named = match(" ".join(title), timed, lambda e: e.label)
            if named.unique is not None:
                return Found([named.unique.id])
            if named.found:
                return Ambiguous(
                    [candidate(s.item) for s in named.matches[:MAX_OPTIONS]], allow_multiple=False
                )
    return None


#: "the morning one", "זו של הערב": a part of the day, as the hours it spans (local, end excluded).
_PARTS = (
    (re.compile(r"^(?:the\s+)?morning$|^(?:של\s+)?ה?בוקר$", re.I), 5, 12),
    (re.compile(r"^(?:the\s+)?afternoon$|^(?:של\s+)?(?:אחר\s+הצהריים|אחה\"צ)$", re.I), 12, 17),
    (re.compile(r"^(?:the\s+)?evening$|^(?:של\s+)?ה?ערב$", re.I), 17, 21),
    (re.compile(r"^(?:the\s+)?night$|^(?:של\s+)?ה?לילה$", re.I), 21, 29),
)


def in_part_of_day(words: str, entities: list[Entity[Any]], timezone: str) -> list[Entity[Any]]:
    """The reminders due in the part of the day the words name ("the morning one"); [] when the
    words name none."""
    zone = ZoneInfo(timezone)
    for pattern, first, end in _PARTS:
        if pattern.match(words.strip()):
            hours = {h % 24 for h in range(first, end)}
            return [
                e
                for e in entities
                if isinstance(e.item, Reminder) and e.item.due_at.astimezone(zone).hour in hours
            ]
    return []


def at_time(words: str, entities: list[Entity[Any]], state: TurnState, now: datetime) -> list[Entity[Any]]:
    """The reminders whose time the words name (`memo.hitl.by_time`): [] when they name no time."""
    language = state.input.language
    candidates = [candidate(e) for e in entities]
    ways = (words, f"ב{words}") if language == "he" else (words, f"in the {words}")
    for way in ways:
        fits = named_by_time(way, candidates, now=now, timezone=state.input.timezone, language=language)
        if fits:
            return [entities[i] for i in fits]
    return []
