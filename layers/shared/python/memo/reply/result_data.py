"""Reading a step result's `data` for the reply: the first key that has a value, item texts from
either shape, counted nouns and bullet lists.

`data` keys read (those of `memo.capabilities`, snake_case or camelCase): reminders `title`,
`when`, `reminders` ([{title, when}]), `deleted` (a count or the deleted items), `count`; notes
`text`, `query`, `notes` ([{text}]); lists `listName`, `added`, `alreadyThere`, `removed`,
`notFound`, `items` ([str] or [{text}]), `count`; failures `target` / `query` / `title`. A missing
key falls back to the result's `summary`, never to an invented value.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memo.capabilities.base import ExecutionResult
from memo.text.dates import format_when
from memo.text.language import Language


def first_value(data: dict[str, Any], *names: str) -> Any:
    """The value of the first of `names` that has one (not None, "" or [])."""
    for name in names:
        value = data.get(name)
        if value not in (None, "", []):
            return value
    return None


def counted(n: int, language: Language, one_en: str, many_en: str, one_he: str, many_he: str) -> str:
    """ "3 reminders" / "1 reminder" / "3 תזכורות" / "תזכורת אחת"."""
    if language == "he":
        return one_he if n == 1 else f"{n} {many_he}"
    return f"1 {one_en}" if n == 1 else f"{n} {many_en}"


def item_texts(values: Any) -> list[str]:
    """Item texts from [str] or [{text|title|name}]."""
    if not isinstance(values, list):
        return []
    out: list[str] = []
    for value in values:
        if isinstance(value, dict):
            text = first_value(value, "text", "title", "name")
            if text is not None:
                out.append(str(text))
        elif value not in (None, ""):
            out.append(str(value))
    return out


def result_when(result: ExecutionResult, data: dict[str, Any], language: Language, timezone: str) -> str:
    value: datetime | str | None = result.when or first_value(data, "due_at", "dueAt", "when")
    return format_when(value, language, timezone)


def bullets(lines: list[str]) -> str:
    return "\n".join(f"• {line}" for line in lines)
