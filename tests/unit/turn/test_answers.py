"""Answers to an approval can only narrow what runs (the turn's control flow on fakes).

The approval lists the concrete items; a reply approves them, keeps some of them, edits (and is asked
again), rejects, cancels or is a new request. The hypothesis property at the end drives generated
replies through the real control flow and checks what actually starts in the executor.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memo.capabilities.items import Reminder
from memo.domain import TurnState
from memo.turn.outcome import TurnOutcome
from memo.turn.questions import question_reply
from tests.unit.hitl.conftest import NOW, TZ, plan, step
from tests.unit.turn.test_control import (
    DELETE_ALL,
    THREAD,
    FakeItems,
    FakePlanner,
    Turn,
)

TOMORROW = NOW + timedelta(days=1)
LATER = NOW + timedelta(days=2)
TITLES = ("call mom", "call dad", "pay the bank", "dentist", "gym class", "buy milk")


def reminder(reminder_id: str, title: str, due=TOMORROW) -> Reminder:
    return Reminder(
        reminder_id=reminder_id, thread_id=THREAD, title=title, due_at=due, timezone=TZ, created_at=NOW
    )


def three() -> FakeItems:
    return FakeItems(
        [
            reminder("r1", "call mom", TOMORROW),
            reminder("r2", "call dad", TOMORROW.replace(hour=18)),
            reminder("r3", "pay the bank", LATER),
        ]
    )


def ask(turn: Turn) -> TurnState:
    outcome = turn.say("delete all my reminders", wamid="wamid.TURN1")
    assert outcome.outcome == "hitl_approval", outcome
    turn.planner.calls.clear()
    return turn.pending.created.pop()


def deleted(turn: Turn) -> list[str]:
    assert len(turn.executions.started) <= 1
    if not turn.executions.started:
        return []
    ((task,),) = turn.executions.started[0].groups
    return list(task.args["reminderIds"])


def tap(turn: Turn, paused: TurnState, index: int) -> TurnOutcome:
    assert paused.pending_hitl is not None
    choice = question_reply(paused.pending_hitl, "en").choices[index]
    return turn.say(reply_id=choice.id, paused=paused)


# --- the approval shows the items ------------------------------------------------------------------


def test_the_approval_lists_titles_and_times_never_the_search_word() -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=three())
    paused = ask(turn)
    assert paused.pending_hitl is not None
    text = paused.pending_hitl.question
    assert text.startswith("Before I go ahead: I'm about to delete all your reminders (3):")
    assert "1. “call mom” — Thu 2 May, 10:00" in text
    assert "3. “pay the bank” — Fri 3 May, 10:00" in text
    assert paused.pending_hitl.context is not None
    assert [c.id for c in paused.pending_hitl.context.candidates or []] == ["r1", "r2", "r3"]


def test_a_delete_by_name_shows_the_matched_item_not_the_word() -> None:
    delete = plan(step(action="delete", constraints={"target": "dentist"}), risk="high", approval=True)
    turn = Turn(FakePlanner(delete), items=FakeItems([reminder("r9", "dentist appointment")]))
    outcome = turn.say("delete the dentist reminder")
    assert outcome.reply is not None
    assert "delete 1 reminder:\n1. “dentist appointment”" in outcome.reply.text


def test_more_than_ten_items_are_counted_and_all_of_them_are_approved() -> None:
    many = FakeItems([reminder(f"r{i}", f"task {i}") for i in range(1, 14)])
    turn = Turn(FakePlanner(DELETE_ALL), items=many)
    paused = ask(turn)
    assert paused.pending_hitl is not None
    assert "…and 3 more" in paused.pending_hitl.question
    turn.say("yes", paused=paused)
    assert deleted(turn) == [f"r{i}" for i in range(1, 14)]


# --- answers ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "kept"),
    [
        ("yes", ["r1", "r2", "r3"]),
        ("yes but only the ones for tomorrow", ["r1", "r2"]),
        ("only tomorrow's", ["r1", "r2"]),
        ("not the one for dad", ["r1", "r3"]),
        ("yes, except the bank", ["r1", "r2"]),
        ("1 3", ["r1", "r3"]),
        ("only 2", ["r2"]),
        ("all but 2", ["r1", "r3"]),
        ("כן אבל רק של מחר", ["r1", "r2"]),
        ("חוץ מ-2", ["r1", "r3"]),
        ("רק 3", ["r3"]),
    ],
)
def test_an_answer_runs_exactly_the_kept_items(reply: str, kept: list[str]) -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=three())
    paused = ask(turn)
    outcome = turn.say(reply, paused=paused)
    assert outcome.outcome == "executing", outcome
    assert deleted(turn) == kept
    ((task,),) = turn.executions.started[0].groups
    assert task.approval is not None and task.approval.args_hash == task.args_hash


@pytest.mark.parametrize(
    "reply",
    [
        "yes but only the purple ones",
        "yes but only X",
        "only the ones for the moon",
        "yes, not that",
        "כן אבל רק של הירח",
    ],
)
def test_a_yes_with_a_limit_nobody_can_map_is_asked_again(reply: str) -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=three())
    paused = ask(turn)
    outcome = turn.say(reply, paused=paused)
    assert outcome.outcome == "hitl_re_ask", outcome
    assert not turn.executions.started
    (kept,) = turn.pending.replaced
    assert kept.pending_hitl is not None and paused.pending_hitl is not None
    assert kept.pending_hitl.hitl_id == paused.pending_hitl.hitl_id


@pytest.mark.parametrize(
    "reply", ["not 1 2 3", "keep all of them", "except 1, 2 and 3", "except everything", "תשאיר את כולם"]
)
def test_keeping_every_item_closes_the_question_as_a_no(reply: str) -> None:
    # Asked again, the "yes" a person says next approved every item they had just kept.
    turn = Turn(FakePlanner(DELETE_ALL), items=three())
    paused = ask(turn)
    outcome = turn.say(reply, paused=paused)
    assert outcome.outcome == "hitl_cancel" and outcome.reply is not None, outcome
    assert outcome.reply.text in (
        "That leaves nothing to do, so I've cancelled it. Nothing was changed.",
        "זה לא משאיר אף פריט, אז ביטלתי. לא שיניתי כלום.",
    )
    assert not turn.executions.started
    assert not turn.executions.started


@pytest.mark.parametrize(
    ("reply", "language_word"),
    [("change the time to 6pm", "no time to change"), ("yes but at 6pm", "no time to change")],
)
def test_a_time_change_on_a_delete_is_explained_and_asked_again(reply: str, language_word: str) -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=three())
    paused = ask(turn)
    outcome = turn.say(reply, paused=paused)
    assert outcome.outcome == "hitl_re_ask" and outcome.reply is not None
    assert language_word in outcome.reply.text and "Nothing was changed or deleted" in outcome.reply.text
    assert [c.title for c in outcome.reply.choices] == ["Approve", "Edit", "Reject"]
    assert not turn.executions.started


def test_edit_then_a_time_change_on_a_delete_is_explained_never_executed() -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=three())
    paused = ask(turn)
    edit = tap(turn, paused, 1)
    assert edit.reply is not None and edit.reply.text.startswith("What should I change?")
    (editing,) = turn.pending.replaced
    outcome = turn.say("make it 6pm", paused=editing)
    assert outcome.outcome == "hitl_re_ask" and outcome.reply is not None
    assert "There's no time to change on a delete" in outcome.reply.text
    assert not turn.executions.started
    again = turn.pending.replaced[-1].pending_hitl
    assert again is not None and paused.pending_hitl is not None
    assert again.hitl_id == paused.pending_hitl.hitl_id and again.context is not None
    assert again.context.awaiting == "answer" and again.expected_input == "yes_no"


def test_edit_then_narrowing_is_shown_again_for_approval() -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=three())
    paused = ask(turn)
    tap(turn, paused, 1)
    (editing,) = turn.pending.replaced
    shown_again = turn.say("only 1", paused=editing)
    assert shown_again.outcome == "hitl_approval" and not turn.executions.started
    assert shown_again.reply is not None and "delete 1 reminder:\n1. “call mom”" in shown_again.reply.text
    # The answered question is replaced by the new one, in the turn's one write.
    second = turn.pending.replaced[-1]
    assert second.pending_hitl is not None and paused.pending_hitl is not None
    assert second.pending_hitl.hitl_id != paused.pending_hitl.hitl_id
    turn.say("yes", paused=second)
    assert deleted(turn) == ["r1"]
    ((task,),) = turn.executions.started[0].groups
    assert task.approval is not None and task.approval.hitl_id == second.pending_hitl.hitl_id


def test_a_rejection_with_a_reason_keeps_the_reason_as_feedback(logs) -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=three())
    paused = ask(turn)
    outcome = turn.say("no, I still need the one for the bank", paused=paused)
    assert outcome.outcome == "hitl_cancel" and outcome.reply is not None
    assert outcome.reply.text.startswith("OK, cancelled. Nothing was changed. Thanks for telling me why")
    assert logs.named("HITL_CANCELLED")[0]["feedback"] == "I still need the one for the bank"
    assert not turn.executions.started


def test_an_item_deleted_meanwhile_is_resolved_again_and_asked_again(logs) -> None:
    items = three()
    turn = Turn(FakePlanner(DELETE_ALL), items=items)
    paused = ask(turn)
    items.reminders = [r for r in items.reminders if r.reminder_id != "r2"]  # gone on another device
    items.reminders[0] = items.reminders[0].model_copy(update={"title": "call mother"})
    outcome = turn.say("yes", paused=paused)
    assert not turn.executions.started
    assert outcome.outcome == "hitl_approval" and outcome.reply is not None
    text = outcome.reply.text
    assert text.startswith("Something changed since I asked (“call dad” was deleted meanwhile;")
    assert "“call mom” is now called “call mother”" in text
    assert "(2):\n1. “call mother”" in text
    again = turn.pending.replaced[-1]  # the answered question, replaced by the new one
    turn.say("yes", paused=again)
    assert deleted(turn) == ["r1", "r3"]
    assert logs.named("HITL_CANCELLED") == [] and logs.named("HITL_CANDIDATES_CHANGED")


def test_an_expired_answer_offers_try_again_which_plans_the_original_request() -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=three())
    paused = ask(turn)
    assert paused.pending_hitl is not None
    late = paused.pending_hitl.expires_at + timedelta(seconds=5)
    offer = turn.say("yes", paused=paused, at=late)
    assert offer.reply is not None and offer.reply.text == "That request expired — want to try again?"
    assert not turn.executions.started and not turn.planner.calls
    (retry,) = turn.pending.created
    assert retry.trace_id == "wamid.TURN1" and retry.input.message == "delete all my reminders"
    again = tap(turn, retry, 0)
    assert [call.message for call in turn.planner.calls] == ["delete all my reminders"]
    assert again.outcome == "hitl_approval" and not turn.executions.started


@pytest.mark.parametrize(
    ("text", "outcome", "answer"),
    [
        ("ok", "smalltalk_affirmation", "👍 Just say the word if you need anything."),
        ("👍", "smalltalk_affirmation", "👍 Just say the word if you need anything."),
        ("sure", "smalltalk_affirmation", "👍 Just say the word if you need anything."),
        ("thanks", "smalltalk_thanks", "You're welcome! I'm here if you need anything else."),
        ("yes", "stale_reply", "I'm not waiting on a question right now — what would you like to do?"),
        ("2", "stale_reply", "I'm not waiting on a question right now — what would you like to do?"),
    ],
)
def test_with_nothing_pending_only_bare_answers_get_the_stale_text(
    text: str, outcome: str, answer: str
) -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=three())
    result = turn.say(text)
    assert result.outcome == outcome and result.reply is not None and result.reply.text == answer
    assert not turn.planner.calls and not turn.executions.started


# --- the property: no answer runs more than it showed, no edit runs unapproved -----------------------

_YES = ["yes", "ok", "sure", "yes please", "go ahead", "כן", "בטח", "👍", "approve"]
_NO = ["no", "nope", "reject", "לא", "no, because I need them"]
_JOIN = ["", " but", ", but", " and", " אבל", ","]
_BODY = st.one_of(
    st.sampled_from(
        [
            "only the ones for tomorrow",
            "only tomorrow's",
            "not the one for dad",
            "except the bank",
            "all but 2",
            "only call mom",
            "change the time to 6pm",
            "at 6pm",
            "make it 6pm",
            "rename it to gym",
            "change the title to dentist",
            "delete all my notes",
            "remind me to call mom tomorrow at 5pm",
            "רק של מחר",
            "חוץ מאבא",
            "תשנה את השעה ל-18:00",
            "all",
            "both",
            "everything",
            "the first one",
            "cancel",
            "never mind",
        ]
    ),
    st.lists(st.integers(min_value=0, max_value=8), min_size=1, max_size=4).map(
        lambda ns: " ".join(map(str, ns))
    ),
    st.sampled_from(TITLES),
    st.text(max_size=30),
)
_REPLY = st.one_of(
    st.sampled_from(_YES + _NO),
    _BODY,
    st.tuples(
        st.sampled_from(_YES + _NO + [""]),
        st.sampled_from(_JOIN),
        st.sampled_from(["", "only ", "not ", "just ", "רק ", "except ", "חוץ מ"]),
        _BODY,
    ).map(lambda parts: f"{parts[0]}{parts[1]} {parts[2]}{parts[3]}".strip()),
)


@st.composite
def _items(draw: st.DrawFn) -> FakeItems:
    count = draw(st.integers(min_value=1, max_value=6))
    titles = draw(st.lists(st.sampled_from(TITLES), min_size=count, max_size=count))
    days = draw(st.lists(st.sampled_from([TOMORROW, LATER]), min_size=count, max_size=count))
    return FakeItems(
        [reminder(f"r{i}", t, d) for i, (t, d) in enumerate(zip(titles, days, strict=True), start=1)]
    )


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=_items(), edit_first=st.booleans(), reply=_REPLY)
def test_no_answer_runs_a_superset_of_what_was_shown_and_no_edit_runs_unapproved(
    items: FakeItems, edit_first: bool, reply: str
) -> None:
    turn = Turn(FakePlanner(DELETE_ALL), items=items)
    paused = ask(turn)
    pending = paused.pending_hitl
    assert pending is not None and pending.context is not None
    shown = [c.id for c in pending.context.candidates or []]
    if edit_first:
        tap(turn, paused, 1)
        (paused,) = turn.pending.replaced
    outcome = turn.say(reply, paused=paused)
    ran = deleted(turn)
    assert set(ran) <= set(shown), (reply, ran, shown)
    if turn.executions.started:
        ((task,),) = turn.executions.started[0].groups
        # Whatever runs carries the approval of the very question that showed it.
        assert task.approval is not None and task.approval.hitl_id == pending.hitl_id
        assert task.approval.args_hash == task.args_hash
        if edit_first:
            # After Edit, only "go ahead as is" runs, and then exactly what was shown: an edit or a
            # narrowing is shown again for approval first.
            assert ran == shown, (reply, ran)
    else:
        assert outcome.outcome != "executing"


def test_a_new_request_while_an_operator_asks_runs_on_its_own_and_the_question_stays() -> None:
    from memo.domain import HITLReturnTo, PendingHITL, PendingHITLContext
    from tests.unit.turn.test_control import CREATE

    waiting = TurnState.model_validate(
        {
            "traceId": "wamid.ORIGINAL",
            "threadId": THREAD,
            "input": {"message": "delete call mom", "language": "he", "timezone": TZ},
        }
    ).model_copy(
        update={
            "pending_hitl": PendingHITL(
                hitl_id="op-1",
                kind="clarification",
                source="operator",
                reason="operator_question",
                origin_step_id="s1",
                return_to=HITLReturnTo(node="case", mode="provide_clarification"),
                expected_input="free_text",
                question="Which reminder?",
                expires_at=NOW + timedelta(hours=1),
                context=PendingHITLContext(case_id="case-1"),
                created_at=NOW,
            )
        }
    )
    turn = Turn(FakePlanner(CREATE))
    outcome = turn.say("remind me to call mom tomorrow at 5pm", paused=waiting)
    assert outcome.outcome == "executing"
    assert not turn.pending.consumed and not turn.pending.replaced  # the operator's question stays
    (call,) = turn.planner.calls
    assert call.message == "remind me to call mom tomorrow at 5pm" and call.language == "en"
    assert turn.executions.started[0].trace_id == "wamid.TURN2"  # its own request, its own trace
