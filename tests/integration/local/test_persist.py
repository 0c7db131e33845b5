"""`make run` keeps the person's data across restarts of the local stack; `reset` starts over."""

from __future__ import annotations

from pathlib import Path

from memo.local.aws import client
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.conversation import Conversation


def _schedules() -> list[str]:
    page = client("scheduler").list_schedules(GroupName="memo-reminders")
    return [s["Name"] for s in page["Schedules"]]


def test_a_reminder_and_a_note_survive_a_restart(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    user = WhatsAppUser()
    with LocalStack(start_poller=False, state_file=state) as first:
        chat = Conversation(stack=first, user=user)
        assert "Reminder set" in chat.say("remind me to water the plants tomorrow at 9am")
        chat.say("note: the wifi password is hunter2")
        scheduled = _schedules()
    assert state.exists() and scheduled

    with LocalStack(start_poller=False, state_file=state) as second:
        chat = Conversation(stack=second, user=user)
        assert "water the plants" in chat.say("what are my reminders?")
        assert "hunter2" in chat.say("what's the wifi password?")
        assert _schedules() == scheduled  # the ticker will still fire it


def test_without_a_state_file_every_stack_starts_empty(tmp_path: Path) -> None:
    user = WhatsAppUser()
    with LocalStack(start_poller=False) as first:
        Conversation(stack=first, user=user).say("remind me to water the plants tomorrow at 9am")
    with LocalStack(start_poller=False) as second:
        assert "water the plants" not in Conversation(stack=second, user=user).say("what are my reminders?")
