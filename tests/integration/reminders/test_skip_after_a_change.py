"""A skip runs only on the times its approval showed. The series changes between the question and
the execution (the person moves it, in a turn that runs before the execution): the skip leaves it
as it is and says so, in English and Hebrew; unchanged, it skips. The execution is started as the
answer's turn starts it (its approval asked at the question's time), on the local stack and the
fake clock."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import boto3
import pytest

from memo.executor.contracts import Approval, ExecutionInput, StepTask, args_hash
from memo.text.language import Language
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import MONDAY, shown

NEXT_WEEK = {
    "skipFrom": (MONDAY + timedelta(days=6)).isoformat(),
    "skipUntil": (MONDAY + timedelta(days=13)).isoformat(),
}


def _the_only_reminder(chat: Conversation) -> str:
    items = boto3.client("dynamodb", region_name="us-east-1").query(
        TableName="memo-items",
        KeyConditionExpression="pk = :pk AND begins_with(sk, :r)",
        ExpressionAttributeValues={":pk": {"S": f"USER#{chat.user.wa_id}"}, ":r": {"S": "REMINDER#"}},
    )["Items"]
    (item,) = items
    return str(item["sk"]["S"]).removeprefix("REMINDER#")


def _approved_skip(
    chat: Conversation, clock: FakeClock, days: dict[str, str], language: Language = "en"
) -> ExecutionInput:
    """The gym's skip (of next week's times with `days`, else of its next time), approved as of now."""
    args: dict[str, Any] = {"reminderIds": [f"{_the_only_reminder(chat)}~occurrence"], **days}
    approval = Approval(
        hitl_id="h-skip",
        args_hash=args_hash(args),
        expires_at=clock.now + timedelta(minutes=5),
        asked_at=clock.now,
    )
    task = StepTask(
        trace_id="wamid.the-skip",
        thread_id=chat.user.wa_id,
        step_id="s1",
        capability="reminders",
        action="delete",
        args=args,
        args_hash=args_hash(args),
        approval=approval,
        timezone="Asia/Jerusalem",
        language=language,
    )
    return ExecutionInput(
        trace_id=task.trace_id,
        thread_id=task.thread_id,
        phone_number_id="100000000000001",
        timezone="Asia/Jerusalem",
        language=language,
        groups=[[task]],
    )


def _run(chat: Conversation, execution: ExecutionInput) -> str:
    assert chat.stack.stepfunctions is not None
    chat.stack.stepfunctions.run(execution)
    (reply,) = chat.replies()
    return reply


@pytest.mark.parametrize("days", [NEXT_WEEK, {}], ids=["next-week", "next-time"])
def test_a_skip_of_a_series_moved_after_the_approval_skips_nothing(
    chat: Conversation, clock: FakeClock, days: dict[str, str]
) -> None:
    chat.say("remind me every tuesday and thursday at 7pm to go to the gym")
    skip = _approved_skip(chat, clock, days)
    clock.advance(minutes=1)
    assert chat.say("move the gym to 8pm").startswith("Which one do you mean?")
    assert chat.tap(2).startswith("🔁 Updated")  # the whole series
    assert _run(chat, skip) == (
        f"I didn't skip “go to the gym”: it was changed after you approved (now for {shown(1, 20)}). "
        "Ask again if you still want it."
    )
    listed = chat.say("what do I have next week?")
    assert f"{shown(8, 20)} and {shown(10, 20)}" in listed, listed
    assert chat.say("what's my next reminder?").count(shown(1, 20)) == 1


def test_hebrew_a_skip_of_a_series_moved_after_the_approval_skips_nothing(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("תזכיר לי כל יום שלישי וחמישי ב7 בערב ללכת לחדר כושר")
    skip = _approved_skip(chat, clock, NEXT_WEEK, "he")
    clock.advance(minutes=1)
    chat.say("תעביר את החדר כושר ל8 בערב")
    assert chat.tap(2).startswith("🔁 עדכנתי")  # the whole series
    assert _run(chat, skip).startswith("על „ללכת לחדר כושר” לא דילגתי: הפרטים השתנו אחרי שאישרת")
    assert shown(8, 20, language="he") in chat.say("מה יש לי בשבוע הבא?")


def test_a_skip_of_a_series_unchanged_since_the_approval_skips_its_times(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me every tuesday and thursday at 7pm to go to the gym")
    skip = _approved_skip(chat, clock, NEXT_WEEK)
    clock.advance(minutes=1)
    assert "go to the gym" in chat.say("what do I have next week?")  # a read changes nothing
    assert _run(chat, skip).startswith(f"✅ Skipped “go to the gym” on {shown(8, 19)} and {shown(10, 19)}")
    assert chat.say("what do I have next week?").startswith("You have no reminders from")
