"""How a `memo_operation` case reads to an operator (`caseplatform.views.ViewProvider`): the action in
words, and the affected items with their titles and times in the item's own timezone, resolved at
read time from the items table, each marked when it vanished or changed since the case was
submitted. The case itself stays PII-minimised (ids only): titles are read behind the review API's
authorization and never stored in the case. The user's number appears only masked.

The waiting step (its thread and args) comes from the token store, so a decided or expired case
(its token gone) shows the payload and the final decision only.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

from caseplatform.model import CaseRecord
from caseplatform.redaction import mask_contacts
from memo.capabilities.items import Note, Reminder
from memo.conversation.model import ThreadSnapshot
from memo.operator_review.policy import item_count
from memo.operator_review.tokens import TokenStore
from memo.text.dates import format_when

VERBS = {"delete": "Delete", "delete_all": "Delete", "clear": "Clear", "update": "Change", "create": "Create"}


#: How many of the conversation's last messages (up to the request) the operator sees.
CONTEXT_TURNS = 6


class ConversationReader(Protocol):
    def load(self, thread_id: str, *, now: datetime, limit: int) -> ThreadSnapshot: ...


class ItemsReader(Protocol):
    def get_reminder(self, thread_id: str, reminder_id: str) -> Reminder | None: ...

    def list_notes(self, thread_id: str) -> list[Note]: ...


def action_words(action: str, capability: str, count: int, who: str) -> str:
    """ "Delete 12 reminders of +97250…67": what approving will do."""
    verb = VERBS.get(action, action.replace("_", " ").capitalize())
    noun = (
        capability.rstrip("s") if count == 1 else capability if capability.endswith("s") else capability + "s"
    )
    return f"{verb} {count} {noun} of {who}"


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
        words = action_words(task.action, task.capability, item_count(task.args), who)
        items = [*self._reminders(task.thread_id, task.args), *self._notes(task.thread_id, task.args)]
        return {
            "sections": [{"label": "Approving will", "value": words}],
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
        return {
            "request": mask_contacts(recent[asked].text)[:1000],
            "turns": [
                {"who": "user" if m.role == "user" else "Memo", "text": mask_contacts(m.text)[:500]}
                for m in turns
            ],
        }

    def _reminders(self, thread_id: str, args: dict[str, Any]) -> list[dict[str, Any]]:
        found = []
        for reminder_id in _ids(args, "reminderIds"):
            reminder = self._items.get_reminder(thread_id, reminder_id)
            if reminder is None:
                found.append(
                    {"id": reminder_id, "title": "(gone since the case was submitted)", "status": "vanished"}
                )
                continue
            when = format_when(reminder.due_at, "en", reminder.timezone)
            entry = {
                "id": reminder_id,
                "title": reminder.title,
                "when": f"{when} ({reminder.timezone})",
                "status": "ok",
            }
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
            {"id": i, "title": notes[i].text[:200], "status": "ok"}
            if i in notes
            else {"id": i, "title": "(gone since the case was submitted)", "status": "vanished"}
            for i in wanted
        ]


def _ids(args: dict[str, Any], key: str) -> list[str]:
    value = args.get(key)
    return [str(v) for v in value] if isinstance(value, list) else []
