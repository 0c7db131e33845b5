"""How a `memo_operation` case reads to an operator (`caseplatform.views.ViewProvider`): the action in
words (a list by its name and how many of its items), and the affected items with their titles and
times in the item's own timezone, resolved at read time from the items table, each marked when it
vanished or changed since the case was submitted; a repeating reminder is marked as a series with its
rule, since deleting it ends every occurrence. Each item carries the argument (`key`) whose id list
holds it, so the page edits by choosing items, not by writing JSON. The conversation shows the
request, the turns before it and the user's answers after it (a narrowing such as "yes but keep the
rent" is one of them). The case itself stays PII-minimised (ids only): titles are read behind the
review API's authorization and never stored in the case. The user's number appears only masked.

The waiting step (its thread and args) comes from the token store, so a decided or expired case
(its token gone) shows the payload and the final decision only.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

from caseplatform.model import CaseRecord
from caseplatform.redaction import mask_contacts
from memo.capabilities.items import ListItem, Note, Reminder
from memo.conversation.model import ThreadSnapshot
from memo.operator_review.policy import item_count
from memo.operator_review.tokens import TokenStore
from memo.text.dates import format_when
from memo.text.series_words import describe

VERBS = {"delete": "Delete", "delete_all": "Delete", "clear": "Clear", "update": "Change", "create": "Create"}


#: How many of the conversation's last messages (up to the request) the operator sees.
CONTEXT_TURNS = 6
#: How many messages after the request (the user's answers to Memo's question) the operator sees.
LATER_TURNS = 4


class ConversationReader(Protocol):
    def load(self, thread_id: str, *, now: datetime, limit: int) -> ThreadSnapshot: ...


class ItemsReader(Protocol):
    def get_reminder(self, thread_id: str, reminder_id: str) -> Reminder | None: ...

    def list_notes(self, thread_id: str) -> list[Note]: ...

    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]: ...


def action_words(action: str, capability: str, count: int, who: str) -> str:
    """ "Delete 12 reminders of +97250…67": what approving will do."""
    verb = VERBS.get(action, action.replace("_", " ").capitalize())
    noun = (
        capability.rstrip("s") if count == 1 else capability if capability.endswith("s") else capability + "s"
    )
    return f"{verb} {count} {noun} of {who}"


def list_words(action: str, list_name: str, count: int, who: str) -> str:
    """ "Clear the “groceries” list (5 items) of +97250…67": a list step by its list's name."""
    items = "1 item" if count == 1 else f"{count} items"
    if action == "clear":
        return f"Clear the “{list_name}” list ({items}) of {who}"
    if action == "remove":
        return f"Remove {items} from the “{list_name}” list of {who}"
    if action == "add":
        return f"Add {items} to the “{list_name}” list of {who}"
    verb = VERBS.get(action, action.replace("_", " ").capitalize())
    return f"{verb} the “{list_name}” list ({items}) of {who}"


def short_number(thread_id: str) -> str:
    """`972501234567` -> `+972…567`: the country and the last digits, not enough to dial."""
    digits = thread_id.strip().lstrip("+")
    if len(digits) < 8:
        return "+" + "…" + digits[-2:]
    return f"+{digits[:3]}…{digits[-3:]}"


