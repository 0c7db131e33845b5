"""Fuzzy matching of the user's words against their own items, in English and Hebrew.

`normalize` folds case and Unicode forms, drops Hebrew niqqud/cantillation marks and punctuation
(including geresh, gershayim and maqaf). `score(query, text)` compares normalised token sets with
rapidfuzz; Hebrew one-letter prefixes (ה ו ל ב מ ש כ, and common two-letter combinations like וה
or של) are stripped from longer words on both sides, so "החלב" finds "חלב" and "לאמא" finds "אמא",
and English words are also compared by their stems (the Snowball stemmer), so "parking" finds
"parked" and "batteries" finds "battery".
Generic words that name the kind of item ("reminder", "תזכורת", "the", "את") are not evidence and
are ignored. Quantifiers ("all", "both", "כל", "שתי") mark a plural request (`is_plural`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, TypeVar

from rapidfuzz import fuzz

from memo.text import bilingual

T = TypeVar("T")

#: A candidate at or above this score is a match.
MATCH_THRESHOLD = 80.0
#: The best match wins alone when it is this far ahead of the runner-up (and at least STRONG).
CLEAR_MARGIN = 12.0
STRONG_MATCH = 88.0
#: Close matches: within this distance of the best one.
CLOSE_WINDOW = 15.0

_MARKS = re.compile(r"[\u0591-\u05C7]")  # cantillation + niqqud (and meteg, rafe, dagesh...)
_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_HEBREW_WORD = re.compile(r"^[\u05D0-\u05EA]+$")
_HE_PREFIX_1 = frozenset("הולבמשכ")
_HE_PREFIX_2 = frozenset({"וה", "של", "לה", "מה", "שה", "בה", "כש", "וב", "ול", "ומ", "וש", "שב", "כה"})

_STOPWORDS = frozenset(
    {
        # English
        "the",
        "a",
        "an",
        "my",
        "of",
        "about",
        "reminder",
        "reminders",
        "note",
        "notes",
        "item",
        "items",
        "one",
        "ones",
        "all",
        "both",
        "every",
        "each",
        "those",
        "these",
        "them",
        "that",
        "this",
        # Hebrew
        "את",
        "של",
        "על",
        "כל",
        "תזכורת",
        "תזכורות",
        "התזכורת",
        "התזכורות",
        "פתק",
        "פתקים",
        "הפתק",
        "הפתקים",
        "שתי",
        "שני",
        "שתיהן",
        "שניהם",
        "כולם",
        "כולן",
        "זה",
        "זאת",
        "הזה",
        "הזאת",
    }
)

_PLURAL_WORDS = frozenset(
    {
        "all",
        "both",
        "every",
        "each",
        "reminders",
        "notes",
        "items",
        "them",
        "those",
        "these",
        "ones",
        "כל",
        "שתי",
        "שני",
        "שתיהן",
        "שניהם",
        "כולם",
        "כולן",
        "תזכורות",
        "התזכורות",
        "פתקים",
        "הפתקים",
    }
)


def normalize(text: str) -> str:
    """Case-folded, NFKC, without niqqud and punctuation, single-spaced."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = folded.replace("\u05be", " ")  # maqaf joins words: treat it as a space
    folded = _MARKS.sub("", folded)
    folded = _PUNCT.sub(" ", folded)
    return " ".join(folded.split())


def _strip_prefix(token: str) -> str:
    if not _HEBREW_WORD.match(token):
        return token
    if len(token) >= 5 and token[:2] in _HE_PREFIX_2:
        return token[2:]
    if len(token) >= 4 and token[0] in _HE_PREFIX_1:
        return token[1:]
    return token


_LATIN_WORD = re.compile(r"^[a-z]+$")


@lru_cache(maxsize=1)
def _english_stemmer() -> Any:
    """The Snowball English stemmer, made on first use: the package loads the stemmers of all its
    languages (about 90 ms), a cost only a turn that compares English words should pay."""
    import snowballstemmer

    return snowballstemmer.stemmer("english")


def stem(token: str) -> str:
    """A word as matching compares it: an English word's stem, a Hebrew word without its prefix."""
    return _stem(token)


@lru_cache(maxsize=4096)
def _stem(token: str) -> str:
    """An English word's stem ("parking", "parked" -> "park"); a Hebrew word without its prefix."""
    if _LATIN_WORD.match(token):
        return str(_english_stemmer().stemWord(token))
    return _strip_prefix(_he_number_off(token))


_HE_NUMBER = re.compile(r"^(?P<base>[\u05d0-\u05ea]{3,}?)(?:ות|ים|ה)$")
_HE_FINAL = str.maketrans("ךםןףץ", "כמנפצ")


def _he_number_off(word: str) -> str:
    """A Hebrew word of four letters or more without its plural or feminine ending, its letters in
    their plain forms: "עגבניות" and "עגבניה" -> "עגבני", "מלפפונים" and "מלפפון" -> "מלפפונ"."""
    said = _HE_NUMBER.match(word) if len(word) >= 4 else None
    base = said.group("base") if said else word
    return base[:-1] + base[-1:].translate(_HE_FINAL)


