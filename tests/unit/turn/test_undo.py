"""Typed undo: the latest change the words undo past any read since; and "Undo what I just did?": how
its answer is read, and which words ask it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memo.domain import DisambiguationCandidate, HITLReply, LatestAction, PendingHITL, PendingHITLContext
from memo.hitl.reasons import policy_source_for, return_to_for
from memo.hitl.templates import yes_no_options
from memo.turn.undo import UNDO_ASK_STEP, answer_of, asked_request, is_bare_cancel, is_undo_ask, undo_said
from tests.support.clock import TEST_NOW


def _action(action: str, trace: str, minutes_ago: int, capability: str = "reminders") -> LatestAction:
    return LatestAction(
        created_at=TEST_NOW - timedelta(minutes=minutes_ago),
        capability=capability,
        action=action,
        summary="x",
        operation_id=f"{trace}:s1",
    )


@pytest.mark.parametrize(
    ("read", "capability"),
    [("list", "reminders"), ("show", "lists"), ("show_all", "lists"), ("search", "notes")],
)
def test_a_read_since_the_delete_is_passed_over(read: str, capability: str) -> None:
    latest = [_action(read, "t-read", 1, capability), _action("delete", "t-delete", 2)]
    request = undo_said(latest)
    assert request is not None and request.undo_key == "t-delete"


def test_a_change_since_the_delete_is_not_passed_over() -> None:
    # A reminder set since: "undo" takes it away; "bring it back" finds nothing it asks for.
    latest = [_action("create", "t-new", 1), _action("delete", "t-delete", 2)]
    request = undo_said(latest, "undo")
    assert request is not None and request.undo_key == "t-new"
    assert undo_said(latest, "bring it back") is None


def _pending() -> PendingHITL:
    return PendingHITL(
        hitl_id="h1",
        kind="approval",
        source="planner",
        reason="confirmation",
        origin_step_id=UNDO_ASK_STEP,
        return_to=return_to_for("planner", "confirmation"),
        expected_input="yes_no",
        question="Undo what I just did — x?",
        options=yes_no_options("en"),
        policy_source=policy_source_for("planner", "confirmation"),
        context=PendingHITLContext(
            candidates=[
                DisambiguationCandidate(
                    id="wamid.1", label="x", data={"until": (TEST_NOW + timedelta(minutes=5)).isoformat()}
                )
            ]
        ),
        expires_at=TEST_NOW + timedelta(minutes=5),
        created_at=TEST_NOW,
    )


@pytest.mark.parametrize("text", ["cancel", "Cancel!", "בטל", "ביטול", " תבטל. "])
def test_a_bare_cancel_word_asks(text: str) -> None:
    assert is_bare_cancel(HITLReply(text=text))


@pytest.mark.parametrize("text", ["cancel it", "cancel that", "cancel the dentist", "בטל את התזכורת", "undo"])
def test_a_cancel_with_an_object_is_planned(text: str) -> None:
    assert not is_bare_cancel(HITLReply(text=text))


@pytest.mark.parametrize(
    ("text", "button", "answer"),
    [
        ("yes", None, "yes"),
        ("כן", None, "yes"),
        ("undo", None, "yes"),
        ("", "h1:yes", "yes"),
        ("", "h1:no", "no"),
        ("", "other:yes", "unclear"),  # another question's button
        ("no", None, "no"),
        ("בטל", None, "no"),
        ("cancel", None, "no"),
        ("3", None, "unclear"),
        ("remind me to buy milk at 8", None, "other"),
    ],
)
def test_the_answer(text: str, button: str | None, answer: str) -> None:
    assert answer_of(_pending(), HITLReply(text=text, interactive_id=button)) == answer


def test_the_question_names_its_undo() -> None:
    pending = _pending()
    assert is_undo_ask(pending)
    request = asked_request(pending)
    assert request is not None and request.undo_key == "wamid.1"
    assert request.until == TEST_NOW + timedelta(minutes=5)