class MemoCaseView:
    def __init__(
        self,
        tokens: TokenStore,
        items: ItemsReader,
        *,
        conversation: ConversationReader | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        mask: Callable[[str], str] | None = None,
    ) -> None:
        self._tokens = tokens
        self._items = items
        self._conversation = conversation
        self._clock = clock
        self._mask = mask or short_number

    def __call__(self, record: CaseRecord, payload: dict[str, Any]) -> dict[str, Any] | None:
        waiting = self._tokens.get(record.case.case_id)
        if waiting is None:
            return None
        task = waiting.task
        who = self._mask(task.thread_id)
        items = [
            *self._reminders(task.thread_id, task.args),
            *self._notes(task.thread_id, task.args),
            *self._list_items(task.thread_id, task.action, task.args),
        ]
        list_name = task.args.get("listName")
        if task.capability == "lists" and isinstance(list_name, str):
            count = len(items) if task.action != "add" else item_count(task.args)
            words = list_words(task.action, list_name, count, who)
        else:
            words = action_words(task.action, task.capability, item_count(task.args), who)
        sections: list[dict[str, Any]] = [{"label": "Approving will", "value": words}]
        series = [f"{i['title']}: {i['series']}" for i in items if i.get("series")]
        if series:
            sections.append({"label": "Whole series (every occurrence ends)", "value": series})
        return {
            "sections": sections,
            "items": items,
            "context": self._context(task.thread_id, task.trace_id),
            "confirm": words
            if record.case.priority in ("high", "critical") or task.action.startswith(("delete", "clear"))
            else None,
        }

    def _context(self, thread_id: str, trace_id: str) -> dict[str, Any] | None:
        """The user's message that asked for the step (its wamid is the trace id) and the turns before
        it, contacts masked (phone numbers, e-mail addresses)."""
        if self._conversation is None:
            return None
        recent = self._conversation.load(thread_id, now=self._clock(), limit=20).recent
        asked = next((i for i, m in enumerate(recent) if m.wamid == trace_id), None)
        if asked is None:  # not in the recent window: the last thing the user said
            users = [i for i, m in enumerate(recent) if m.role == "user"]
            asked = users[-1] if users else None
        if asked is None:
            return None
        turns = recent[max(0, asked - CONTEXT_TURNS + 1) : asked + 1]
        later = recent[asked + 1 : asked + 1 + LATER_TURNS]
        return {
            "request": mask_contacts(recent[asked].text)[:1000],
            "turns": [
                *({"who": _who(m.role), "text": mask_contacts(m.text)[:500]} for m in turns),
                *({"who": _who(m.role), "text": mask_contacts(m.text)[:500], "later": True} for m in later),
            ],
        }

    def _reminders(self, thread_id: str, args: dict[str, Any]) -> list[dict[str, Any]]:
        found = []
        for reminder_id in _ids(args, "reminderIds"):
            reminder = self._items.get_reminder(thread_id, reminder_id)
            if reminder is None:
                found.append(
                    {
                        "id": reminder_id,
                        "key": "reminderIds",
                        "title": "(gone since the case was submitted)",
                        "status": "vanished",
                    }
                )
                continue
            when = format_when(reminder.due_at, "en", reminder.timezone)
            entry = {
                "id": reminder_id,
                "key": "reminderIds",
                "title": reminder.title,
                "when": f"{when} ({reminder.timezone})",
                "status": "ok",
            }
            if reminder.recurrence:
                rule = describe(reminder.recurrence, "en")
                entry.update(series=rule, when=f"{rule}, the whole series; next {entry['when']}")
            if reminder.status != "scheduled":
                entry.update(status="changed", note=f"now {reminder.status}")
            found.append(entry)
        return found

    def _notes(self, thread_id: str, args: dict[str, Any]) -> list[dict[str, Any]]:
        wanted = _ids(args, "noteIds")
        if not wanted:
            return []
        notes = {n.note_id: n for n in self._items.list_notes(thread_id)}
        return [
            {"id": i, "key": "noteIds", "title": notes[i].text[:200], "status": "ok"}
            if i in notes
            else {
                "id": i,
                "key": "noteIds",
                "title": "(gone since the case was submitted)",
                "status": "vanished",
            }
            for i in wanted
        ]

    def _list_items(self, thread_id: str, action: str, args: dict[str, Any]) -> list[dict[str, Any]]:
        """The items a clear or remove acts on, by their text: the pinned ids (a clear approved with
        the items it saw), else every item the list holds now (an unpinned clear)."""
        list_name = args.get("listName")
        if action not in ("clear", "remove") or not isinstance(list_name, str):
            return []
        held = {i.item_id: i for i in self._items.list_items(thread_id, list_name)}
        wanted = _ids(args, "itemIds") if isinstance(args.get("itemIds"), list) else list(held)
        key = "itemIds" if isinstance(args.get("itemIds"), list) else None
        return [
            {"id": i, "key": key, "title": held[i].text[:200], "status": "ok"}
            if i in held
            else {"id": i, "key": key, "title": "(gone since the case was submitted)", "status": "vanished"}
            for i in wanted
        ]


def _who(role: str) -> str:
    return "user" if role == "user" else "Memo"


def _ids(args: dict[str, Any], key: str) -> list[str]:
    value = args.get(key)
    return [str(v) for v in value] if isinstance(value, list) else []
