"""A "Which one do you mean?" between reminders answered by their time: "the 6pm one", "the one at
6", "the friday one", "the later one", "המוקדמת", "זו של שש".

Deterministic, like every answer to a disambiguation. The answer picks a candidate when, once its
time words are read, nothing is left but filler, and the time (or day, or "earlier"/"later") fits
exactly one candidate's `data["at"]`. An hour said without am/pm fits either half of the day; when
both halves are shown, the half the words mean (`extract_when`) decides. Anything else is None: the
caller goes on as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from memo.domain import DisambiguationCandidate
from memo.hitl.fastpath import normalize
from memo.planner.timeparse import extract_when
from memo.text.language import Language

_FILLER = frozenset(
    {
        "the", "one", "ones", "that", "is", "at", "on", "for", "i", "mean", "meant", "reminder", "please",
        "זו", "זאת", "זה", "של", "את", "ה", "התזכורת", "שב", "בבקשה",
    }
)  # fmt: skip
_EARLIER = re.compile(
    r"^(?:the\s+)?(?:earlier|earliest|first\s+in\s+time|sooner|המוקדמת|המוקדם)(?:\s+ones?)?$"
)
_LATER = re.compile(r"^(?:the\s+)?(?:later|latest|המאוחרת|המאוחר)(?:\s+ones?)?$")


def answer_by_time(
    answer: str,
    candidates: Sequence[DisambiguationCandidate],
    *,
    now: datetime,
    timezone: str,
    language: Language,
) -> int | None:
    """The index of the one candidate the answer names by its time, or None."""
    if len(candidates) < 2:
        return None
    fits = named_by_time(answer, candidates, now=now, timezone=timezone, language=language)
    return fits[0] if len(fits) == 1 else None


def named_by_time(
    answer: str,
    candidates: Sequence[DisambiguationCandidate],
    *,
    now: datetime,
    timezone: str,
    language: Language,
) -> list[int]:
    """The indexes of the candidates whose time the answer names (all that fit it); [] when the
    answer is not a time alone, or names none of them."""
    zone = ZoneInfo(timezone)
    times = [_at(c, zone) for c in candidates]
    if not candidates or any(t is None for t in times):
        return []
    known = [t for t in times if t is not None]
    norm = normalize(answer)
    if _EARLIER.match(norm) or _LATER.match(norm):
        wanted = min(known) if _EARLIER.match(norm) else max(known)
        return [i for i, t in enumerate(known) if t == wanted]
    parsed = extract_when(answer, now=now, timezone=timezone, language=language)
    bare = [word for word in norm.split() if word not in _FILLER]
    if not parsed.found and len(bare) == 1:
        # "the 9 one", "זו של שש": an hour on its own, read as "at 9" / "בשש".
        hebrew = "\u05d0" <= bare[0][0] <= "\u05ea"
        parsed = extract_when(
            f"ב{bare[0]}" if hebrew else f"at {bare[0]}", now=now, timezone=timezone, language=language
        )
    if not parsed.found or parsed.recurrence is not None or parsed.problem is not None:
        return []
    if any(word not in _FILLER for word in normalize(parsed.remainder).split()):
        return []  # "the 6pm call with dad": words beyond the time are the label's to match
    fits = list(range(len(known)))
    day = parsed.day or (parsed.when.astimezone(zone).date() if parsed.when and parsed.explicit_day else None)
    if day is None and not (parsed.named_time and parsed.when is not None):
        return []  # "the evening one": a part of the day, no time (`memo.resolution.matching`)
    if day is not None:
        fits = [i for i in fits if known[i].date() == day]
    if parsed.named_time and parsed.when is not None:
        said = parsed.when.astimezone(zone)
        either = [i for i in fits if (known[i].hour % 12, known[i].minute) == (said.hour % 12, said.minute)]
        exact = [i for i in either if known[i].hour == said.hour]
        fits = either if len(either) == 1 else exact
    return fits


def _at(candidate: DisambiguationCandidate, zone: ZoneInfo) -> datetime | None:
    raw = candidate.data.get("at")
    if not isinstance(raw, str):
        return None
    try:
        return datetime.fromisoformat(raw).astimezone(zone)
    except ValueError:
        return None