def tokens(text: str) -> list[str]:
    """Content tokens of `text` (stopwords dropped); all tokens if only stopwords are left."""
    words = normalize(text).split()
    content = [w for w in words if w not in _STOPWORDS and _strip_prefix(w) not in _STOPWORDS]
    return content or words


def is_plural(text: str) -> bool:
    """Whether the user's words ask for several items ("all the ...", "both", "התזכורות")."""
    return any(w in _PLURAL_WORDS for w in normalize(text).split())


#: The score of a query that is the title itself (case, spacing and one Hebrew prefix aside).
EXACT = 100.0


def score(query: str, text: str) -> float:
    """0..100: how well `text` (an item's title) matches what the user said (`query`); a query in
    the other language than the title is also read in the title's (`memo.text.bilingual`)."""
    direct = _score(query, text)
    if direct >= MATCH_THRESHOLD:
        return direct
    crossed = [min(_score(other, text), CROSSED_BEST) for other in _across(query, text)]
    return max([direct, *crossed])


#: The best a query read in the other language scores: a strong match, never the very words of a
#: title, so "הלחם" finds „לחם” rather than “bread” when a list holds both.
CROSSED_BEST = 95.0


def _across(query: str, text: str) -> tuple[str, ...]:
    """`query` in the language of `text` when the two differ and every content word crosses."""
    t_he = bilingual.has_hebrew(text)
    return () if bilingual.has_hebrew(query) == t_he else _crossed(query, t_he)


@lru_cache(maxsize=1024)
def _crossed(query: str, to_hebrew: bool) -> tuple[str, ...]:
    words = normalize(query)
    if not to_hebrew and bilingual.has_latin(words):
        return ()  # a query of both languages is read as it is
    still = bilingual.has_latin if to_hebrew else bilingual.has_hebrew
    readings = bilingual.crossed(words, to_hebrew=to_hebrew)
    return tuple(r for r in readings if not any(still(word) for word in tokens(r)))


def _score(query: str, text: str) -> float:
    q_tokens, t_tokens = tokens(query), tokens(text)
    if not q_tokens or not t_tokens:
        return 0.0
    q_raw, t_raw = " ".join(q_tokens), " ".join(t_tokens)
    q_stem = " ".join(_stem(t) for t in q_tokens)
    t_stem = " ".join(_stem(t) for t in t_tokens)
    best = 0.0
    for a, b in ((q_raw, t_raw), (q_stem, t_stem), (q_raw, t_stem), (q_stem, t_raw)):
        if a == b:
            return EXACT
        # token_set_ratio: "mom" is fully contained in "call mom"; ratio catches whole-title typos.
        best = max(best, fuzz.token_set_ratio(a, b), fuzz.ratio(a, b))
    best = max(best, _tokenwise(q_tokens, t_tokens))
    if best >= MATCH_THRESHOLD and _unmatched(q_tokens, t_tokens) and _unmatched(t_tokens, q_tokens):
        # "call with dan" is not “call with mom”: each names something the other does not (the
        # shared words scored it as a match, and a move went to the wrong reminder).
        return float(min(best, MATCH_THRESHOLD - 1))
    return float(best)


#: Below this a word has no counterpart in the other words, not even with a typo ("dan" / "mom").
_COUNTERPART = 60


def _unmatched(words: list[str], others: list[str]) -> bool:
    """Whether some word of `words` has no counterpart among `others`."""
    return any(max(_near(w, o) for o in others) < _COUNTERPART for w in words)


def _near(word: str, other: str) -> float:
    """How near two words are, as said or by their stems; two short words a letter apart that are
    both words of the language are two words ("mom" and "dad" are far, "לאמא" and "לאבא" too),
    while a short typo stays near its word ("mon" for "mom")."""
    stems = _stem(word), _stem(other)
    if (
        stems[0] != stems[1]
        and len(stems[0]) == len(stems[1]) <= 3
        and all(bilingual.is_known(s) for s in stems)
    ):
        return 0.0
    return float(max(fuzz.ratio(a, b) for a in {word, stems[0]} for b in (other, stems[1])))


def _tokenwise(q_tokens: list[str], t_tokens: list[str]) -> float:
    """Mean over the query's words of their best fuzzy match in the title: a typo in one word
    ("dentst") of a longer title ("dentist appointment") still matches that word."""
    total = 0.0
    for q in q_tokens:
        q_forms = {q, _stem(q)}
        total += max(fuzz.ratio(qf, tf) for qf in q_forms for t in t_tokens for tf in (t, _stem(t)))
    return total / len(q_tokens)


@dataclass(frozen=True)
class Scored(Generic[T]):
    item: T
    score: float


