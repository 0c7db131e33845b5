"""The turn's questions: asking one (stored by the turn's write) in its WhatsApp form, the open one
asked again, and the answer to a pending change that lost its condition.

One question at a time: the `PENDING` item is created only if none is live and consumed only once
(conditions of the turn's one write, `memo.conversation.pending`). A question that loses the create
race sends the open one again (HITL_DUPLICATE_ATTEMPT with its id); a lost consume sends nothing.
"""

from __future__ import annotations

from memo.conversation.model import MemoryKind
from memo.conversation.pending import PendingChange
from memo.domain import PendingHITL
from memo.hitl import gate, templates
from memo.hitl.fastpath import interactive_reply_id
from memo.hitl.templates.turn_answers import LIST_BUTTON, too_large_to_keep
from memo.observability import logger
from memo.replies import Choice, Reply
from memo.text.language import Language
from memo.turn.outcome import TurnContext, TurnOutcome
from memo.turn.reads import PendingReader


def pause(
    ctx: TurnContext, checked: gate.GateResult, *, user_kind: MemoryKind, note: str | None = None
) -> TurnOutcome:
    """Ask the gate's question (`note`, what changed meanwhile, is said before it)."""
    pending = checked.pending
    assert pending is not None
    language = checked.state.input.language
    if checked.duplicate:
        return existing_question(ctx, pending, pending.source, user_kind=user_kind)
    text = f"{note}\n{pending.question}" if note else None
    return TurnOutcome(
        reply=question_reply(pending, language, text),
        outcome=f"hitl_{pending.kind}",
        reply_kind="hitl_question",
        user_kind=user_kind,
        # Stored with the turn's memory; a live question already there is a lost race (`lost_race`).
        pending_change=PendingChange.create(checked.state, now=ctx.now),
    )


def existing_question(
    ctx: TurnContext, existing: PendingHITL, new_source: str, *, user_kind: MemoryKind
) -> TurnOutcome:
    """The multi-HITL guard: one question at a time, so the open one is sent again (its id logged)."""
    logger.warning(
        "HITL_DUPLICATE_ATTEMPT",
        extra={"existingHitlId": existing.hitl_id, "newSource": new_source, "lostRace": True},
    )
    language = ctx.profile.language
    text = templates.existing_question(language, existing.question)
    return TurnOutcome(
        reply=question_reply(existing, language, text),
        outcome="hitl_duplicate_attempt",
        reply_kind="hitl_question",
        user_kind=user_kind,
    )


def lost_race(pending: PendingReader, ctx: TurnContext, outcome: TurnOutcome) -> TurnOutcome:
    """The pending question changed between the thread's load and the turn's write (another
    writer: an operator's question, a concurrent answer). A new question that lost to a live one
    sends the open one again (the multi-HITL guard); a lost answer says nothing."""
    change = outcome.pending_change
    asked = change.state.pending_hitl if change is not None and change.state is not None else None
    if change is not None and change.kind == "create" and asked is not None:
        stored = pending.current(ctx.message.thread_id)
        existing = stored.pending_hitl if stored is not None else None
        if existing is not None and existing.is_live(ctx.now):
            return existing_question(ctx, existing, asked.source, user_kind=outcome.user_kind)
        logger.warning("HITL_DUPLICATE_ATTEMPT", extra={"existingHitlId": None, "lostRace": True})
    else:
        logger.warning(
            "HITL_RESUME_LOST_RACE",
            extra={
                "hitlId": change.expected_hitl_id if change is not None else None,
                "outcome": outcome.outcome,
            },
        )
    return TurnOutcome(reply=None, outcome="hitl_lost_race", user_kind=outcome.user_kind)


def after(first: PendingChange, outcome: TurnOutcome) -> TurnOutcome:
    """`outcome` with `first` (a change decided earlier in the turn) committed before its own."""
    return outcome.model_copy(update={"pending_change": first.then(outcome.pending_change)})


def too_large(ctx: TurnContext, outcome: TurnOutcome) -> TurnOutcome:
    """The turn would have stored an item over DynamoDB's limit (ITEM_TOO_LARGE was logged, nothing
    was written): it says so instead, and changes no question, starts nothing."""
    logger.warning("TURN_TOO_LARGE_TO_KEEP", extra={"outcome": outcome.outcome})
    return TurnOutcome(
        reply=Reply.plain(too_large_to_keep(ctx.profile.language)),
        outcome="too_large_to_keep",
        user_kind=outcome.user_kind,
    )


def question_reply(pending: PendingHITL, language: Language, text: str | None = None) -> Reply:
    """The WhatsApp form of a pending question: buttons or a list when it has options."""
    body = text or pending.question
    if not pending.options:
        return Reply.plain(body)
    choices = [
        Choice(id=interactive_reply_id(pending, option), title=option.label, description=option.description)
        for option in pending.options
    ]
    return Reply.with_choices(body, choices, list_button=LIST_BUTTON[language])
