"""Quoted replies (docs/undo-and-quoted-replies.md): the items each sent message named, kept by its
message id, and read back when the user replies to that message."""

from __future__ import annotations

from datetime import timedelta

from memo.domain import LatestAction, PlannerOutput, PlanStep, TurnInput, TurnState
from memo.reply.quotes import listing_entries, parse_quoted, refers_back
from memo.reply.respond import respond
from tests.unit.reply.factories import NOW, FakeMemory, FakeSender, failed, ok, reminder_created, request


def _listed(step_id: str = "s1") -> object:
    return ok(
        step_id,
        "reminders",
        "list",
        summary="2 reminders",
        data={
            "reminders": [
                {"id": "r1", "title": "a", "when": NOW.isoformat()},
                {"id": "r2", "title": "b", "when": NOW.isoformat()},
            ]
        },
    )


def test_the_sent_message_id_keeps_the_items_it_named() -> None:
    sender, memory = FakeSender(), FakeMemory()
    result = respond(
        request(reminder_created("s0"), _listed()),  # type: ignore[arg-type]
        sender=sender,
        memory=memory,
        clock=lambda: NOW,
    )
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


def test_each_listing_names_the_items_it_showed_under_its_own_key() -> None:
    notes = ok("s2", "notes", "search", summary="1 note", data={"notes": [{"id": "n7", "text": "wifi"}]})
    entries = listing_entries([_listed(), notes], now=NOW)  # type: ignore[list-item]
    assert [(e["capability"], e["action"], e["externalIds"]) for e in entries] == [
        ("reminders", "list", {"reminderIds": ["r1", "r2"]}),
        ("notes", "search", {"noteIds": ["n7"]}),
    ]
    assert parse_quoted(entries) == [
        LatestAction(
            created_at=NOW, capability="reminders", action="list", summary="2 reminders",
            external_ids={"reminderIds": ["r1", "r2"]},
        ),
        LatestAction(
            created_at=NOW, capability="notes", action="search", summary="1 note", external_ids={"noteIds": ["n7"]}
        ),
    ]  # fmt: skip


def test_a_listing_that_showed_nothing_or_failed_names_nothing() -> None:
    outcomes = [
        ok("s1", "reminders", "list", data={"reminders": []}),
        ok("s2", "notes", "search", data={"notes": [{"title": "no id"}, "not an entry"]}),
        failed("s3", "reminders", "list", "CAPABILITY_UNAVAILABLE", data={"reminders": [{"id": "r1"}]}),
        reminder_created("s4"),  # not a listing: its item is in the turn's latest actions already
    ]
    assert listing_entries(outcomes, now=NOW) == []


def test_an_unreadable_stored_entry_is_skipped() -> None:
    good = LatestAction(created_at=NOW - timedelta(hours=1), capability="notes", action="create", summary="n")
    raw = [
        {"capability": "notes"},
        good.model_dump(mode="json"),
        "junk",
        {**good.model_dump(mode="json"), "createdAt": "x"},
    ]
    assert parse_quoted(raw) == [good]


def _state(*steps: PlanStep, args: dict[str, dict] | None = None) -> TurnState:
    output = PlannerOutput(intent_type="operation", confidence=0.9, risk_level="low", plan=list(steps))
    return TurnState(
        trace_id="wamid.T1",
        thread_id="972501234567",
        input=TurnInput(message="move it to 8pm"),
        planner_output=output,
        executor_args=args or {},
    )


def test_a_step_that_says_it_and_is_not_yet_resolved_refers_back() -> None:
    it = PlanStep(
        id="s1", capability="reminders", action="update", constraints={"targetRef": "latest_action"}
    )
    named = PlanStep(id="s2", capability="reminders", action="update", constraints={"title": "call mom"})
    assert refers_back(_state(named, it))
    assert not refers_back(_state(named))
    assert not refers_back(_state(it, args={"s1": {"reminderId": "r1"}}))  # already bound
    assert not refers_back(TurnState(trace_id="t", thread_id="u", input=TurnInput(message="hi")))
