"""The "just to check" of a guessed note update, asked over the note it would change; and of a
guessed delete, looked up first.

"the gate code changed to 5678" is read with less than full confidence, so it is confirmed first.
Asked before the note is looked up, the question could only show the words said ("change the note
“gate code” to “5678”") while the write gives "gate code is 5678". Here the update is resolved
first: when it names exactly one note, the question shows that note's text and the exact text it
would then read, and the step stays pinned to that note (a "yes" writes what was shown). A note
not found, or several that fit, are asked about as before, from the words said.

A guessed delete ("delete the gym one") whose target is not there at all is not asked about: "Just
to check — delete the reminder “gym”?" named the words said (never an item), and a "yes" then
found nothing. It goes on at once, and the reply says nothing matched; nothing is changed. One whose
target is there is asked as the approval of the items found, which names them
(`memo.turn.plan.plan`).
"""

from __future__ import annotations

from memo.capabilities.notes import note_after
from memo.conversation.model import MemoryKind, plan_in_flight
from memo.domain import PlannerOutput, TurnState
from memo.hitl import gate, templates
from memo.hitl.gate import PlannerTrigger
from memo.resolution.entity import EntityResolution, resolve_entities
from memo.resolution.router import resolve_all
from memo.turn.outcome import TurnOutcome
from memo.turn.questions import pause
from memo.turn.reads import Turn, latest_actions


def checks_a_note_update(output: PlannerOutput, trigger: PlannerTrigger) -> bool:
    """A "just to check" of a plan that only updates one note."""
    return (
        trigger.reason == "low_confidence_plan"
        and len(output.plan) == 1
        and (output.plan[0].capability, output.plan[0].action) == ("notes", "update")
    )


def confirm_note_update(turn: Turn, state: TurnState, *, user_kind: MemoryKind) -> TurnOutcome:
    """Ask the "just to check" of the note update with the note's text before and after, when the
    update resolves to one note; otherwise as the words said it."""
    ctx = turn.ctx
    resolved = _resolved(turn, state)
    if resolved is None:
        return pause(ctx, gate.check_planner(state, now=ctx.now, ttl_seconds=turn.ttl), user_kind=user_kind)
    pinned, old, new = resolved
    checked = gate.check_planner(pinned, now=ctx.now, ttl_seconds=turn.ttl)
    language = state.input.language
    question = templates.low_confidence_question(language, templates.note_change(old, new, language))
    return pause(ctx, gate.reworded(checked, question), user_kind=user_kind)


def _resolved(turn: Turn, state: TurnState) -> tuple[TurnState, str, str] | None:
    """The state with the update pinned to its one note, the note's text and what it would read;
    None when the update names no note or several."""
    output = state.planner_output
    assert output is not None
    step = output.plan[0]
    resolution = _looked_up(turn, state)
    args = resolution.state.executor_args.get(step.id)
    ids = args.get("noteIds") if args is not None else None
    if resolution.needs_hitl or not isinstance(ids, list) or len(ids) != 1:
        return None
    note = next((n for n in turn.items.list_notes(state.thread_id) if n.note_id == ids[0]), None)
    said = step.changes.get("text")
    if note is None or not isinstance(said, str) or not said:
        return None
    changes = step.changes
    new = note_after(
        note.text, said, whole=changes.get("whole") is True, append=changes.get("append") is True
    )
    return resolution.state, note.text, new


_DELETES = frozenset({"delete", "remove"})


def checks_a_delete(output: PlannerOutput, trigger: PlannerTrigger) -> bool:
    """A "just to check" of a plan that only deletes (a reminder, a note, list items)."""
    return (
        trigger.reason == "low_confidence_plan"
        and len(output.plan) == 1
        and output.plan[0].action in _DELETES
        and not output.missing_fields
    )


def finds_nothing(turn: Turn, state: TurnState) -> bool:
    """Whether the plan's one step, looked up, names nothing there is."""
    output = state.planner_output
    assert output is not None
    resolution = _looked_up(turn, state)
    return output.plan[0].id in resolution.not_found


def _looked_up(turn: Turn, state: TurnState) -> EntityResolution:
    """The plan's steps resolved against the thread's items, as `proceed` resolves them."""
    ctx = turn.ctx
    return resolve_entities(
        resolve_all(state),
        turn.items,
        ctx.now,
        latest_actions=latest_actions(ctx),
        quoted=turn.quoted(state),
        in_flight=plan_in_flight(ctx.snapshot.recent, ctx.snapshot.latest_actions, now=ctx.now) is not None,
    )
