"""The memo_operation case view: items resolved at read time (titles, times in the item's timezone),
marked when they vanished or changed since submission; the action in words with the number masked;
the listener's message when an operator narrowed the request (English and Hebrew)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from caseplatform.model import Case, CaseRecord, CaseState, Principal
from memo.capabilities.items import ListItem, Note, Reminder
from memo.conversation.model import MemoryMessage, ThreadSnapshot
from memo.executor.contracts import StepTask, args_hash
from memo.operator_review.listener import changed_by_operator_text
from memo.operator_review.tokens import WaitingStep
from memo.operator_review.view import MemoCaseView, short_number

NOW = datetime(2026, 11, 24, 8, 0, tzinfo=UTC)
THREAD = "972501234567"


def _task(**args: object) -> StepTask:
    return StepTask(
        trace_id="t",
        thread_id=THREAD,
        step_id="s1",
        capability="reminders",
        action="delete",
        args=dict(args),
        args_hash=args_hash(dict(args)),
    )


class Tokens:
    def __init__(self, waiting: WaitingStep | None) -> None:
        self.waiting = waiting

    def get(self, case_id: str) -> WaitingStep | None:
        return self.waiting

    def put(self, waiting: WaitingStep, *, expires_at: datetime) -> None:
        self.waiting = waiting

    def delete(self, case_id: str) -> None:
        self.waiting = None


class Items:
    def __init__(self, reminders: list[Reminder], notes: list[Note] = []) -> None:  # noqa: B006
        self.reminders = {r.reminder_id: r for r in reminders}
        self.notes = notes

    def get_reminder(self, thread_id: str, reminder_id: str) -> Reminder | None:
        return self.reminders.get(reminder_id)

    def list_notes(self, thread_id: str) -> list[Note]:
        return self.notes

    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]:
        return []


def _reminder(rid: str, title: str, status: str = "scheduled") -> Reminder:
    return Reminder(
        reminder_id=rid,
        thread_id=THREAD,
        title=title,
        due_at=datetime(2026, 11, 24, 15, 0, tzinfo=UTC),
        timezone="Asia/Jerusalem",
        status=status,
        created_at=NOW,
    )


def _record(priority: str = "normal") -> CaseRecord:
    case = Case(
        case_id="HITL-1",
        schema_version=1,
        adapter_id="memo_operation",
        case_type="reminders_delete",
        title="t",
        summary="s",
        payload={},
        payload_hash_sha256="0" * 64,
        submitter=Principal(name="Memo", role="agent", id="memo:executor"),
        priority=priority,  # type: ignore[arg-type]
        confidence=None,
        created_at_ms=0,
        updated_at_ms=0,
    )
    return CaseRecord(case, CaseState(case_id="HITL-1", current_state="pending", updated_at_ms=0))


def test_items_read_with_titles_times_and_their_state_now() -> None:
    task = _task(reminderIds=["r1", "r2", "r3"])
    view = MemoCaseView(
        Tokens(WaitingStep(case_id="HITL-1", task_token="tok", task=task)),
        Items([_reminder("r1", "call mom"), _reminder("r3", "pay rent", status="sent")]),
    )(_record(), {})
    assert view is not None
    assert [(i["title"], i["status"]) for i in view["items"]] == [
        ("call mom", "ok"),
        ("(gone since the case was submitted)", "vanished"),
        ("pay rent", "changed"),
    ]
    assert view["items"][0]["when"] == "Tue 24 Nov, 17:00 (Asia/Jerusalem)"
    assert view["confirm"] == "Delete 3 reminders of +972…567"
    assert THREAD not in str(view)


def test_a_decided_case_has_no_live_view() -> None:
    assert MemoCaseView(Tokens(None), Items([]))(_record(), {}) is None


def test_short_number_never_shows_enough_to_dial() -> None:
    assert short_number("972501234567") == "+972…567"
    assert short_number("+44 7700") == "+…00"


def test_the_user_is_told_what_runs_after_an_operator_edit() -> None:
    asked = _task(reminderIds=["r1", "r2"])
    narrowed = _task(reminderIds=["r1"])
    assert changed_by_operator_text(asked, narrowed) == (
        "An operator changed your request before it ran: I'll delete 1 of the 2 reminders you asked about."
    )
    hebrew = asked.model_copy(update={"language": "he"})
    assert changed_by_operator_text(hebrew, narrowed).startswith("נציג שינה את הבקשה שלך")
    same_count = _task(reminderIds=["r9"])
    assert "changed the details" in changed_by_operator_text(_task(reminderIds=["r1"]), same_count)


class Conversation:
    def load(self, thread_id: str, *, now: datetime, limit: int) -> ThreadSnapshot:
        said = [
            ("user", "remind me to call mom at 5, her number is 0501234567", "w1"),
            ("assistant", "Set: call mom, Tue 17:00.", None),
            ("user", "מחק את התזכורת", "t"),
            ("assistant", "This needs a quick check by one of our operators.", None),
        ]
        return ThreadSnapshot(
            thread_id=thread_id,
            recent=[MemoryMessage(role=r, text=t, at=NOW, wamid=w) for r, t, w in said],
        )


def test_the_request_and_the_turns_around_it_with_contacts_masked() -> None:
    task = _task(reminderIds=["r1"])
    view = MemoCaseView(
        Tokens(WaitingStep(case_id="HITL-1", task_token="tok", task=task)),
        Items([_reminder("r1", "call mom")]),
        conversation=Conversation(),
        clock=lambda: NOW,
    )(_record(), {})
    assert view is not None
    context = view["context"]
    assert context["request"] == "מחק את התזכורת"  # the message whose wamid is the trace id
    # the turns before it, the request, then what Memo said after it
    assert [(t["who"], t.get("later", False)) for t in context["turns"]] == [
        ("user", False),
        ("Memo", False),
        ("user", False),
        ("Memo", True),
    ]
    assert "0501234567" not in str(context) and "[redacted-phone]" in context["turns"][0]["text"]


class ListsAndSeries(Items):
    def __init__(self, reminders: list[Reminder], lists: dict[str, list[str]]) -> None:
        super().__init__(reminders)
        self.lists = lists

    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]:
        return [
            ListItem(
                item_id=f"{list_name}-{n}", thread_id=thread_id, list_name=list_name, text=t, created_at=NOW
            )
            for n, t in enumerate(self.lists.get(list_name, []))
        ]


def _list_task(action: str, **args: object) -> StepTask:
    return _task(**args).model_copy(update={"capability": "lists", "action": action})


def _view(task: StepTask, items: Items) -> dict[str, Any]:
    view = MemoCaseView(Tokens(WaitingStep(case_id="HITL-1", task_token="tok", task=task)), items)(
        _record(), {}
    )
    assert view is not None
    return view


GROCERIES = {"groceries": ["milk", "eggs", "bread", "apples", "rice"]}


def test_clearing_a_list_names_the_list_and_shows_its_items() -> None:
    pinned = _view(
        _list_task("clear", listName="groceries", itemIds=[f"groceries-{n}" for n in range(5)]),
        ListsAndSeries([], GROCERIES),
    )
    assert pinned["sections"][0]["value"] == "Clear the “groceries” list (5 items) of +972…567"
    assert [i["title"] for i in pinned["items"]] == GROCERIES["groceries"]
    assert {i["key"] for i in pinned["items"]} == {"itemIds"}  # chosen one by one in the edit form
    unpinned = _view(_list_task("clear", listName="groceries"), ListsAndSeries([], GROCERIES))
    assert unpinned["sections"][0]["value"] == "Clear the “groceries” list (5 items) of +972…567"
    assert {i["key"] for i in unpinned["items"]} == {None}  # nothing to narrow: no ids in the payload


def test_removing_items_names_them_and_the_list_and_marks_one_gone() -> None:
    task = _list_task("remove", listName="groceries", itemIds=["groceries-1", "groceries-9"])
    view = _view(task, ListsAndSeries([], GROCERIES))
    assert view["sections"][0]["value"] == "Remove 2 items from the “groceries” list of +972…567"
    assert [(i["title"], i["status"]) for i in view["items"]] == [
        ("eggs", "ok"),
        ("(gone since the case was submitted)", "vanished"),
    ]


def test_a_series_is_marked_as_the_whole_series_with_its_rule() -> None:
    weekly = _reminder("r1", "gym").model_copy(
        update={"recurrence": "DTSTART:20261124T170000\nRRULE:FREQ=WEEKLY;BYDAY=TU"}
    )
    view = _view(_task(reminderIds=["r1", "r2"]), ListsAndSeries([weekly, _reminder("r2", "call mom")], {}))
    (gym, mom) = view["items"]
    assert gym["series"] == "every Tuesday at 17:00"
    assert gym["when"].startswith("every Tuesday at 17:00, the whole series; next Tue 24 Nov, 17:00")
    assert "series" not in mom
    assert view["sections"][1] == {
        "label": "Whole series (every occurrence ends)",
        "value": ["gym: every Tuesday at 17:00"],
    }


class Narrowed:
    def load(self, thread_id: str, *, now: datetime, limit: int) -> ThreadSnapshot:
        said = [
            ("user", "delete all my reminders", "t"),
            ("assistant", "Delete these 3 reminders? 1. pills 2. rent 3. gym", None),
            ("user", "yes but keep the pills and the rent", "w3"),
            ("assistant", "This needs a quick check by one of our operators.", None),
        ]
        return ThreadSnapshot(
            thread_id=thread_id, recent=[MemoryMessage(role=r, text=t, at=NOW, wamid=w) for r, t, w in said]
        )


def test_the_users_own_narrowing_after_the_request_is_shown() -> None:
    view = MemoCaseView(
        Tokens(WaitingStep(case_id="HITL-1", task_token="tok", task=_task(reminderIds=["r1"]))),
        Items([_reminder("r1", "gym")]),
        conversation=Narrowed(),
        clock=lambda: NOW,
    )(_record(), {})
    assert view is not None
    turns = view["context"]["turns"]
    assert view["context"]["request"] == "delete all my reminders"
    assert [(t["text"][:10], t.get("later", False)) for t in turns] == [
        ("delete all", False),
        ("Delete the", True),
        ("yes but ke", True),
        ("This needs", True),
    ]
