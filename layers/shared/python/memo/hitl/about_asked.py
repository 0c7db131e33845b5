"""Whether an answer to a removal's question is about what was asked, or names something else.

"move call mom to friday" while "delete the plumber?" is open is a request of its own; "move the gym
to 8pm" to "skip the gym next week?" is about the gym (no time of a skip can change: explained, and
the question asked again); "move it to friday" may mean the thing asked about, so it is never taken
as another thing."""

from __future__ import annotations

import re

from memo.domain import PendingHITL, PlanStep

_REMOVALS = frozenset({"delete", "delete_all", "clear", "remove"})
_IT = re.compile(r"\b(?:it|that|this|them)\b|(?:^|\s)(?:זה|אותה|אותו|אותם)(?:\s|$)", re.I)
#: Words of the request itself, and the verbs many titles share ("call mom" and "call the plumber"
#: are two things): not of the thing it names.
_COMMON = frozenset(
    {"move", "the", "reminder", "to", "for", "תזכורת", "התזכורת", "את", "של", "תעביר", "תזיז", "ליום"}
    | {"call", "buy", "pay", "take", "get", "make", "send", "check", "pick"}
    | {"להתקשר", "התקשר", "לקנות", "קנות", "לשלם", "שלם", "לקחת", "קחת", "לבדוק", "בדוק", "לשלוח", "שלוח"}
)


def names_another_thing(step: PlanStep | None, pending: PendingHITL, text: str) -> bool:
    """`text`, answering the question about removal `step`, names none of the words of what the
    question is about (its target, the items it shows) and says no "it"."""
    if step is None or step.action not in _REMOVALS or _IT.search(text):
        return False
    shown = pending.context.candidates if pending.context else None
    about = " ".join([str(step.constraints.get("target") or ""), *(c.label for c in shown or [])])
    return not (_words(about) & _words(text))


def _words(text: str) -> set[str]:
    """The words that name a thing: three letters or more, a Hebrew article or preposition off."""
    return {re.sub(r"^[הלבמו](?=\S{3})", "", w) for w in re.findall(r"\w{3,}", text.lower())} - _COMMON
