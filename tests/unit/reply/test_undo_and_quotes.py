"""The responder's side of issue 10: the "Undo" button of a delete (point 9) and the items a sent
message named, kept by its message id (point 4)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memo.reply.respond import respond
from memo.reply.undo import parse_undo, undo_button_id
from tests.unit.reply.factories import NOW, FakeMemory, FakeSender, failed, ok, reminder_created, request

UNTIL = NOW + timedelta(minutes=10)


def _deleted(step_id: str = "s1") -> object:
    return ok(
        step_id,
        "reminders",
        "delete",
        data={
            "deleted": [{"id": "r1", "title": "call mom", "when": NOW.isoformat()}],
            "undoUntil": UNTIL.isoformat(),
        },
        external_ids={"reminderId": "r1"},
    )


def test_a_delete_gets_an_undo_button_naming_the_turn_and_the_window() -> None:
    sender, memory = FakeSender(), FakeMemory()
    respond(request(_deleted()), sender=sender, memory=memory, clock=lambda: NOW)  # type: ignore[arg-type]
    [(_, _, reply)] = sender.sent
    assert reply.kind == "buttons" and [c.title for c in reply.choices] == ["Undo"]
    undo = parse_undo(reply.choices[0].id)
    assert undo is not None and undo.undo_key == "wamid.T1" and undo.until == UNTIL.replace(microsecond=0)
    assert undo.open_at(UNTIL - timedelta(seconds=1)) and not undo.open_at(UNTIL)


def test_the_undo_button_is_in_hebrew_for_a_hebrew_turn() -> None:
    sender = FakeSender()
    respond(request(_deleted(), language="he"), sender=sender, memory=FakeMemory(), clock=lambda: NOW)  # type: ignore[arg-type]
    [(_, _, reply)] = sender.sent
    assert [c.title for c in reply.choices] == ["ביטול המחיקה"]


def test_no_undo_without_a_successful_destructive_step() -> None:
    sender = FakeSender()
    respond(
        request(reminder_created(), failed("s2", "reminders", "delete", "NOT_FOUND")),
        sender=sender,
        memory=FakeMemory(),
        clock=lambda: NOW,
    )
    [(_, _, reply)] = sender.sent
    assert reply.kind == "text" and reply.choices == []


def test_malformed_undo_ids_are_not_undos() -> None:
    assert parse_undo(None) is None
    assert parse_undo("s1:approve") is None
    assert parse_undo("undo:soon:wamid.1") is None
    assert parse_undo("undo:123:") is None
    assert parse_undo("undo:" + "1" * 300) is None
    ok_id = undo_button_id("wamid.1", datetime(2026, 1, 1, tzinfo=UTC))
    assert parse_undo(ok_id) is not None


def test_the_sent_message_id_keeps_the_items_it_named() -> None:
    sender, memory = FakeSender(), FakeMemory()
    listed = ok(
        "s1",
        "reminders",
        "list",
        data={
            "reminders": [
                {"id": "r1", "title": "a", "when": NOW.isoformat()},
                {"id": "r2", "title": "b", "when": NOW.isoformat()},
            ]
        },
    )
    result = respond(request(reminder_created("s0"), listed), sender=sender, memory=memory, clock=lambda: NOW)
    (message_id,) = result.message_ids
    named = memory.quotes[message_id]
    ids = [e["externalIds"] for e in named if e.get("externalIds")]
    assert ids == [{"reminderId": "r-s0"}, {"reminderIds": ["r1", "r2"]}]  # what it confirmed, what it listed


def test_a_failed_send_keeps_no_quote() -> None:
    memory = FakeMemory()
    respond(
        request(reminder_created()), sender=FakeSender(fail_with=131047), memory=memory, clock=lambda: NOW
    )
    assert memory.quotes == {}
