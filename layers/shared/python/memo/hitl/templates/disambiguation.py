"""The "which one do you mean?" picker: one option per matching item, and the question that lists them.

Options (ids, labels, count, order) are built here, in code; an LLM may word only the question.
"""

from __future__ import annotations

from memo.domain import DisambiguationCandidate, PendingHITLOption
from memo.text.language import Language
from memo.text.wording import shorten

#: WhatsApp limits: a list row title is at most 24 characters, a list row description 72, and a
#: list message at most 10 rows.
ROW_TITLE_MAX = 24
ROW_DESCRIPTION_MAX = 72
MAX_OPTIONS = 10


def candidate_options(candidates: list[DisambiguationCandidate]) -> list[PendingHITLOption]:
    """One option per candidate (at most 10), id = the candidate's position ("1", "2", ...).

    Positions, not entity ids, go to WhatsApp; `context.candidates` keeps the mapping to entity ids.
    """
    options: list[PendingHITLOption] = []
    for index, candidate in enumerate(candidates[:MAX_OPTIONS], start=1):
        label = shorten(candidate.label, ROW_TITLE_MAX)
        detail = candidate.description or (candidate.label if label != candidate.label else None)
        options.append(
            PendingHITLOption(
                id=str(index),
                label=label,
                description=shorten(detail, ROW_DESCRIPTION_MAX) if detail else None,
            )
        )
    return options


def disambiguation_question(
    language: Language, options: list[PendingHITLOption], allow_multiple: bool, total: int | None = None
) -> str:
    """The picker's text: the listed options, and how many more matched when there were more than
    a list message holds ("all" still means every match)."""
    lines = [
        f"{option.id}. {option.label}" + (f" — {option.description}" if option.description else "")
        for option in options
    ]
    more = (total or len(options)) - len(options)
    if more > 0:
        lines.append(
            f"…ועוד {more}. „כולם” = כל {total} התוצאות."
            if language == "he"
            else f"…and {more} more. “all” means all {total} of them."
        )
    listing = "\n".join(lines)
    if language == "he":
        head = (
            "לאילו מהם התכוונת? אפשר לבחור כמה, למשל „1 3” או „כולם”."
            if allow_multiple
            else "לאיזה מהם התכוונת?"
        )
        return f"{head}\n{listing}\nאפשר לענות במספר."
    head = (
        'Which ones do you mean? You can pick several, e.g. "1 3" or "all".'
        if allow_multiple
        else "Which one do you mean?"
    )
    return f"{head}\n{listing}\nYou can reply with a number."
