"""The lookup of one step's target among the user's items: by place ("the second item"), on some
list when none was named, by reference ("it/that"), else by its words (and, for a reminder, by the
time they name). Each ends in `Found`, `Ambiguous` or `Missing` (`memo.resolution.candidates`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from memo.capabilities.common import say
from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import LatestAction, PlanStep, TurnState
from memo.resolution.candidates import (
    NONE,
    Ambiguous,
    Entity,
    Found,
    ItemsReader,
    Lookup,
    Missing,
    entities,
)
from memo.resolution.list_names import list_for_position, lists_with_items
from memo.resolution.matching import by_reminder_time, by_text, by_texts
from memo.resolution.position import position
from memo.resolution.references import by_reference
from memo.resolution.resolvers import TargetQuery
from memo.text.language import Language
from memo.text.list_counts import counted
from memo.text.matching import rank
from memo.text.wording import he_list_name, quote


def lookup(
    step: PlanStep,
    target: TargetQuery,
    state: TurnState,
    repository: ItemsReader,
    now: datetime,
    latest_actions: Sequence[LatestAction],
    quoted: Sequence[LatestAction] = (),
    in_flight: bool = False,
) -> Lookup:
    language = state.input.language
    spot = position(target.text or (target.texts[0] if len(target.texts) == 1 else ""))
    if spot is not None and target.kind in ("list_item", "reminder"):
        return at_position(target, spot, state, repository, now)
    spots = [position(text) for text in target.texts] if len(target.texts) > 1 else []
    if spots and target.kind == "list_item" and all(spot is not None for spot in spots):
        return _at_positions(target, [spot for spot in spots if spot is not None], state, repository, now)
    if target.kind == "list_item" and target.list_name in (None, "", UNNAMED_LIST):
        return on_some_list(step, target, state, repository, now)
    items = entities(target, repository, state, now)
    if target.ref == "latest_action":
        bound = by_reference(
            step, target, items, language, latest_actions=latest_actions, quoted=quoted, in_flight=in_flight
        )
        if bound is not None:
            return bound
    if not items:
        en, he = NONE[target.kind]
        return Missing(say(language, en, he))
    if target.texts:
        return by_texts(target, items, language)
    found = by_text(step, target, items, language)
    if isinstance(found, Missing) and target.kind == "reminder" and target.text:
        at = by_reminder_time(target, items, state, now)
        if at is not None:
            return at
    return found


def _at_positions(
    target: TargetQuery, spots: list[int], state: TurnState, repository: ItemsReader, now: datetime
) -> Lookup:
    """ "remove items 2 and 3": the items at those places, all of them or none (a place past the
    end is said, as for one). The list is read once."""
    listed = _listed(target, state, repository, now)
    if isinstance(listed, Missing):
        return listed
    target, items = listed
    ids: list[str] = []
    for spot in spots:
        found = _at(target, items, spot, state.input.language)
        if not isinstance(found, Found):
            return found
        ids += [i for i in found.ids if i not in ids]
    return Found(ids, extra={"listName": target.list_name} if target.kind == "list_item" else {})


def at_position(
    target: TargetQuery, spot: int, state: TurnState, repository: ItemsReader, now: datetime
) -> Lookup:
    """ "The second item", "הפריט האחרון": the item at that place in the order Memo shows them (a
    list as its items were added, reminders soonest first). A list left unnamed is the one list
    that has items; with several, which list is asked, never guessed."""
    listed = _listed(target, state, repository, now)
    if isinstance(listed, Missing):
        return listed
    target, items = listed
    return _at(target, items, spot, state.input.language)


def _listed(
    target: TargetQuery, state: TurnState, repository: ItemsReader, now: datetime
) -> tuple[TargetQuery, list[Entity[Any]]] | Missing:
    """The target with its list named (the one list that has items, when none was) and the items in
    the order Memo shows them."""
    if target.kind == "list_item" and target.list_name in (None, "", UNNAMED_LIST):
        named = list_for_position(state, repository)
        if isinstance(named, Missing):
            return named
        target = target.model_copy(update={"list_name": named})
    return target, entities(target, repository, state, now)


def _at(target: TargetQuery, items: list[Entity[Any]], spot: int, language: Language) -> Found | Missing:
    """The item at `spot` (negative from the end), or how many there are."""
    if -len(items) <= spot < len(items):
        found = items[spot]
        return Found([found.id], extra={"listName": target.list_name} if target.kind == "list_item" else {})
    if not items:
        if target.kind == "reminder":
            return Missing(say(language, *NONE["reminder"]))
        return Missing(
            say(
                language,
                f"Your {target.list_name} list is empty.",
                f"רשימת {he_list_name(target.list_name)} ריקה.",
            )
        )
    many = len(items)
    if target.kind == "reminder":
        return Missing(
            say(
                language,
                "You have only 1 upcoming reminder."
                if many == 1
                else f"You have only {many} upcoming reminders.",
                "יש לך רק תזכורת קרובה אחת." if many == 1 else f"יש לך רק {many} תזכורות קרובות.",
            )
        )
    return Missing(
        say(
            language,
            f"Your {target.list_name} list has only {'1 item' if many == 1 else f'{many} items'}.",
            f"ברשימת {he_list_name(target.list_name)} יש רק {'פריט אחד' if many == 1 else f'{many} פריטים'}.",
        )
    )


def on_some_list(
    step: PlanStep, target: TargetQuery, state: TurnState, repository: ItemsReader, now: datetime
) -> Lookup:
    """Items named without their list: the one list that has them; none, or several lists, is said
    (the person names the list), never guessed."""
    language = state.input.language
    names = list(lists_with_items(state, repository).values())
    holding: list[tuple[str, Found | Ambiguous]] = []
    kept: list[Missing] = []  # "one milk" with "2 liters of milk" on a list: left as it is, and why
    for name in names:
        found = lookup(step, target.model_copy(update={"list_name": name}), state, repository, now, ())
        if isinstance(found, Ambiguous) or (isinstance(found, Found) and found.ids):
            holding.append((name, found))
        elif isinstance(found, Missing) and found.left_as_is:
            kept.append(found)
    # The things as named ("one new car" bought is a "new car" on no list).
    words = ", ".join(counted(text).thing for text in target.texts) or target.text or ""
    what = quote(words, language)
    if not holding:
        return kept[0] if kept else _on_no_list(words, step.action, state, repository, now)
    if len(holding) > 1:
        lists = ", ".join(sorted(name for name, _ in holding))
        if step.action == "update":
            ask_en, ask_he = "Which list should I change it on?", "באיזו רשימה לשנות?"
        else:
            ask_en, ask_he = "Which list should I take it off?", "מאיזו רשימה להוריד?"
        return Missing(
            say(
                language,
                f"{what} is on more than one list ({lists}). {ask_en}",
                f"{what} מופיע ביותר מרשימה אחת ({lists}). {ask_he}",
            ),
            lists=tuple(sorted(name for name, _ in holding)),
        )
    name, found = holding[0]
    return replace(found, extra={**found.extra, "listName": name})


def _on_no_list(words: str, action: str, state: TurnState, repository: ItemsReader, now: datetime) -> Missing:
    """Words found on no list; when they name a reminder, how to ask for that (the same `action`:
    a change, or a delete) is said."""
    language = state.input.language
    what = quote(words, language)
    reminder = rank(words, repository.list_upcoming_reminders(state.thread_id, now), lambda r: r.title)
    if reminder:
        # "remove the dentist" meant a reminder: say how to ask for that; nothing is deleted on a guess.
        title, named = quote(reminder[0].item.title, language), reminder[0].item.title
        if action == "update":
            how_en = f"To rename it, say e.g. “rename the reminder {named} to …”."
            how_he = f"כדי לשנות את השם שלה, כתבו למשל „תשנה את השם של התזכורת {named} ל-…”."
        else:
            how_en = f"To delete it, say “delete the reminder {named}”."
            how_he = f"כדי למחוק אותה, כתבו „תמחק את התזכורת {named}”."
        return Missing(
            say(
                language,
                f"{what} isn't on your lists. Did you mean the reminder {title}? {how_en}",
                f"{what} לא ברשימות שלך. התכוונת לתזכורת {title}? {how_he}",
            )
        )
    return Missing(
        say(language, f"I couldn't find {what} on your lists.", f"לא מצאתי את {what} ברשימות שלך.")
    )
