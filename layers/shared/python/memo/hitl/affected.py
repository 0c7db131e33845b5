"""What an approval is about: the concrete items a resolved step will touch.

An approval is asked after resolution (resolve, then ask): the question lists the items by title and
time, and an answer can only keep some of them. These pure helpers read and rewrite the entity ids of
a step's executor args:
- `id_key(step)`: the args key holding the ids the step touches (None for steps that touch no
  existing item, such as create / save / add);
- `ids_in(step, args)`: those ids (None when the args name no pinned set);
- `with_ids(step, args, ids)`: the same args narrowed to `ids` (checked against the action's model);
- `changes_since(shown, current)`: what happened to the shown items meanwhile (deleted, renamed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memo.capabilities.dispatch import ARGS_MODELS
from memo.capabilities.reminder_args import split_scoped
from memo.domain import DisambiguationCandidate, PlanStep

_ID_KEYS: dict[tuple[str, str], str] = {
    ("reminders", "delete"): "reminderIds",
    ("reminders", "delete_all"): "reminderIds",
    ("reminders", "update"): "reminderIds",
    ("notes", "delete"): "noteIds",
    ("notes", "update"): "noteIds",
    ("notes", "delete_all"): "noteIds",
    ("lists", "remove"): "itemIds",
    ("lists", "clear"): "itemIds",
}

#: Actions that only take items away: an answer can narrow them, never give them a time or a title.
DESTRUCTIVE_ACTIONS = frozenset({"delete", "delete_all", "clear", "remove"})


def id_key(step: PlanStep) -> str | None:
    """The executor args key with the ids of the items the step touches, if it touches any."""
    return _ID_KEYS.get((step.capability, step.action))


def ids_in(step: PlanStep, args: dict[str, Any]) -> list[str] | None:
    key = id_key(step)
    if key is None:
        return None
    value = args.get(key)
    if not isinstance(value, list):
        return None
    return [str(v) for v in value]


def base_id(value: str) -> str:
    """The item's own id of an id the args hold: a repeating reminder's may carry the part it
    touches ("<id>#series", "<id>#occurrence": `memo.capabilities.reminders.split_scoped`)."""
    return split_scoped(value)[0]


def with_ids(step: PlanStep, args: dict[str, Any], ids: Sequence[str]) -> dict[str, Any]:
    """`args` touching exactly `ids` (in the given order), validated by the action's args model.
    An id the args already hold with its part of a repeating reminder keeps that part: narrowing
    "just this one" never widens it to the whole series."""
    key = id_key(step)
    if key is None:
        raise ValueError(f"{step.capability}/{step.action} touches no existing items")
    held = args.get(key)
    scoped = {base_id(str(v)): str(v) for v in held} if isinstance(held, list) else {}
    narrowed = {**args, key: list(dict.fromkeys(scoped.get(base_id(i), i) for i in ids))}
    model = ARGS_MODELS[(step.capability, step.action)]
    return model.model_validate(narrowed).to_json()


@dataclass(frozen=True)
class Changes:
    """Shown items that no longer exist, and shown items whose title changed (old, new)."""

    gone: tuple[DisambiguationCandidate, ...] = ()
    renamed: tuple[tuple[DisambiguationCandidate, DisambiguationCandidate], ...] = ()

    @property
    def any(self) -> bool:
        return bool(self.gone or self.renamed)


def changes_since(
    shown: Sequence[DisambiguationCandidate], current: Sequence[DisambiguationCandidate]
) -> Changes:
    """Compare the items a question showed with the user's items now (by id, then by title)."""
    now_by_id = {c.id: c for c in current}
    gone: list[DisambiguationCandidate] = []
    renamed: list[tuple[DisambiguationCandidate, DisambiguationCandidate]] = []
    for item in shown:
        found = now_by_id.get(item.id)
        if found is None:
            gone.append(item)
        elif found.label != item.label:
            renamed.append((item, found))
    return Changes(gone=tuple(gone), renamed=tuple(renamed))
