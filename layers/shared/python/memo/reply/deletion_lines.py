"""The lines of a delete: how many were deleted (naming a single one), and what it left alone
because it changed after the approval or was already gone."""

from __future__ import annotations

from typing import Any

from memo.reply.result_data import counted, first_value, item_texts
from memo.text.dates import format_when
from memo.text.language import Language
from memo.text.wording import quote


def changed_since_line(data: dict[str, Any], language: Language, timezone: str) -> str | None:
    """The items a delete (or a skip: `skip`) left alone because they were edited after the
    approval, named."""
    changed = data.get("changed")
    titles = item_texts(changed)
    if not titles:
        return None
    names = ", ".join(quote(t, language) for t in titles)
    now = ""
    if isinstance(changed, list) and len(changed) == 1 and isinstance(changed[0], dict):
        now = format_when(
            first_value(changed[0], "when"), language, first_value(data, "timezone") or timezone
        )
    skip = data.get("skip") is True  # a skip of a series' times, not a delete
    if language == "he":
        did = f"על {names} לא דילגתי" if skip else f"את {names} לא מחקתי"
        return f"{did}: הפרטים השתנו אחרי שאישרת" + (f" (עכשיו ל{now})" if now else "") + "."
    they = "it was" if len(titles) == 1 else "they were"
    return (
        f"I didn't {'skip' if skip else 'delete'} {names}: {they} changed after you approved"
        + (f" (now for {now})" if now else "")
        + "."
    )


def left_alone_line(
    data: dict[str, Any], language: Language, timezone: str, nouns: tuple[str, str, str, str]
) -> str | None:
    """After a delete that did part of it: what changed since the approval, what was already gone."""
    parts = [text] if (text := changed_since_line(data, language, timezone)) else []
    gone = data.get("gone")
    if isinstance(gone, int) and not isinstance(gone, bool) and gone > 0:
        what = counted(gone, language, *nouns)
        if language == "he":
            parts.append(f"{what} כבר {'נמחקה' if gone == 1 else 'נמחקו'} קודם.")
        else:
            parts.append(f"{what} {'was' if gone == 1 else 'were'} already gone.")
    return " ".join(parts) or None


def deleted_line(
    data: dict[str, Any], language: Language, nouns: tuple[str, str, str, str], he_the: str
) -> str | None:
    """How many were deleted (`deleted`: a count or the deleted items; `count`), naming a single
    one; None when the result does not say."""
    he = language == "he"
    deleted = data.get("deleted")
    listed = item_texts(deleted)
    # "titles": a delete of several (`delete_all`) names each, also when it kept only one of them.
    titles = listed or item_texts(data.get("titles"))
    if isinstance(deleted, int) and not isinstance(deleted, bool):
        n: int | None = deleted
    elif isinstance(data.get("count"), int):
        n = int(data["count"])
    elif isinstance(deleted, list):
        n = len(deleted)
    else:
        n = 1 if first_value(data, "title", "text") else None
    title = listed[0] if len(listed) == 1 else first_value(data, "title", "text")
    if n is None:
        return None
    if n == 0:
        return f"לא היו {nouns[3]} למחוק." if he else f"There were no {nouns[1]} to delete."
    if n == 1 and title:
        name = quote(title, language)
        return f"מחקתי את {he_the} {name}." if he else f"Deleted the {nouns[0]} {name}."
    what = counted(n, language, *nouns)
    if len(titles) == n:
        names = ", ".join(quote(t, language) for t in titles)
        return f"מחקתי {what}: {names}." if he else f"Deleted {what}: {names}."
    return f"מחקתי {what}." if he else f"Deleted {what}."
