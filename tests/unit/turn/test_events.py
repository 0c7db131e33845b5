"""The narrow ways a reaction or an edit answers the open question (`memo.turn.events`)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memo.conversation.model import MemoryMessage, ThreadSnapshot
from memo.domain import PlannerOutput, TurnState
from memo.hitl import gate
from memo.ingress.inbound import InboundMessage
from memo.turn import events
from memo.whatsapp.tracking import OutboundKind, OutboundRecord
from tests.unit.hitl.conftest import NOW, make_state, plan, step

THREAD = "972501234567"
QUESTION = "wamid.QUESTION"


def _paused(output: PlannerOutput) -> TurnState:
    result = gate.check_planner(make_state(output, trace_id="wamid.REQUEST"), now=NOW, hitl_id="h-1")
    assert result.pending is not None
    return result.state


def _snapshot(state: TurnState | None, recent: list[MemoryMessage] | None = None) -> ThreadSnapshot:
    return ThreadSnapshot(
        thread_id=THREAD,
        pending={"state": state.to_json()} if state is not None else None,
        recent=recent or [],
    )


def _reaction(emoji: str, target: str = QUESTION) -> InboundMessage:
    return InboundMessage(
        wamid="wamid.R",
        thread_id=THREAD,
        wa_id=THREAD,
        phone_number_id="1",
        timestamp=0,
        type="reaction",
        event="reaction",
        target_id=target,
        emoji=emoji,
    )


def _question(
    at_offset: timedelta = timedelta(seconds=1), kind: OutboundKind = "hitl_question"
) -> OutboundRecord:
    return OutboundRecord(message_id=QUESTION, thread_id=THREAD, kind=kind, at=NOW + at_offset)


LOW_CONFIDENCE_CREATE = plan(step(action="create", changes={"title": "gym"}), confidence=0.55)


@pytest.mark.parametrize("emoji", ["👍", "✅", "👍🏽", "❤️", "😂"])
@pytest.mark.parametrize(
    "output",
    [
        LOW_CONFIDENCE_CREATE,
        plan(step(action="delete", constraints={"target": "gym"}), confidence=0.55),
        plan(step(action="delete", constraints={"target": "gym"}), confidence=0.55, risk="high"),
    ],
)
def test_a_reaction_on_a_just_to_check_question_is_no_yes(emoji: str, output: PlannerOutput) -> None:
    """A guess is confirmed in words: the reaction comes to the question as itself (its emoji, marked
    a reaction), never as a typed "yes"; the question asks again."""
    state = _paused(output)
    answer = events.reaction_answer(_reaction(emoji), _snapshot(state), _question(), NOW)
    assert answer is not None and (answer.text, answer.type, answer.handling) == (emoji, "text", "turn")
    assert answer.emoji == emoji  # read as a reaction (`HITLReply.reaction`)


def test_a_reaction_elsewhere_is_silent() -> None:
    state = _paused(LOW_CONFIDENCE_CREATE)
    snapshot = _snapshot(state)
    assert events.reaction_answer(_reaction(""), snapshot, _question(), NOW) is None  # removed
    assert events.reaction_answer(_reaction("👍"), snapshot, None, NOW) is None  # not a message Memo sent
    other = _question(kind="reply")
    assert events.reaction_answer(_reaction("👍"), snapshot, other, NOW) is None  # not the question
    older = _question(at_offset=-timedelta(minutes=5))
    assert events.reaction_answer(_reaction("👍"), snapshot, older, NOW) is None  # an earlier question
    assert events.reaction_answer(_reaction("👍"), _snapshot(None), _question(), NOW) is None  # no question
    late = NOW + timedelta(hours=1)
    assert events.reaction_answer(_reaction("👍"), snapshot, _question(), late) is None  # expired


@pytest.mark.parametrize(
    "output",
    [
        plan(step(action="create"), risk="high"),  # an approval
        plan(step(action="create"), missing=["reminder_time_required"]),  # a free-text question
    ],
)
def test_a_reaction_on_an_approval_or_a_free_question_is_silent(output: PlannerOutput) -> None:
    state = _paused(output)
    assert events.reaction_answer(_reaction("👍"), _snapshot(state), _question(), NOW) is None


def _edit(target: str, text: str = "remind me to call mom tomorrow at 5pm") -> InboundMessage:
    return InboundMessage(
        wamid="wamid.E",
        thread_id=THREAD,
        phone_number_id="1",
        timestamp=0,
        type="edit",
        event="edit",
        target_id=target,
        text=text,
    )


def test_an_edit_of_the_message_the_question_waits_on_is_the_answer() -> None:
    state = _paused(plan(step(action="create"), missing=["reminder_time_required"]))
    answer = events.edit_answer(_edit("wamid.REQUEST"), _snapshot(state), NOW)
    assert answer is not None and answer.handling == "turn" and answer.text.endswith("at 5pm")
    since = [MemoryMessage(role="user", text="hmm", at=NOW + timedelta(seconds=5), wamid="wamid.LATER")]
    assert events.edit_answer(_edit("wamid.LATER"), _snapshot(state, since), NOW) is not None


def test_any_other_edit_is_silent() -> None:
    state = _paused(plan(step(action="create"), missing=["reminder_time_required"]))
    assert events.edit_answer(_edit("wamid.OLD"), _snapshot(state), NOW) is None
    assert events.edit_answer(_edit("wamid.REQUEST"), _snapshot(None), NOW) is None
    assert events.edit_answer(_edit("wamid.REQUEST", text=""), _snapshot(state), NOW) is None


@pytest.mark.parametrize(
    ("wa_id", "language"), [("972501234567", "he"), ("15551234567", "en"), (None, "en"), ("US.1349", "en")]
)
def test_the_number_s_country_gives_the_first_language(wa_id: str | None, language: str) -> None:
    assert events.country_language(wa_id, "en") == language


@pytest.mark.parametrize(
    ("text", "addressed"),
    [
        ("Memo, remind me to buy milk", True),
        ("@memo what's up", True),
        ("ממו, תזכיר לי", True),
        ("memorandum for the team", False),
        ("remind me to buy milk", False),
    ],
)
def test_addressed_by_name(text: str, addressed: bool) -> None:
    assert events.addressed_to_memo(text) is addressed
