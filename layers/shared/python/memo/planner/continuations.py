"""The second request of a message that holds two, as it may be meant: "... and to call dad at 7" is
"remind me to call dad at 7", "... and dad at 7" the first reminder's verb again ("call dad at 7"),
"... and again at 6" the first reminder once more (`continuations`)."""

from __future__ import annotations

import re

from memo.planner.base import PlannerInput
from memo.planner.lexicon import clean, has_hebrew
from memo.planner.match import Match, parse_when

_EN_INFINITIVE = re.compile(r"^to\s+\S", re.I)
_HE_INFINITIVE = re.compile(r"^ל[\u05D0-\u05EA]{2,}")

#: "... and again at 6", "... ושוב בשש": the first reminder once more, at another time.
_AGAIN = re.compile(r"^(?:again|once\s+more|שוב|עוד\s+פעם)\s+(?P<rest>\S.*)$", re.I)

#: Words that start an object, not a task: "... and my sister at 7", "... and the plumber on friday".
_OBJECT_START = re.compile(r"^(?:my|his|her|our|their|the|a|an|some|more|את)\s", re.I)


def _he_object_of(title: object, words: str) -> bool:
    """After "להתקשר לאמא", "לאבא" is the object of the same verb, not a task ("לקנות" is)."""
    if not isinstance(title, str) or len(title.split()) != 2 or len(words.split()) != 1:
        return False
    return title.split()[1].startswith("ל") and words.startswith("ל")


def continuations(right: str, left: Match, inp: PlannerInput) -> list[tuple[str, bool]]:
    """The second request as written, and, after a reminder, "to X at 10" read as "remind me to X
    at 10" (Hebrew: "ל..." as "תזכיר לי ל..."); each with whether it is a guess. A time with words
    that are no request of their own ("... and dad at 7", "... וביצים ב7") is a guess: the first
    reminder's verb with those words ("call dad at 7") when they are one word or start like an
    object ("my sister", "the plumber"), else those words as the task ("feed the cat at 7")."""
    variants = [(right, False)]
    if left.capability != "reminders" or left.action != "create":
        return variants
    title = left.constraints.get("title")
    again = _AGAIN.match(right)
    if again is not None and isinstance(title, str) and title:
        # "... to call the vet and again at 6": the same reminder once more, said plainly.
        lead = "תזכיר לי" if has_hebrew(right) or has_hebrew(title) else "remind me to"
        return [(f"{lead} {title} {again.group('rest')}", False)]
    verb = title.split()[0] if isinstance(title, str) and len(title.split()) >= 2 else None
    parsed = parse_when(right, inp)
    words = clean(parsed.remainder)
    hebrew = has_hebrew(right)
    if _EN_INFINITIVE.match(right) or (parsed.found and _EN_INFINITIVE.match(words)):
        # "to call dad at 7", "on sunday to call mom": a request of its own with "remind me" unsaid.
        variants.append((f"remind me {right}", False))
    elif (
        hebrew
        and (_HE_INFINITIVE.match(right) or (parsed.found and _HE_INFINITIVE.match(words)))
        and not _he_object_of(title, words)
    ):
        variants.append((f"תזכיר לי {right}", False))
    elif parsed.found and words and parsed.problem is None:
        lead = "תזכיר לי" if hebrew else "remind me to"
        if verb is not None and (len(words.split()) == 1 or _OBJECT_START.match(words)):
            variants.append((f"{lead} {verb} {right}", True))
        elif not hebrew:
            variants.append((f"{lead} {right}", True))
    return variants
