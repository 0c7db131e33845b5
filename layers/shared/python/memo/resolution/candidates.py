"""The user's items a resolution target can name, as candidates, and what a lookup finds.

A lookup ends in one of three outcomes: `Found` (the ids), `Ambiguous` (the candidates the person
picks from) or `Missing` (a user-facing explanation). `entities` reads the items of the target's
kind; `candidate` turns one into the `DisambiguationCandidate` the picker shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from memo.capabilities.common import say
from memo.capabilities.items import ListItem, Note, Reminder
from memo.domain import DisambiguationCandidate, TurnState
from memo.resolution.resolvers import TargetKind, TargetQuery
from memo.text.dates import format_when
from memo.text.language import Language
from memo.text.list_counts import counted
from memo.text.wording import preview, quote

T = TypeVar("T")

#: Characters of an item a candidate carries (what the question shows of it, and its frozen state keeps).
LABEL_CHARS = 200
#: Actions whose plural words ("delete the meetings") may take several items.
MULTI_ACTIONS = frozenset({"delete", "remove"})


class ItemsReader(Protocol):
    """What entity resolution reads: the user's own items (`ItemsRepository` satisfies it)."""

    def list_upcoming_reminders(self, thread_id: str, now: datetime) -> list[Reminder]: ...
    def list_notes(self, thread_id: str) -> list[Note]: ...
    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]: ...
    def all_list_items(self, thread_id: str) -> list[ListItem]: ...


@dataclass(frozen=True)
class Found:
    ids: list[str]
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Ambiguous:
    candidates: list[DisambiguationCandidate]
    allow_multiple: bool
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Missing:
    message: str
    #: the lists the words are on, when they are on several and which one is to be asked
    lists: tuple[str, ...] = ()
    #: the words name an item, left as it is (the message says why): not a miss of another list
    left_as_is: bool = False


Lookup = Found | Ambiguous | Missing


@dataclass(frozen=True)
class Entity(Generic[T]):
    """One of the user's items as a lookup sees it: its id, the words it is matched on, and the
    short description the picker shows (a reminder's time, a note's date, an item's list)."""

    id: str
    label: str
    description: str | None
    item: T


def entities(
    target: TargetQuery, repository: ItemsReader, state: TurnState, now: datetime
) -> list[Entity[Any]]:
    """The user's items of the target's kind: upcoming reminders, notes, or one list's items."""
    kind, thread_id = target.kind, state.thread_id
    language, tz = state.input.language, state.input.timezone
    if kind == "reminder":
        reminders = repository.list_upcoming_reminders(thread_id, now)
        return [Entity(r.reminder_id, r.title, format_when(r.due_at, language, tz), r) for r in reminders]
    if kind == "note":
        notes = repository.list_notes(thread_id)
        return [Entity(n.note_id, n.text, format_when(n.created_at, language, tz), n) for n in notes]
    items = repository.list_items(thread_id, target.list_name or "")
    return [Entity(i.item_id, i.text, i.list_name, i) for i in items]


def candidate(entity: Entity[Any]) -> DisambiguationCandidate:
    due = getattr(entity.item, "due_at", None)  # a reminder's time: "the 6pm one", "the later one"
    data = {"at": due.isoformat()} if isinstance(due, datetime) else {}
    return DisambiguationCandidate(
        id=entity.id, label=label(entity.label), description=entity.description, data=data
    )


def label(text: str) -> str:
    """A candidate's label: an item's words, cut to `LABEL_CHARS` (the question and its frozen
    state keep a long note's first words, not the whole of it)."""
    return preview(text, LABEL_CHARS)


_NOUNS: dict[TargetKind, tuple[str, str]] = {
    "reminder": ("a reminder", "תזכורת שמתאימה"),  # (Hebrew: the verb agrees with the noun)
    "note": ("a note", "פתק שמתאים"),
    "list_item": ("an item", "פריט שמתאים"),
}
#: What is said when the user has no item of the kind at all.
NONE: dict[TargetKind, tuple[str, str]] = {
    "reminder": ("You don't have any upcoming reminders.", "אין לך תזכורות פעילות."),
    "note": ("You don't have any notes yet.", "אין לך עדיין פתקים."),
    "list_item": ("That list is empty.", "הרשימה הזאת ריקה."),
}


def not_found_text(kind: TargetKind, words: Sequence[str], language: Language) -> str:
    noun_en, noun_he = _NOUNS[kind]
    shown = ", ".join(quote(w, language) for w in words)
    return say(language, f"I couldn't find {noun_en} matching {shown}.", f"לא מצאתי {noun_he} ל{shown}.")


def not_counted_text(lines: Sequence[str], language: Language) -> str:
    """Lines a count was said for that they do not count the same way ("one milk" off "2 liters of
    milk"): nothing is changed, and how to say it is given."""
    shown = ", ".join(quote(line, language) for line in lines)
    thing = counted(lines[0]).thing
    return say(
        language,
        f"I left {shown} as it is: I'm not sure how much of it to take off. "
        f"To take it all off, say {quote('remove ' + thing, language)}.",
        f"השארתי את {shown} כמו שהוא: לא בטוח כמה להוריד ממנו. "
        f"כדי להוריד הכול, אפשר לכתוב {quote('תוריד ' + thing, language)}.",
    )
