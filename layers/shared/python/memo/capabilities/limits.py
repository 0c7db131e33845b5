"""What one person may keep: the caps on reminders, repeating reminders and lists (docs/limits.md).

`UserCaps` holds the configured caps (`MEMO_MAX_REMINDERS`, `MEMO_MAX_REPEATING_REMINDERS`,
`MEMO_MAX_LIST_ADD_ITEMS`, `MEMO_MAX_LIST_ITEMS`); `reached` says which one a request passes, given
what the person holds and what the request adds. A request at a cap is taken; one past it is refused
whole, before anything of it runs (never its first part up to the cap), with the words of
`CapReached.words`. What is counted is read by the turn (`memo.turn.limits`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from memo.text.language import Language
from memo.text.wording import he_list_name

Cap = Literal["reminders", "repeating_reminders", "list_add_items", "list_items"]


@dataclass(frozen=True)
class UserCaps:
    reminders: int = 500
    repeating_reminders: int = 50
    list_add_items: int = 50
    list_items: int = 500


@dataclass(frozen=True)
class ListAdd:
    """What a request adds to one list: its name as said, how many items it holds now, and how
    many of the request's items are not on it yet."""

    name: str
    held: int
    new: int


@dataclass(frozen=True)
class Asked:
    """What one request adds to what the person keeps."""

    reminders: int = 0
    repeating: int = 0
    list_items: int = 0  # items named in the message, over all its list adds
    lists: tuple[ListAdd, ...] = ()


@dataclass(frozen=True)
class Held:
    """What the person keeps now (read only when the request adds to it)."""

    reminders: int = 0
    repeating: int = 0


@dataclass(frozen=True)
class CapReached:
    cap: Cap
    limit: int
    #: what the person holds now; for `list_add_items`, how many items the message named
    held: int
    list_name: str | None = None

    def words(self, language: Language) -> str:
        """What the person is told: the cap, that nothing was done, and what they can do."""
        he = language == "he"
        n, limit = self.held, self.limit
        if self.cap == "list_add_items":
            if he:
                return f"יש בהודעה {n} פריטים, ואני מוסיף עד {limit} בפעם אחת. לא עשיתי כלום: אפשר לשלוח אותם בכמה הודעות קטנות יותר."
            return f"That's {n} items in one message; I add at most {limit} at a time. I haven't done anything: please send them in smaller batches."
        if self.cap == "list_items":
            name = self.list_name or ""
            if he:
                return f"ברשימת {he_list_name(name)} יש {n} פריטים, וזה יעבור את {limit}, המספר המרבי ברשימה אחת. לא עשיתי כלום: אפשר להסיר כמה ולבקש שוב."
            return f"Your {name} list has {n} items and this would take it past {limit}, the most one list holds. I haven't done anything: remove some and ask me again."
        if self.cap == "repeating_reminders":
            if he:
                return f"יש לך {n} תזכורות חוזרות, וזה יעבור את {limit}, המספר המרבי שאני שומר לאדם אחד. לא עשיתי כלום: אפשר למחוק תזכורת חוזרת שכבר לא צריך ולבקש שוב."
            return f"You have {n} repeating reminders and this would take you past {limit}, the most I keep for one person. I haven't done anything: delete one you no longer need and ask me again."
        if he:
            return f"יש לך {n} תזכורות, וזה יעבור את {limit}, המספר המרבי שאני שומר לאדם אחד. לא עשיתי כלום: אפשר למחוק כמה שכבר לא צריך ולבקש שוב."
        return f"You have {n} reminders and this would take you past {limit}, the most I keep for one person. I haven't done anything: delete some you no longer need and ask me again."


def reached_by_lists(caps: UserCaps, asked: Asked) -> CapReached | None:
    """The first list cap the request passes: the items of one message, then each list's length."""
    if asked.list_items > caps.list_add_items:
        return CapReached(cap="list_add_items", limit=caps.list_add_items, held=asked.list_items)
    return next(_full_lists(caps, asked.lists), None)


def _full_lists(caps: UserCaps, lists: Iterable[ListAdd]) -> Iterator[CapReached]:
    for added in lists:
        if added.new and added.held + added.new > caps.list_items:
            yield CapReached(cap="list_items", limit=caps.list_items, held=added.held, list_name=added.name)


def reached_by_reminders(caps: UserCaps, asked: Asked, held: Held) -> CapReached | None:
    """The first reminder cap the request passes: repeating reminders, then reminders."""
    if asked.repeating and held.repeating + asked.repeating > caps.repeating_reminders:
        return CapReached(cap="repeating_reminders", limit=caps.repeating_reminders, held=held.repeating)
    if asked.reminders and held.reminders + asked.reminders > caps.reminders:
        return CapReached(cap="reminders", limit=caps.reminders, held=held.reminders)
    return None


TitledKind = Literal["reminder", "item"]


def title_too_long(language: Language, kind: TitledKind, chars: int, limit: int, *, among: int = 1) -> str:
    """A reminder's title or a list item (one of `among` sent together) over `MEMO_TITLE_MAX_CHARS`:
    how long it is, the limit, that nothing was done, and what to do instead."""
    if kind == "item":
        if language == "he":
            which = "אחד הפריטים" if among > 1 else "הפריט"
            return (
                f"{which} ארוך מדי: {chars:,} תווים, ואני שומר פריטים ברשימה של עד {limit:,} תווים, "
                "אז לא הוספתי כלום. אפשר לקצר אותו, או לשמור אותו כפתק?"
            )
        return (
            f"{'One of those items' if among > 1 else 'That item'} is {chars:,} characters long, and I keep list items of up to {limit:,} "
            "characters, so I didn't add anything. Could you shorten it, or save it as a note?"
        )
    if language == "he":
        return (
            f"הטקסט של התזכורת ארוך מדי: {chars:,} תווים, ואני שומר תזכורות של עד {limit:,} תווים, "
            "אז לא קבעתי אותה. אפשר לקצר אותו, או לשמור את הפרטים כפתק?"
        )
    return (
        f"That reminder's text is {chars:,} characters long, and I keep reminders of up to {limit:,} "
        "characters, so I didn't set it. Could you shorten it, or save the details as a note?"
    )
