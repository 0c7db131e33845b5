"""Quoted replies: which items each message Memo sent named, kept by its WhatsApp message id.

When the responder's reply goes out, the Graph API returns its message id (`messages[0].id`); the
items the reply confirms or lists are recorded under that id (`QuoteStore.remember`): the turn's
latest-action entries (created, changed, deleted items) plus one entry per listing (the reminders a
"show my reminders" showed, the notes a search found). A user who replies to that message (WhatsApp's
`context.id`) with "move it to 8pm" or "delete that" means those items: the turn recalls them and
entity resolution binds "it/that/this" to them first (`memo.resolution.entity`), asking which one
when the message named several. Records live as long as latest actions (12 hours).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from pydantic import ValidationError

from memo.domain import LatestAction, TurnState
from memo.executor.contracts import StepOutcome

#: (capability, action, data key of the shown items, externalIds key they are recorded under)
_LISTINGS: tuple[tuple[str, str, str, str], ...] = (
    ("reminders", "list", "reminders", "reminderIds"),
    ("notes", "search", "notes", "noteIds"),
)


class QuoteStore(Protocol):
    """Where the items of a sent message are kept (`memo.aws.conversation_table.DynamoQuotes`)."""

    def remember(
        self, thread_id: str, message_ids: Sequence[str], actions: Sequence[dict[str, Any]], *, now: datetime
    ) -> None: ...

    def recall(self, thread_id: str, message_id: str, *, now: datetime) -> list[LatestAction]:
        """The items the message named (latest-action shaped, most relevant first); [] if unknown."""


def listing_entries(outcomes: Sequence[StepOutcome], *, now: datetime) -> list[dict[str, Any]]:
    """One latest-action shaped entry per successful listing, naming the items it showed."""
    entries: list[dict[str, Any]] = []
    for outcome in outcomes:
        result = outcome.result
        if not result.success:
            continue
        for capability, action, data_key, ids_key in _LISTINGS:
            if (result.capability, result.action) != (capability, action):
                continue
            shown = result.data.get(data_key)
            ids = [
                str(entry["id"])
                for entry in (shown if isinstance(shown, list) else [])
                if isinstance(entry, dict) and entry.get("id")
            ]
            if ids:
                action_entry = LatestAction(
                    created_at=now,
                    capability=capability,
                    action=action,
                    summary=result.summary,
                    external_ids={ids_key: ids},
                )
                entries.append(action_entry.model_dump(mode="json", exclude_none=True))
    return entries


def parse_quoted(raw: Sequence[Any]) -> list[LatestAction]:
    """Stored entries back as `LatestAction`s; an unreadable entry is skipped."""
    actions: list[LatestAction] = []
    for entry in raw:
        try:
            actions.append(LatestAction.model_validate(entry))
        except ValidationError:
            continue
    return actions


def refers_back(state: TurnState) -> bool:
    """A step of the plan still to resolve says "it/that" (`targetRef: latest_action`)."""
    output = state.planner_output
    return output is not None and any(
        step.constraints.get("targetRef") == "latest_action" and step.id not in state.executor_args
        for step in output.plan
    )
