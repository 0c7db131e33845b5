"""The caps checked over the steps about to run: what the steps add, counted from their resolved
args, against what the person holds, read only for what the request adds to."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from memo.capabilities.items import ListItem, Note, Reminder
from memo.capabilities.limits import UserCaps
from memo.conversation.model import ThreadSnapshot, UserProfile
from memo.domain import PlanStep, TurnState
from memo.hitl.interpreter import RuleInterpreter
from memo.ingress.inbound import InboundMessage
from memo.planner.rules import RulePlanner
from memo.turn.limits import cap_reached
from memo.turn.outcome import TurnContext
from memo.turn.reads import DecisionPorts, Turn
from tests.unit.hitl.conftest import NOW, TZ, make_state, plan, step

THREAD = "972501234567"
CAPS = UserCaps(reminders=3, repeating_reminders=1, list_add_items=4, list_items=5)
DAILY = "FREQ=DAILY"


@dataclass
class Items:
    reminders: list[Reminder] = field(default_factory=list)
    lists: dict[str, list[str]] = field(default_factory=dict)
    reads: list[str] = field(default_factory=list)

    def list_upcoming_reminders(self, thread_id: str, now: Any) -> list[Reminder]:
        self.reads.append("reminders")
        return list(self.reminders)

    def list_notes(self, thread_id: str) -> list[Note]:
        return []

    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]:
        self.reads.append(f"list:{list_name}")
        return [
            ListItem(item_id=f"i{n}", thread_id=thread_id, list_name=list_name, text=text, created_at=NOW)
            for n, text in enumerate(self.lists.get(list_name, []))
        ]

    def all_list_items(self, thread_id: str) -> list[ListItem]:
        return []


def reminder(n: int, *, repeating: bool = False) -> Reminder:
    return Reminder(
        reminder_id=f"r{n}",
        thread_id=THREAD,
        title=f"thing {n}",
        due_at=NOW + timedelta(days=1),
        timezone=TZ,
        created_at=NOW,
        recurrence=f"DTSTART:20240502T090000\nRRULE:{DAILY}" if repeating else None,
    )


def turn_over(items: Items) -> Turn:
    message = InboundMessage(
        wamid="wamid.T", thread_id=THREAD, phone_number_id="PNID", timestamp=0, type="text", text="x"
    )
    ctx = TurnContext(
        message=message,
        trace_id="wamid.T",
        profile=UserProfile(thread_id=THREAD, timezone=TZ, created_at=NOW),
        snapshot=ThreadSnapshot(thread_id=THREAD),
        now=NOW,
    )
    ports = DecisionPorts(
        planner=RulePlanner(),
        interpreter=RuleInterpreter(),
        items=items,
        pending=None,  # type: ignore[arg-type]  # not read by the caps
        hitl_ttl_seconds=300,
        caps=CAPS,
    )
    return Turn(ctx, ports)


def resolved(*steps: tuple[PlanStep, dict[str, Any]]) -> TurnState:
    state = make_state(plan(*(s for s, _ in steps)))
    for s, args in steps:
        state = state.with_executor_args(s.id, args)
    return state


def create(n: int, *, repeating: bool = False) -> tuple[PlanStep, dict[str, Any]]:
    args: dict[str, Any] = {"title": f"new {n}", "when": (NOW + timedelta(days=2)).isoformat()}
    if repeating:
        args["recurrence"] = DAILY
    return step(step_id=f"s{n}", action="create"), args


def add(step_id: str, list_name: str, *items: str) -> tuple[PlanStep, dict[str, Any]]:
    return step(step_id=step_id, capability="lists", action="add"), {
        "listName": list_name,
        "items": list(items),
    }


def test_reminders_up_to_the_cap_pass_and_one_more_is_refused() -> None:
    items = Items(reminders=[reminder(1)])
    assert cap_reached(turn_over(items), resolved(create(1), create(2))) is None
    reached = cap_reached(turn_over(items), resolved(create(1), create(2), create(3)))
    assert reached is not None and (reached.cap, reached.held, reached.limit) == ("reminders", 1, 3)


def test_a_repeating_reminder_past_its_cap_is_refused_and_a_one_time_one_is_not() -> None:
    items = Items(reminders=[reminder(1, repeating=True)])
    assert cap_reached(turn_over(items), resolved(create(2))) is None
    reached = cap_reached(turn_over(items), resolved(create(2, repeating=True)))
    assert reached is not None and reached.cap == "repeating_reminders"


def test_a_one_time_reminder_made_to_repeat_counts_and_a_series_given_a_new_rule_does_not() -> None:
    items = Items(reminders=[reminder(1, repeating=True), reminder(2)])
    renew = step(step_id="s1", action="update"), {"reminderIds": ["r1~series"], "recurrence": "FREQ=WEEKLY"}
    assert cap_reached(turn_over(items), resolved(renew)) is None
    repeat = step(step_id="s1", action="update"), {"reminderIds": ["r2"], "recurrence": DAILY}
    reached = cap_reached(turn_over(items), resolved(repeat))
    assert reached is not None and reached.cap == "repeating_reminders"


def test_the_items_of_one_message_are_counted_over_its_steps_without_a_read() -> None:
    items = Items()
    at_cap = resolved(add("s1", "shopping", "a", "b"), add("s2", "todo", "c", "d"))
    assert cap_reached(turn_over(items), at_cap) is None
    items.reads.clear()
    past = resolved(add("s1", "shopping", "a", "b", "c"), add("s2", "todo", "d", "e"))
    reached = cap_reached(turn_over(items), past)
    assert reached is not None and (reached.cap, reached.held) == ("list_add_items", 5)
    assert items.reads == []


def test_a_list_s_length_counts_only_what_is_not_on_it_yet() -> None:
    items = Items(lists={"shopping": ["milk", "eggs", "bread", "jam"]})
    # "Milk" is on the list already: one new item, five in all.
    assert cap_reached(turn_over(items), resolved(add("s1", "shopping", "Milk", "cheese"))) is None
    reached = cap_reached(turn_over(items), resolved(add("s1", "shopping", "cheese", "butter")))
    assert reached is not None and (reached.cap, reached.held, reached.list_name) == (
        "list_items",
        4,
        "shopping",
    )


def test_nothing_is_read_for_a_request_that_adds_nothing() -> None:
    items = Items(reminders=[reminder(n) for n in range(9)])
    listing: tuple[PlanStep, dict[str, Any]] = step(step_id="s1", action="list"), {}
    assert cap_reached(turn_over(items), resolved(listing)) is None
    assert items.reads == []


def test_a_step_already_answered_is_not_counted() -> None:
    items = Items(reminders=[reminder(1), reminder(2), reminder(3)])
    state = resolved(create(1)).with_execution_result("s1", {"success": False, "error": "not found"})
    assert cap_reached(turn_over(items), state) is None
