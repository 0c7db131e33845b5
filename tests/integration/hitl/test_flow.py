"""The HITL control plane through the webhook handler, with signed payloads as Meta sends them:
the control plane's edge cases (expiry, stale replies, one question at a time, answers that only
narrow) end to end on moto."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import boto3

from memo.aws.conversation_pending import DynamoPendingStore
from memo.domain import (
    Disambiguation,
    DisambiguationCandidate,
    PlannerOutput,
    PlanStep,
    TurnInput,
    TurnState,
)
from memo.hitl import gate
from memo.local.stack import LocalStack
from tests.support.conversation import Conversation, LogEvents

APPROVE, EDIT, REJECT = 1, 2, 3


def _pending_item(stack: LocalStack, thread: str = "972501234567") -> dict | None:
    ddb = boto3.client("dynamodb", region_name="us-east-1")
    return ddb.get_item(
        TableName="memo-conversation", Key={"pk": {"S": f"THREAD#{thread}"}, "sk": {"S": "PENDING"}}
    ).get("Item")


def _memory(stack: LocalStack, thread: str = "972501234567") -> list[tuple[str, str, str]]:
    ddb = boto3.client("dynamodb", region_name="us-east-1")
    items = ddb.query(
        TableName="memo-conversation",
        KeyConditionExpression="pk = :pk AND begins_with(sk, :m)",
        ExpressionAttributeValues={":pk": {"S": f"THREAD#{thread}"}, ":m": {"S": "MSG#"}},
    )["Items"]
    # Stored without its default fields: a plain message has no `kind` attribute.
    return [
        (
            i["message"]["M"]["role"]["S"],
            i["message"]["M"].get("kind", {"S": "message"})["S"],
            i["message"]["M"]["text"]["S"],
        )
        for i in items
    ]


def test_stale_reply_gets_the_not_waiting_message(chat: Conversation, log_events: LogEvents) -> None:
    assert chat.say("yes") == "I'm not waiting on a question right now — what would you like to do?"
    assert chat.say("2").startswith("I'm not waiting on a question")
    assert log_events.named("HITL_STALE_REPLY")[0]["rawUserMessage"] == "yes"


def test_approve_a_high_risk_plan_with_a_button(
    chat: Conversation, stack: LocalStack, log_events: LogEvents
) -> None:
    assert chat.say("remind me to call mom tomorrow at 5pm").startswith("⏰ Reminder set: “call mom”")
    question = chat.say("delete all my reminders")
    assert "delete all your reminders" in question
    assert [c.title for c in chat.choices] == ["Approve", "Edit", "Reject"]
    created = log_events.named("HITL_CREATED")[0]
    assert (created["kind"], created["reason"], created["source"]) == ("approval", "high_risk", "planner")
    assert created["traceId"].startswith("wamid.")
    assert _pending_item(stack) is not None
    answer = chat.tap(APPROVE)
    assert answer == "Deleted 1 reminder: “call mom”."
    assert _pending_item(stack) is None
    assert chat.say("show my reminders") == "You have no upcoming reminders."
    resumed = log_events.named("HITL_RESUME_VALID")[0]
    assert resumed["hitlId"] == created["hitlId"] and resumed["traceId"] == created["traceId"]
    assert log_events.named("HITL_FAST_PATH_MATCH")[0]["decision"] == "continue"


def test_typed_yes_approves_and_reject_cancels(chat: Conversation, log_events: LogEvents) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete all my reminders")
    assert chat.say("yes") == "Deleted 1 reminder: “call mom”."
    chat.say("save a note: the wifi password is hunter2")
    assert "wifi" in chat.say("delete all my notes")
    assert chat.tap(REJECT) == "OK, cancelled. Nothing was changed."
    assert len(log_events.named("HITL_CANCELLED")) == 1


def test_delete_all_with_nothing_to_delete_asks_nothing(chat: Conversation, stack: LocalStack) -> None:
    assert chat.say("delete all my reminders") == "There were no reminders to delete."
    assert _pending_item(stack) is None


def test_edit_asks_what_to_change_then_continues_with_modifications(
    chat: Conversation, log_events: LogEvents
) -> None:
    chat.say("remind me about the dentist tomorrow at 9am")
    chat.say("remind me about the orthodontist tomorrow at 10am")
    chat.say("delete the dentist reminder")
    follow_up = chat.tap(EDIT)
    assert follow_up.startswith("What should I change?")
    shown_again = chat.say("change the title to orthodontist")
    # Edit loops back: the change is resolved and shown again; nothing is deleted before approval.
    assert shown_again.startswith("Before I go ahead: I'm about to delete 1 reminder:")
    assert "orthodontist" in shown_again and "dentist —" not in shown_again
    assert chat.tap(APPROVE) == "Deleted the reminder “the orthodontist”."
    assert "dentist" in chat.say("show my reminders")
    modified = log_events.named("HITL_CONTINUE_WITH_MODIFICATIONS")[0]
    assert modified["modifications"] == {"title": "orthodontist"}
    assert modified["originStepId"] == "s1"


def test_wrong_input_for_an_approval_re_asks_with_the_same_question(
    chat: Conversation, stack: LocalStack, log_events: LogEvents
) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete all my reminders")
    hitl_id = log_events.named("HITL_CREATED")[0]["hitlId"]
    nudge = chat.say("purple elephants")
    assert "delete all your reminders" in nudge
    assert [c.title for c in chat.choices] == ["Approve", "Edit", "Reject"]
    assert log_events.named("HITL_RE_ASK")[0]["hitlId"] == hitl_id
    item = _pending_item(stack)
    assert item is not None and item["hitlId"]["S"] == hitl_id
    assert chat.tap(APPROVE) == "Deleted 1 reminder: “call mom”."


def test_switch_intent_during_an_approval(
    chat: Conversation, stack: LocalStack, log_events: LogEvents
) -> None:
    chat.say("remind me to pay the bank tomorrow at 9am")
    chat.say("delete all my reminders")
    reply = chat.say("remind me to call mom tomorrow at 5pm")
    assert "call mom" in reply and "17:00" in reply
    assert "delete" not in reply
    assert log_events.named("HITL_SWITCH_INTENT")
    assert _pending_item(stack) is None


def test_cancel_in_hebrew(chat: Conversation, log_events: LogEvents) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    question = chat.say("תמחק את כל התזכורות שלי")
    assert "התזכורות" in question
    assert len(chat.choices) == 3
    assert chat.say("עזוב, ביטול") == "בסדר, ביטלתי. לא שיניתי כלום."
    assert log_events.named("HITL_CANCELLED"), log_events.names()


def test_missing_time_is_asked_then_answered(chat: Conversation, stack: LocalStack) -> None:
    question = chat.say("remind me to call the dentist")
    assert question.startswith("When should I remind you?")
    reply = chat.say("tomorrow at 9am")
    assert "call the dentist" in reply and "09:00" in reply
    assert _pending_item(stack) is None


def test_re_ask_then_answer(chat: Conversation, log_events: LogEvents) -> None:
    chat.say("remind me to water the plants")
    nudge = chat.say("hmm")
    assert "remind" in nudge.lower()
    assert log_events.named("HITL_RE_ASK")
    assert "water the plants" in chat.say("tomorrow at 8pm")


def test_intent_unclear_clarification_then_replan(chat: Conversation, log_events: LogEvents) -> None:
    question = chat.say("the thing with the stuff")
    created = log_events.named("HITL_CREATED")[0]
    assert created["reason"] == "intent_unclear"
    assert created["returnTo"] == {"node": "planner", "mode": "replan"}
    assert "?" in question
    reply = chat.say("save a note: the wifi password is hunter2")
    assert "wifi password" in reply
    assert log_events.named("HITL_RESUME_VALID")[-1]["goto"] == "planner"


def test_expired_question_is_dropped_and_the_message_is_processed_fresh(
    chat: Conversation, stack: LocalStack, log_events: LogEvents
) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete all my reminders")
    _age_pending(stack, seconds=301)
    reply = chat.say("yes")
    # The question is gone, so a late "yes" approves nothing: it gets the expiry message.
    assert reply.startswith("That request expired — want to try again?")
    assert [c.title for c in chat.choices] == ["Try again"]
    expired = log_events.named("HITL_EXPIRED")[0]
    assert expired["originStepId"] and expired["hitlId"]
    assert not log_events.named("HITL_RESUME_VALID")
    assert "call mom" in chat.say("show my reminders")  # nothing was deleted


def test_a_new_question_takes_the_place_of_an_expired_one_still_stored(
    chat: Conversation, stack: LocalStack, log_events: LogEvents
) -> None:
    # DynamoDB's TTL deletes late: the expired question is still in the table when the next request
    # asks its own. The turn discards it and writes the new one in the same place, in one write.
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete all my reminders")
    _age_pending(stack, seconds=301)
    assert "delete all your reminders (1)" in chat.say("delete all my reminders")
    assert log_events.named("HITL_EXPIRED") and not log_events.named("HITL_PENDING_CONFLICT")
    assert chat.say("yes") == "Deleted 1 reminder: “call mom”."


def test_in_hebrew_a_new_question_after_an_expired_one(chat: Conversation, stack: LocalStack) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    chat.say("תמחק את כל התזכורות")
    _age_pending(stack, seconds=301)
    assert "(1)" in chat.say("תמחק את כל התזכורות")
    assert chat.say("כן").startswith("מחקתי")


def test_a_duplicate_delivery_of_the_answer_is_applied_once(
    chat: Conversation, log_events: LogEvents
) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete all my reminders")
    answer = chat.user.text("yes")
    first = chat.deliver(answer)
    again = chat.deliver(answer)  # Meta redelivers the same wamid
    assert first == ["Deleted 1 reminder: “call mom”."]
    assert again == []
    assert len(log_events.named("HITL_RESUME_VALID")) == 1


def test_a_tap_on_an_old_questions_button_does_not_answer_the_new_one(
    chat: Conversation, log_events: LogEvents
) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("save a note: the wifi password is hunter2")
    chat.say("delete all my reminders")
    old_choices = list(chat.choices)
    chat.tap(REJECT)
    chat.say("delete all my notes")
    chat.choices = old_choices
    reply = chat.tap(APPROVE)  # the first question's Approve button
    assert "delete all your notes (1)" in reply  # re-asked, not approved
    assert [c.title for c in chat.choices] == ["Approve", "Edit", "Reject"]


def test_every_multi_choice_form_through_the_webhook(
    stack: LocalStack, chat: Conversation, log_events: LogEvents
) -> None:
    callers = ("mom", "dad", "the bank")
    forms = [
        ("1 2", 3, ("mom", "dad")),
        ("1,3", 3, ("mom", "the bank")),
        ("1 and 3", 3, ("mom", "the bank")),
        ("all", 3, callers),
        ("כולם", 3, callers),
        ("both", 2, ("mom", "dad")),
        ("שניהם", 2, ("mom", "dad")),
    ]
    for reply, count, expected in forms:
        for hour, who in zip((5, 6, 7), callers[:count], strict=False):
            chat.say(f"remind me to call {who} tomorrow at {hour}pm")
        chat.say("delete the call reminders")  # several match: pick first, then approve that set
        assert [c.title.split(" — ")[0] for c in chat.choices] == [f"call {w}" for w in callers[:count]]
        approval = chat.say(reply)
        valid = log_events.named("HITL_RESUME_VALID")[-1]
        assert len(valid["parsedResult"]["candidateIds"]) == len(expected)
        assert valid["goto"] == "entity_resolution"
        # A pick said in Hebrew goes on in Hebrew (the question was English).
        he = any("\u0590" <= ch <= "\u05ff" for ch in reply)
        n = len(expected)
        assert (f"למחוק {n} תזכורות:" if he else f"delete {n} reminders:") in approval, (reply, approval)
        assert all((f"„call {w}”" if he else f"“call {w}”") in approval for w in expected)
        buttons = ["אישור", "עריכה", "דחייה"] if he else ["Approve", "Edit", "Reject"]
        assert [c.title for c in chat.choices] == buttons
        answer = chat.tap(APPROVE)
        names = ", ".join((f"„call {w}”" if he else f"“call {w}”") for w in expected)
        done = f"מחקתי {n} תזכורות: {names}." if he else f"Deleted {n} reminders: {names}."
        assert answer == done, (reply, answer)
        if len(expected) < count:
            chat.say("delete all my reminders")  # start the next form from an empty list
            chat.tap(APPROVE)
    assert _pending_item(stack) is None


def test_two_hitl_triggers_in_one_run_never_make_a_second_question(
    stack: LocalStack, chat: Conversation, log_events: LogEvents
) -> None:
    """A pending question appears between this turn's load and its gate (another delivery path):
    the conditional create refuses it, the duplicate attempt is logged, nothing is sent."""
    from memo.wiring.webhook import WebhookRuntime

    runtime = WebhookRuntime.current()
    store = runtime.store
    original = store.load

    def load_then_race(thread_id: str, **kwargs):  # type: ignore[no-untyped-def]
        snapshot = original(thread_id, **kwargs)
        _seed_multi_choice(stack, thread_id, count=2)
        return snapshot

    chat.say("remind me to call mom tomorrow at 5pm")
    store.load = load_then_race  # type: ignore[method-assign]
    try:
        replies = chat.deliver(chat.user.text("delete all my reminders"))
    finally:
        store.load = original  # type: ignore[method-assign]
    # One question at a time: the open one is sent again (never a second one), its id logged.
    assert len(replies) == 1 and replies[0].startswith("There's still an open question")
    assert "Call #1" in replies[0]
    assert log_events.named("HITL_DUPLICATE_ATTEMPT")[-1]["existingHitlId"] == "seeded"
    item = _pending_item(stack)
    assert item is not None and item["hitlId"]["S"] == "seeded"


def test_a_whole_conversation_in_hebrew(chat: Conversation, stack: LocalStack) -> None:
    assert "Memo" in chat.say("שלום!")
    question = chat.say("תזכיר לי להתקשר לאמא מחר")
    assert question.startswith("באיזו שעה ביום ")  # "tomorrow" was understood: only its time is asked
    assert "להתקשר לאמא" in chat.say("ב-17:00")
    chat.say("תמחק את כל התזכורות")
    assert len(chat.choices) == 3
    approved = chat.tap(APPROVE)
    assert approved == "מחקתי תזכורת אחת: „להתקשר לאמא”."
    assert chat.say("כן").startswith("אני לא מחכה")
    assert "תודה" in chat.say("מה נשמע?")
    kinds = [kind for _, kind, _ in _memory(stack)]
    assert "hitl_question" in kinds and "hitl_reply" in kinds


def test_questions_and_answers_are_kept_in_memory(chat: Conversation, stack: LocalStack) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete all my reminders")
    chat.say("purple")
    chat.tap(APPROVE)
    remembered = _memory(stack)[2:]  # after the reminder's request and its confirmation
    assert [(role, kind) for role, kind, _ in remembered] == [
        ("user", "message"),
        ("assistant", "hitl_question"),
        ("user", "hitl_reply"),
        ("assistant", "hitl_question"),
        ("user", "hitl_reply"),
        ("assistant", "message"),
    ]


def _age_pending(stack: LocalStack, *, seconds: int) -> None:
    """Move the stored question's expiry into the past, as if `seconds` had passed."""
    from memo.aws.dynamo import from_item
    from memo.conversation.pending import state_from_item

    item = _pending_item(stack)
    assert item is not None
    state = state_from_item(from_item(item))
    assert state.pending_hitl is not None
    earlier = state.pending_hitl.model_copy(
        update={
            "created_at": state.pending_hitl.created_at - timedelta(seconds=seconds),
            "expires_at": state.pending_hitl.expires_at - timedelta(seconds=seconds),
        }
    )
    aged = state.model_copy(update={"pending_hitl": earlier})
    DynamoPendingStore(boto3.client("dynamodb", region_name="us-east-1"), "memo-conversation").replace(
        aged, expected_hitl_id=earlier.hitl_id
    )


def _seed_multi_choice(stack: LocalStack, thread: str, *, count: int) -> None:
    """A paused entity-disambiguation turn (multi choice) for `thread`, as entity resolution leaves it."""
    now = datetime.now(UTC)
    state = TurnState(
        trace_id="wamid.seeded",
        thread_id=thread,
        input=TurnInput(message="delete the call reminders", language="en", timezone="UTC"),
        planner_output=PlannerOutput(
            intent_type="operation",
            confidence=0.9,
            risk_level="high",
            plan=[PlanStep(id="s1", capability="reminders", action="delete", constraints={"target": "call"})],
        ),
    ).with_disambiguation(
        Disambiguation(
            resolver_step_id="s1",
            candidates=[DisambiguationCandidate(id=f"r{i}", label=f"Call #{i}") for i in range(1, count + 1)],
            allow_multiple=True,
            disambiguation_kind="pick_many",
        )
    )
    pending = gate.build_disambiguation_hitl(state, now=now, hitl_id="seeded")
    store = DynamoPendingStore(boto3.client("dynamodb", region_name="us-east-1"), "memo-conversation")
    store.create(state.model_copy(update={"pending_hitl": pending}), now=now)
