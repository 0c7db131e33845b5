"""The caps on what one person keeps, checked over the steps about to run (`memo.capabilities.limits`).

Every decided plan passes here before its execution is built (`memo.turn.execute`): a fresh request,
an answered question, a picked item, an approval. So an answer can never take a request past a cap
that the request itself stayed under. What the steps add is read from their resolved args; what the
person holds is read through the turn's ports, only for a kind of item the request adds to (each list
once per turn, `memo.turn.reads.ReadOnce`).

Counted when the request is turned: a request of the same person still running then (its reminders
not written yet) is not counted, so a burst may pass a cap by the few requests the person's pace lets
run at once.
"""

from __future__ import annotations

from typing import Any

from memo.capabilities.items import list_key
from memo.capabilities.limits import (
    Asked,
    CapReached,
    Held,
    ListAdd,
    reached_by_lists,
    reached_by_reminders,
)
from memo.capabilities.reminder_args import split_scoped
from memo.domain import PlanStep, TurnState
from memo.text.matching import normalize
from memo.turn.reads import Turn


def cap_reached(turn: Turn, state: TurnState) -> CapReached | None:
    """The cap the ready steps of `state` would pass, or None."""
    ready = _ready(state)
    if not ready:
        return None
    reached = reached_by_lists(turn.ports.caps, _list_adds(turn, state, ready))
    if reached is not None:
        return reached
    asked, held = _reminders(turn, state, ready)
    return reached_by_reminders(turn.ports.caps, asked, held)


def _ready(state: TurnState) -> list[tuple[PlanStep, dict[str, Any]]]:
    """The steps the execution would run, with their resolved args."""
    output = state.planner_output
    if output is None:
        return []
    return [
        (step, state.executor_args[step.id])
        for step in output.plan
        if step.id in state.executor_args and step.id not in state.execution_results
    ]


def _list_adds(turn: Turn, state: TurnState, ready: list[tuple[PlanStep, dict[str, Any]]]) -> Asked:
    """The items the message adds, and for each list it adds to, its length and the new items."""
    named: dict[str, tuple[str, list[str]]] = {}
    total = 0
    for step, args in ready:
        name, items = args.get("listName"), args.get("items")
        if step.capability != "lists" or step.action != "add" or not isinstance(name, str):
            continue
        texts = [str(i) for i in items or [] if str(i).strip()]
        total += len(texts)
        said, before = named.get(list_key(name), (name, []))
        named[list_key(name)] = (said, [*before, *texts])
    lists = []
    if total <= turn.ports.caps.list_add_items:  # past it, the message is refused without a read
        for name, texts in named.values():
            held = turn.items.list_items(state.thread_id, name)
            present = {normalize(i.text) for i in held}
            new = {normalize(t) for t in texts} - present - {""}
            lists.append(ListAdd(name=name, held=len(held), new=len(new)))
    return Asked(list_items=total, lists=tuple(lists))


def _reminders(
    turn: Turn, state: TurnState, ready: list[tuple[PlanStep, dict[str, Any]]]
) -> tuple[Asked, Held]:
    """The reminders and repeating reminders the steps add, and those the person holds (read only
    when the steps add any)."""
    creates = [args for step, args in ready if step.capability == "reminders" and step.action == "create"]
    repeats = [args for step, args in ready if step.capability == "reminders" and step.action == "update"]
    repeats = [args for args in repeats if args.get("recurrence")]
    if not creates and not repeats:
        return Asked(), Held()
    upcoming = turn.items.list_upcoming_reminders(state.thread_id, turn.ctx.now)
    repeating = {r.reminder_id for r in upcoming if r.recurrence is not None}
    # A one-time reminder made to repeat is one more repeating reminder; a series given a new rule
    # is not.
    made_to_repeat = {
        split_scoped(str(rid))[0]
        for args in repeats
        for rid in args.get("reminderIds") or []
        if split_scoped(str(rid))[0] not in repeating
    }
    asked = Asked(
        reminders=len(creates),
        repeating=sum(1 for args in creates if args.get("recurrence")) + len(made_to_repeat),
    )
    return asked, Held(reminders=len(upcoming), repeating=len(repeating))
