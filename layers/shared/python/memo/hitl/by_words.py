"""A "Which one do you mean?" answered in words: "the one for dad", "the mom one", "של אבא".

Deterministic, like every answer to a disambiguation. The answer picks a candidate when each of its
words is either filler ("the", "one", "for", "של", "הזאת") or a word of some candidate's label, and
the label words it names that set candidates apart point to exactly one of them. An answer made only
of such words that points to none or to several ("the call one" when both are calls) is unclear: it
is asked again. Anything else (a word no label has: "remind me to call dad tomorrow") is not an
answer in words at all, and the caller treats it as it did before (a new request).

Hebrew words are compared without one leading prefix letter (ו, ה, ל, ב, ש, כ, מ): "לאבא" and
"אבא" are the same word here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from memo.capabilities.reminder_args import OCCURRENCE, SERIES, split_scoped
from memo.hitl.fastpath import normalize
from memo.planner.intents.reminder_changes import scope_of

_FILLER = frozenset(
    {
        # English
        "the", "one", "ones", "for", "with", "about", "that", "this", "to", "my", "a", "an", "it",
        "its", "it's", "is", "i", "mean", "meant", "want", "wanted", "reminder", "note", "item",
        "please", "pls", "thanks", "oh", "ah", "um", "yeah", "yes", "sorry", "of", "on", "at", "in",
        "s", "d", "m", "and", "or", "או", "only", "just", "both",
        # Hebrew (compared without a leading prefix letter too)
        "של", "את", "זה", "זאת", "הזה", "הזאת", "עם", "על", "אני", "מתכוון", "מתכוונת", "התכוונתי",
        "בבקשה", "תזכורת", "התזכורת", "פתק", "הפתק", "אחד", "אחת", "כן", "רוצה", "רק", "שתי", "שני",
    }
)  # fmt: skip
_PREFIXES = "והלבשכמ"
_WORD = re.compile(r"[\w'\u0590-\u05ff]+")


@dataclass(frozen=True)
class WordsAnswer:
    """`picked`: the index of the one candidate named; `unclear`: an answer in words naming none
    or several; neither: not an answer in words."""

    kind: Literal["picked", "unclear", "other"]
    index: int | None = None
    #: when several may be picked ("mom and dad"), every candidate named, in order
    indexes: tuple[int, ...] = ()


def _stems(word: str) -> set[str]:
    """The word, and the word without one Hebrew prefix letter."""
    stems = {word}
    if len(word) > 2 and word[0] in _PREFIXES and "\u05d0" <= word[0] <= "\u05ea":
        stems.add(word[1:])
    return stems


def _words(text: str) -> list[str]:
    return _WORD.findall(normalize(text))


#: Where one candidate's words end and the next one's begin, when several may be picked.
_AND = re.compile(r"\s*(?:,|&|\+|\band\b|\bor\b|\bאו\b)\s*|\s+(?:וגם\s+|ו(?=\S{2,}))", re.I)


def answer_by_words(answer: str, labels: Sequence[str], *, several: bool = False) -> WordsAnswer:
    """Which of `labels` (the candidates' labels, in order) the answer names (see the module).

    `several`: the question lets the person pick several ("Which ones?"): "mom and dad" names each
    part's one candidate (`indexes`); a part that names none, or several, makes it unclear."""
    if several:
        parts = [part for part in _AND.split(answer) if part and part.strip()]
        if len(parts) > 1:
            found = [answer_by_words(part, labels) for part in parts]
            if any(f.kind == "other" for f in found):
                return WordsAnswer("other")
            if any(f.kind != "picked" for f in found):
                return WordsAnswer("unclear")
            picked = tuple(sorted({f.index for f in found if f.index is not None}))
            return WordsAnswer("picked", picked[0], picked)
    label_stems = [set().union(*(_stems(w) for w in _words(label))) if label else set() for label in labels]
    if len(label_stems) < 2:
        return WordsAnswer("other")
    named: set[int] = set()
    label_word_seen = False
    for word in _words(answer):
        stems = _stems(word)
        if stems & _FILLER:
            continue
        having = {i for i, known in enumerate(label_stems) if stems & known}
        if not having:
            return WordsAnswer("other")  # a word no candidate has: not an answer in words
        label_word_seen = True
        if len(having) < len(label_stems):
            named = having if not named else named & having
            if not named:
                return WordsAnswer("unclear")  # words of different candidates
    if not label_word_seen:
        return WordsAnswer("other")
    if len(named) == 1:
        (index,) = named
        return WordsAnswer("picked", index, (index,))
    if several and named:
        # "the call ones" when "Which ones?" showed two calls and a shopping trip: both calls.
        return WordsAnswer("picked", min(named), tuple(sorted(named)))
    return WordsAnswer("unclear")


#: Answers to "this one or the whole series?" that only the whole series fits ("all", "הכל").
_ALL_OF_IT = re.compile(
    r"^(?:all|everything|the\s+whole\s+thing|whole\s+thing|all\s+of\s+it|(?:את\s+)?הכל|(?:את\s+)?כולן|את\s+כולם)$"
)
#: ... and those only the next time fits ("the next one", "הקרובה").
_NEXT_ONLY = re.compile(
    r"^(?:only\s+|just\s+)?(?:the\s+)?(?:next|upcoming|coming)(?:\s+one)?(?:\s+only)?$|^(?:רק\s+)?(?:את\s+)?ה(?:באה|קרובה)$"
)
_NOT = re.compile(r"\b(?:not|don'?\s?t|dont|no)\b|(?:^|\s)(?:לא|אל)(?:\s|$)")


def scope_picked(raw: str, candidate_ids: Sequence[str]) -> str | None:
    """The id a "this one or the whole series?" answer in words picks: "just this one", "this time
    only", "רק הפעם הזאת" the occurrence; "the whole series", "all of them", "את כל הסדרה", "all"
    the series. None when the candidates are not that pair, or the words name no part or say "not"
    ("not this one, the whole series" is asked again rather than guessed)."""
    scopes = {split_scoped(i)[1]: i for i in candidate_ids}
    if set(scopes) != {OCCURRENCE, SERIES} or len(candidate_ids) != 2:
        return None
    text = normalize(raw)
    if _NOT.search(text):
        return None
    if _ALL_OF_IT.match(text):
        return scopes[SERIES]
    if _NEXT_ONLY.match(text):
        return scopes[OCCURRENCE]
    said = scope_of(raw.strip().lower()).get("scope")
    return scopes[str(said)] if said in scopes else None
