"""A typed number as the answer to a question with buttons: where the buttons are shown as a list
(1) Yes 2) No), "1", "1.", "1)", " 1 ", "#1", "option 1", "אפשרות 1" (with the direction marks a
Hebrew keyboard may put around it) names the first.

A number is an option's only when it names nothing else: to an approval that lists numbered items,
a number that is both an item and an option (keep only item 1, or Approve?) is no answer, and the
question is asked again (`number_means_two_things`)."""

from __future__ import annotations

import re
import unicodedata

from memo.domain import PendingHITL, PendingHITLOption

#: One number, bare or with the words that lead an index ("#2", "option 2", "אפשרות 2").
INDEX = re.compile(r"^(?:#|no\s*|number\s+|option\s+|choice\s+|אפשרות\s+|מספר\s+|מס\s+)?(\d{1,3})$")
_AROUND = re.compile(r"[\s.,!?;:\"'()\[\]…~*_\u200e\u200f\u202a-\u202e\u2066-\u2069]+")
_APPROVING = frozenset({"yes", "approve"})


def typed_number(text: str) -> int | None:
    """The one number a typed answer is, whatever its range; None for anything else."""
    norm = _AROUND.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()
    match = INDEX.match(norm)
    return int(match.group(1)) if match else None


def numbered_option(pending: PendingHITL, text: str) -> PendingHITLOption | None:
    """The option a typed number names; None when it is no option's, or names an item too."""
    options = pending.options or []
    number = typed_number(text)
    if number is None or not 1 <= number <= len(options) or number_means_two_things(pending, number):
        return None
    return options[number - 1]


def number_means_two_things(pending: PendingHITL, number: int) -> bool:
    """A number that is both an option of the question and one of the items it lists ("1" to
    "delete these 2? 1. … 2. …" with Approve / Edit / Reject). It means the same only when the one
    item listed is all the approval runs and the option approves it."""
    options = pending.options or []
    shown = len((pending.context.candidates if pending.context else None) or [])
    if not (1 <= number <= len(options) and 1 <= number <= shown):
        return False
    return not (shown == 1 and options[number - 1].id in _APPROVING)
