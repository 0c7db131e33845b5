"""Format: one user-facing line per step outcome, in the user's language, dates in their timezone.

Success lines are worded per capability and action from the result's `data` (falling back to its
`summary`): `memo.reply.reminder_lines`, `note_lines`, `list_lines`, `undo_lines`;
failure lines are worded per error code (`memo.reply.failure_lines`). `format_joined` puts the
lines of a whole turn together, with the header of a partial or total failure.
"""

from __future__ import annotations

from dataclasses import dataclass

from memo.capabilities.base import ExecutionResult
from memo.executor.results import TRUNCATED
from memo.reply.failure_lines import format_failure
from memo.reply.join import Joined, JoinStatus
from memo.reply.list_lines import list_line
from memo.reply.note_lines import note_line
from memo.reply.reminder_lines import reminder_line
from memo.reply.undo_lines import undo_line
from memo.text.language import Language

OK_MARK = "✅"
FAILED_MARK = "❌"


@dataclass(frozen=True)
class Line:
    ok: bool
    text: str


@dataclass(frozen=True)
class Formatted:
    status: JoinStatus
    header: str | None
    lines: tuple[Line, ...]


def format_success(result: ExecutionResult, language: Language, timezone: str) -> str:
    text = _success_text(result, language, timezone)
    if result.data.get(TRUNCATED) is True:
        # The executor cut a result too large to carry (`memo.executor.results`): say so.
        text += (
            "\n(חלק מזה לא מוצג: יותר מדי להציג בבת אחת.)"
            if language == "he"
            else "\n(Part of it isn't shown: too much to show at once.)"
        )
    return text


def _success_text(result: ExecutionResult, language: Language, timezone: str) -> str:
    text: str | None = None
    if result.action == "undo":
        text = undo_line(result, language, timezone)
    elif result.capability == "reminders":
        text = reminder_line(result, language, timezone)
    elif result.capability == "notes":
        text = note_line(result, language)
    elif result.capability == "lists":
        text = list_line(result, language)
    if text is not None:
        return text
    summary = result.summary.strip()
    if language == "he":
        return f"בוצע: {summary}." if summary else "בוצע."
    return f"Done: {summary}." if summary else "Done."


# --- the whole turn ----------------------------------------------------------------------------

_HEADERS: dict[JoinStatus, tuple[str | None, str | None]] = {
    "complete": (None, None),
    "partial": ("I did part of it:", "עשיתי רק חלק:"),
    "failed": ("I couldn't do any of it:", "לא הצלחתי לבצע אף אחד מהם:"),
    "empty": (None, None),
}


def format_joined(joined: Joined, language: Language, timezone: str) -> Formatted:
    if joined.status == "empty":
        text = (
            "לא עשיתי כלום — לא היה מה לבצע."
            if language == "he"
            else "I didn't do anything — there was nothing to run."
        )
        return Formatted(status="empty", header=None, lines=(Line(ok=False, text=text),))
    lines = tuple(
        Line(ok=True, text=format_success(o.result, language, timezone))
        if o.result.success
        else Line(ok=False, text=format_failure(o.result, language))
        for o in joined.outcomes
    )
    en, he = _HEADERS[joined.status]
    header = he if language == "he" else en
    if joined.status == "failed" and len(lines) == 1:
        header = None  # one failed step: its own line says it
    return Formatted(status=joined.status, header=header, lines=lines)