@dataclass(frozen=True)
class MatchOutcome(Generic[T]):
    """`matches` are the close candidates, best first. `unique` is set when one clearly wins."""

    matches: tuple[Scored[T], ...]
    unique: T | None

    @property
    def found(self) -> bool:
        return bool(self.matches)


def rank(query: str, items: Iterable[T], label: Callable[[T], str]) -> list[Scored[T]]:
    """Items scoring at least MATCH_THRESHOLD, best first (stable for equal scores)."""
    scored = [Scored(item, score(query, label(item))) for item in items]
    kept = [s for s in scored if s.score >= MATCH_THRESHOLD]
    return sorted(kept, key=lambda s: -s.score)


def match(query: str, items: Sequence[T], label: Callable[[T], str]) -> MatchOutcome[T]:
    """Find `query` among `items`: none, one clear winner, or several close candidates."""
    ranked = rank(query, items, label)
    if not ranked:
        return MatchOutcome(matches=(), unique=None)
    top = ranked[0].score
    close = tuple(s for s in ranked if s.score >= top - CLOSE_WINDOW)
    if len(close) == 1:
        return MatchOutcome(matches=close, unique=close[0].item)
    runner_up = close[1].score
    if top >= STRONG_MATCH and top - runner_up >= CLEAR_MARGIN:
        return MatchOutcome(matches=close[:1], unique=close[0].item)
    if top == EXACT and runner_up < EXACT:
        # The very words of one title beat a title one letter away ("להתקשר לאמא" / "להתקשר לאבא").
        return MatchOutcome(matches=close[:1], unique=close[0].item)
    return MatchOutcome(matches=close, unique=None)


# --- list names ------------------------------------------------------------------------------
# One list, many names: what a user calls their shopping list in English or Hebrew is one list. The
# key is the canonical name; the user's own words are kept for display.

_LIST_SYNONYMS: dict[str, tuple[str, ...]] = {
    "shopping": (
        "shopping",
        "shop",
        "grocery",
        "groceries",
        "supermarket",
        "super market",
        "grocery store",
        "store",
        "food shopping",
        "קניות",
        "הקניות",
        "סופר",
        "הסופר",
        "סופרמרקט",
        "מכולת",
        "המכולת",
    ),
    "todo": (
        "todo",
        "to do",
        "to-do",
        "todos",
        "to dos",
        "to-dos",
        "tasks",
        "task",
        "things to do",
        "משימות",
        "המשימות",
        "מטלות",
        "המטלות",
        "דברים לעשות",
    ),
    "packing": ("packing", "pack", "trip", "אריזה", "האריזה", "ציוד"),
    "movies": ("movies", "movie", "films", "film", "to watch", "watch", "סרטים", "הסרטים"),
    "books": ("books", "book", "reading", "to read", "ספרים", "הספרים", "קריאה"),
    "gifts": ("gifts", "gift", "presents", "present", "מתנות", "המתנות"),
    "wish": ("wish", "wishlist", "wish list", "משאלות", "המשאלות"),
}
_LIST_CANONICAL = {normalize(word): key for key, words in _LIST_SYNONYMS.items() for word in words}
_LIST_SUFFIX = re.compile(r"\s+(?:list|lists)$|^(?:רשימת|רשימה\s+של)\s+")
_DOUBLED = re.compile(r"([יו])\1+")


def list_synonym(name: str) -> str | None:
    """The canonical name of a list `name` is a synonym of ("groceries", "supermarket", "רשימת
    הקניות", "סופר" are all "shopping"; "to-do", "משימות" are "todo"), or None for any other name."""
    folded = _LIST_SUFFIX.sub("", normalize(name)).strip()
    # Hebrew spelled with a doubled yod or vav ("הקנייות", "משימוות") names the same list.
    for spelled in dict.fromkeys((folded, _DOUBLED.sub(r"\1", folded))):
        if spelled in _LIST_CANONICAL:
            return _LIST_CANONICAL[spelled]
        if " " not in spelled and _strip_prefix(spelled) in _LIST_CANONICAL:
            return _LIST_CANONICAL[_strip_prefix(spelled)]
    return None


def list_word_spelled(word: str) -> str | None:
    """The Hebrew name of a list that every language names, which `word` is that name typed with
    one letter wrong, missing or extra ("הקנית" -> "הקניות", "המשימת" -> "המשימות"); None for a name
    of its own, or for a word too short to tell."""
    from rapidfuzz.distance import DamerauLevenshtein

    if len(word) < 4 or not "\u05d0" <= word[0] <= "\u05ea" or list_synonym(word) is not None:
        return None
    near = [w for w in _HE_LIST_WORDS if DamerauLevenshtein.distance(word, w) == 1]
    return near[0] if len(near) == 1 else None


_HE_LIST_WORDS = tuple(
    w for words in _LIST_SYNONYMS.values() for w in words if "\u05d0" <= w[0] <= "\u05ea" and len(w) >= 4
)
