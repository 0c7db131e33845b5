"""Resume layer 1: deterministic reply matching, no LLM.

- yes_no: multilingual yes/no word lists (English + Hebrew); the question's own options (e.g.
  Approve / Edit / Reject buttons) by id or exact label.
- single_choice: a 1-based index ("2", "#2", "option 2", "אפשרות 2", "the second one", "השני"),
  an option id, or an exact option label.
- multi_choice: indexes ("1 2", "1,2", "1 and 3", "1 ו-3", "1-3"), "both" / "שניהם" (only when
  there are exactly two options), "all" / "כולם"; a single index or option also counts.
- free_text: any non-empty reply that is not a cancel word.
- WhatsApp button / list replies: the reply id maps straight to an option
  (`interactive_reply_id(pending, option)` builds "<hitlId>:<optionId>"; a bare option id works too).

An index out of range is never accepted, a reply never parses as both yes and no, and the same
reply always parses the same (the parse is a pure function of the reply and the question).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Literal

from memo.domain import HITLReply, PendingHITL, PendingHITLOption
from memo.hitl import places
from memo.hitl.numbered import INDEX as _INDEX
from memo.hitl.numbered import numbered_option

Via = Literal["yes_no", "option", "interactive", "index", "multi", "free_text"]

# Punctuation and the direction marks a Hebrew keyboard puts around digits ("\u200f1"): spaces.
_PUNCT = re.compile(r"[\s.,!?;:\"'“”‘’()\[\]…~*_\u200e\u200f\u202a-\u202e\u2066-\u2069]+")
_NIQQUD = re.compile(r"[\u0591-\u05C7]")

_YES_EN = {
    "yes",
    "y",
    "yeah",
    "yea",
    "yah",
    "ya",
    "yep",
    "yup",
    "yes please",
    "yes yes",
    "sure",
    "sure thing",
    "ok",
    "okay",
    "k",
    "kk",
    "ok sure",
    "okay sure",
    "alright",
    "all right",
    "fine",
    "go ahead",
    "go for it",
    "do it",
    "please do",
    "yes do it",
    "yes go ahead",
    "confirm",
    "confirmed",
    "i confirm",
    "approve",
    "approved",
    "correct",
    "right",
    "thats right",
    "that's right",
    "absolutely",
    "of course",
    "definitely",
    "sounds good",
    "affirmative",
    "yes sure",
    "ok go ahead",
    "yes please do",
    # chat spellings (a typo such as "yse" is asked again: unclear, for an approval)
    "okey",
    "oki",
    "okie",
    "no problem",
}
_NO_EN = {
    "no",
    "n",
    "nope",
    "nah",
    "no thanks",
    "no thank you",
    "dont",
    "don't",
    "do not",
    "negative",
    "not now",
    "no way",
    "no no",
    "please dont",
    "please don't",
    "dont do it",
    "don't do it",
    "definitely not",
    "nop",
    "no need",
}
_YES_HE = {
    "כן", "כן כן", "בטח", "סבבה", "אוקיי", "אוקי", "אוקיי סבבה", "יאללה", "בסדר", "נכון", "מאשר", "מאשרת",
    "אישור", "קדימה", "ברור", "בהחלט", "יופי", "טוב", "כן בבקשה", "תעשה את זה", "תעשי את זה", "לך על זה",
    "לכי על זה", "אחלה", "כמובן", "כן תעשה", "כן מאשר", "כן מאשרת", "בטח שכן", "מסכים", "מסכימה", "סגור",
    "כן סגור", "יס", "אין בעיה", "אשר", "תאשר", "תאשרי",
}  # fmt: skip
_NO_HE = {
    "לא",
    "לא לא",
    "לא תודה",
    "ממש לא",
    "אל תעשה",
    "אל תעשי",
    "שלילי",
    "לא צריך",
    "עדיף שלא",
    "לא עכשיו",
    "בשום אופן",
    "אל תעשה את זה",
    "אל תעשי את זה",
    "לא רוצה",
}
_YES_EMOJI = {"👍", "✅", "✔️", "✔", "👌", "🆗"}
_NO_EMOJI = {"👎", "❌", "✖️", "🚫"}


_CANCEL = (
    {
        "cancel", "cancel it", "cancel that", "cancel this", "stop", "never mind", "nevermind", "nvm", "reject", "reject it",
        "forget it", "forget about it", "no never mind", "no nevermind", "no forget it", "nah never mind", "abort", "quit", "no cancel", "dont bother", "don't bother", "nah don't bother", "nah dont bother", "no don't bother", "undo", "undo that", "scratch that", "scratch it", "scratch this",
        "ביטול", "בטל", "תבטל", "תבטלי", "לבטל", "עזוב", "עזבי", "עזוב את זה", "עזבי את זה", "לא משנה", "דחייה",
        "תשכח מזה", "תשכחי מזה", "שכח מזה", "די", "עצור", "תעצור", "בטל את זה", "תבטל את זה",
        "תעזוב", "תעזבי", "תעזוב את זה", "תעזבי את זה", "עזבו", "עזבו את זה", "לא חשוב", "לא צריך",
        # "Which one?" answered with none of them
        "neither", "neither of them", "neither one", "none", "none of them", "none of those",
        "אף אחד", "אף אחת", "אף אחד מהם", "אף אחת מהן", "אף אחד מהן", "לא זה ולא זה",
    }
)  # fmt: skip

# Leave things as they are: a way out of any question, as "cancel" is ("keep it" to "delete it?",
# "leave it" to "which one?", "אל תמחק" to "למחוק?").
_KEEP = (
    {
        "keep it", "keep them", "keep both", "keep them all", "keep it as is", "keep as is", "leave it",
        "leave them", "leave it as is", "leave it alone", "leave them alone", "leave it be", "as is",
        "don't delete", "dont delete", "don't delete it", "dont delete it", "don't change it",
        "dont change it", "don't touch it", "dont touch it", "no change", "no changes",
        "תשאיר", "תשאירי", "תשאיר את זה", "תשאירי את זה", "תשאיר אותו", "תשאירי אותו", "תשאיר אותה",
        "תשאירי אותה", "תשאיר אותם", "תשאירי אותם", "תשאיר כמו שזה", "תשאירי כמו שזה", "שיישאר",
        "שישאר", "אל תמחק", "אל תמחקי", "אל תשנה", "אל תשני", "אל תגע", "אל תיגע", "בלי שינוי",
        # "Skip it once?" answered with the skip taken back
        "don't skip", "dont skip", "don't skip it", "dont skip it", "no skip", "no skipping",
        "cancel the skip", "forget the skip", "never mind the skip", "undo the skip", "scratch the skip",
        "אל תדלג", "אל תדלגי", "אל תדלג עליה", "אל תדלג עליו", "לא לדלג", "בלי לדלג", "בלי דילוג",
        "תבטל את הדילוג", "תבטלי את הדילוג", "בטל את הדילוג", "עזוב את הדילוג",
    }
)  # fmt: skip

_ALL_WORDS = {
    "all",
    "all of them",
    "everything",
    "every one",
    "each",
    "all three",
    "כולם",
    "כולן",
    "את כולם",
    "את כולן",
    "הכל",
    "הכול",
    "את הכל",
    "את הכול",
    "כל האפשרויות",
}
_BOTH_WORDS = {"both", "both of them", "the two", "שניהם", "שתיהן", "את שניהם", "את שתיהן", "שתיהם"}

_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "frist": 1, "fisrt": 1, "firts": 1, "secnd": 2, "scond": 2, "seccond": 2, "secound": 2, "thrid": 3, "forth": 4, "ראשון": 1, "ראשונה": 1, "שני": 2, "שנייה": 2, "שניה": 2, "שלישי": 3,
    "שלישית": 3, "רביעי": 4, "רביעית": 4, "חמישי": 5, "חמישית": 5, "שישי": 6, "שישית": 6, "שביעי": 7,
    "שמיני": 8, "תשיעי": 9, "עשירי": 10,
}  # fmt: skip
_LAST_WORDS = {"last", "the last", "the last one", "last one", "האחרון", "האחרונה"}

_ORDINAL = re.compile(r"^(?:the\s+)?(?P<w>[a-z]+|ה?[\u05d0-\u05ea]+)(?:\s+(?:one|option|אחד|אחת))?$")
_MULTI = re.compile(r"^\d{1,3}(?:\s*(?:,|;|&|\+|and|ו-?|-|\s)\s*\d{1,3})+$")
_RANGE = re.compile(r"^(\d{1,3})\s*-\s*(\d{1,3})$")


def normalize(text: str) -> str:
    """Casefold, NFC, drop niqqud, unify quotes/punctuation to single spaces."""
    text = unicodedata.normalize("NFC", text).casefold()
    text = _NIQQUD.sub("", text).replace("׳", "'").replace("״", '"')
    text = text.replace("’", "'")
    return _PUNCT.sub(" ", text).strip()


def _normalized(words: set[str]) -> frozenset[str]:
    return frozenset(normalize(word) for word in words)


YES_WORDS: frozenset[str] = _normalized(_YES_EN | _YES_HE)
NO_WORDS: frozenset[str] = _normalized(_NO_EN | _NO_HE)
CANCEL_WORDS: frozenset[str] = _normalized(_CANCEL)
KEEP_WORDS: frozenset[str] = _normalized(_KEEP)
ALL_WORDS: frozenset[str] = _normalized(_ALL_WORDS)
BOTH_WORDS: frozenset[str] = _normalized(_BOTH_WORDS)
LAST_WORDS: frozenset[str] = _normalized(_LAST_WORDS)
_YES_EMOJI_BARE = frozenset(e.replace("\ufe0f", "") for e in _YES_EMOJI)
_NO_EMOJI_BARE = frozenset(e.replace("\ufe0f", "") for e in _NO_EMOJI)


def _emoji_only(text: str) -> str:
    return "".join(ch for ch in text.strip() if not ch.isspace()).replace("\ufe0f", "")


# Hedges around a yes or a no: "actually yes", "wait no", "no wait", "בעצם כן", "רגע לא". A "wait"
# turns nothing into a yes ("yes wait" is asked again); around a no it only makes the no surer.
_YES_HEDGES = frozenset({"actually", "oh", "well", "hmm", "hm", "um", "umm", "בעצם", "אה", "אממ"})
_NO_HEDGES = _YES_HEDGES | {"wait", "רגע"}
_NO_TAILS = frozenset({"wait", "רגע"})


def _unhedged(norm: str, hedges: frozenset[str], tails: frozenset[str] = frozenset()) -> str:
    words = norm.split()
    while len(words) > 1 and words[0] in hedges:
        words.pop(0)
    while len(words) > 1 and words[-1] in tails:
        words.pop()
    return " ".join(words)


_STRETCHED = re.compile(r"(\w)\1+\b")


def _unstretched(norm: str) -> str:
    """ "yesss", "nooo", "כןןן", "okkk": a word's last letter typed again and again, once."""
    return _STRETCHED.sub(r"\1", norm)


def is_yes(text: str) -> bool:
    norm = normalize(text)
    if norm in YES_WORDS or _unhedged(norm, _YES_HEDGES) in YES_WORDS:
        return True
    if norm not in NO_WORDS and _unstretched(norm) in YES_WORDS:
        return True
    emoji = _emoji_only(text)
    return bool(emoji) and all(ch in _YES_EMOJI_BARE for ch in emoji)


def is_no(text: str) -> bool:
    norm = normalize(text)
    if norm in NO_WORDS or _unhedged(norm, _NO_HEDGES, _NO_TAILS) in NO_WORDS:
        return True
    if norm not in YES_WORDS and _unstretched(norm) in NO_WORDS:
        return True
    emoji = _emoji_only(text)
    return bool(emoji) and all(ch in _NO_EMOJI_BARE for ch in emoji)


def parse_yes_no(text: str) -> bool | None:
    """True for yes, False for no, None otherwise (never both)."""
    yes, no = is_yes(text), is_no(text)
    if yes == no:
        return None
    return yes


def is_cancel(text: str) -> bool:
    return normalize(text) in CANCEL_WORDS


def is_way_out(text: str) -> bool:
    """ "cancel", "never mind", "keep it", "leave it", a plain "no" (and their Hebrew): the answer that
    changes nothing, whatever the question asked."""
    norm = _unhedged(normalize(text), _NO_HEDGES, _NO_TAILS)
    return norm in CANCEL_WORDS or norm in KEEP_WORDS or is_no(text)


def _label_key(text: str) -> str:
    return normalize(text)


def _option_by_text(text: str, options: list[PendingHITLOption]) -> PendingHITLOption | None:
    key = _label_key(text)
    if not key:
        return None
    for option in options:
        if key == option.id.casefold():
            return option
    matches = [option for option in options if _label_key(option.label) == key]
    return matches[0] if len(matches) == 1 else None


def _single_index(norm: str, count: int) -> int | None:
    """A 1-based index in range, from "2", "#2", "option 2", "the second one", "השני", "last"."""
    match = _INDEX.match(norm)
    if match:
        value = int(match.group(1))
        return value if 1 <= value <= count else None
    if norm in LAST_WORDS:
        return count if count >= 1 else None
    match = _ORDINAL.match(norm)
    if match:
        word = match.group("w")
        ordinal = _ORDINALS.get(word) or (_ORDINALS.get(word[1:]) if word.startswith("ה") else None)
        if ordinal is not None and 1 <= ordinal <= count:
            return ordinal
    return None


def _multi_indexes(norm: str, count: int) -> tuple[int, ...] | None:
    """Indexes from "1 2", "1,2", "1 and 3", "1 ו-3", "1-3"; None if any is out of range."""
    range_match = _RANGE.match(norm)
    if range_match:
        low, high = int(range_match.group(1)), int(range_match.group(2))
        if not 1 <= low < high <= count:
            return None
        return tuple(range(low, high + 1))
    if not _MULTI.match(norm):
        return None
    values = [int(v) for v in re.findall(r"\d{1,3}", norm)]
    if any(not 1 <= v <= count for v in values):
        return None
    return tuple(dict.fromkeys(values))


#: Words around places that name nothing themselves: "the first and the third one".
_PLACE_FILLER = frozenset({"the", "one", "ones", "and", "option", "options", "את", "ו", "ואת"})


def _places(norm: str, count: int) -> tuple[int, ...] | None:
    """Places from "the first two", "first and third", "השניים הראשונים", "הראשון והאחרון"."""
    named = places.run(norm, count) or places.ordinals(
        " ".join(w for w in re.split(r"[\s,&+]+", norm) if w not in _PLACE_FILLER), count
    )
    return tuple(named) if named else None


@dataclass(frozen=True)
class FastPathMatch:
    """A deterministic match. `approved` for yes/no; `option_ids` for choices (in option order
    for multi-choice); `answer` for free text."""

    via: Via
    approved: bool | None = None
    option_ids: tuple[str, ...] = ()
    answer: str | None = None

    @property
    def parsed(self) -> dict[str, Any]:
        """The JSON value stored as `hitlResults[hitlId].parsed`."""
        value: dict[str, Any] = {"via": self.via}
        if self.approved is not None:
            value["approved"] = self.approved
        if self.option_ids:
            value["optionIds"] = list(self.option_ids)
        if self.answer is not None:
            value["answer"] = self.answer
        return value


def interactive_reply_id(pending: PendingHITL, option: PendingHITLOption) -> str:
    """The id to put on a WhatsApp button / list row for `option` of `pending`."""
    return f"{pending.hitl_id}:{option.id}"


def is_stale_interactive(pending: PendingHITL, reply: HITLReply) -> bool:
    """A button/list reply that belongs to another (older) question, or to no option of this one."""
    raw = reply.interactive_id
    if raw is None:
        return False
    return _interactive_option(pending, raw) is None


def _interactive_option(pending: PendingHITL, raw: str) -> PendingHITLOption | None:
    options = pending.options or []
    hitl_id, sep, option_id = raw.rpartition(":")
    if sep and hitl_id != pending.hitl_id:
        return None
    wanted = option_id if sep else raw
    return next((o for o in options if o.id == wanted), None)


def match(pending: PendingHITL, reply: HITLReply) -> FastPathMatch | None:
    """Layer 1 over `pending.expectedInput`; None when the reply needs layer 2 (or is invalid)."""
    options = pending.options or []
    if reply.interactive_id is not None:
        option = _interactive_option(pending, reply.interactive_id)
        if option is None:
            return None
        return _from_option(pending, option, via="interactive")
    text = reply.text.strip()
    if not text:
        return None
    norm = normalize(text)
    expected = pending.expected_input

    if expected == "yes_no":
        answer = parse_yes_no(text)
        if answer is not None:
            return FastPathMatch(via="yes_no", approved=answer)
        option = _option_by_text(text, options) or numbered_option(pending, text)
        return _from_option(pending, option, via="option") if option is not None else None

    if expected == "free_text":
        if is_cancel(text):
            return None
        return FastPathMatch(via="free_text", answer=text)

    count = len(options)
    norm = _ONLY.sub("", norm) or norm  # "only the first", "just 2", "רק השני": the choice itself
    index = _single_index(norm, count)
    if index is not None:
        return FastPathMatch(via="index", option_ids=(options[index - 1].id,))
    option = _option_by_text(text, options)
    if option is not None:
        return FastPathMatch(via="option", option_ids=(option.id,))
    if expected == "multi_choice":
        if norm in ALL_WORDS or (norm in BOTH_WORDS and count == 2):
            return FastPathMatch(via="multi", option_ids=tuple(o.id for o in options))
        indexes = _multi_indexes(norm, count) or _places(norm, count)
        if indexes:
            return FastPathMatch(via="multi", option_ids=tuple(options[i - 1].id for i in sorted(indexes)))
    return None


def _from_option(pending: PendingHITL, option: PendingHITLOption, *, via: Via) -> FastPathMatch:
    if pending.expected_input == "yes_no":
        if option.id in ("yes", "approve"):
            return FastPathMatch(via=via, approved=True, option_ids=(option.id,))
        if option.id in ("no", "reject"):
            return FastPathMatch(via=via, approved=False, option_ids=(option.id,))
    return FastPathMatch(via=via, option_ids=(option.id,))


_ONLY = re.compile(r"^(?:only|just|רק)\s+")
_BARE_NUMBERS = re.compile(r"^(?:#\s*)?\d{1,2}(?:\s*(?:,|and|ו-?|&|\s)\s*\d{1,2})*$")


_POINTS_BACK = re.compile(r"\b(?:it|this|that)$|את\s+זה$")


def looks_like_hitl_answer(text: str, interactive_id: str | None = None) -> bool:
    """Whether a message with no pending question is a bare answer to one (stale-reply guard):
    yes/no words, cancel words, bare numbers or "1 2", "both"/"all", ordinals, or a button reply."""
    if interactive_id:
        return True
    if is_cancel(text) and _POINTS_BACK.search(normalize(text)):
        return (
            False  # "cancel it" with no question open: the thing just made ("delete it"), not a stale answer
        )
    if parse_yes_no(text) is not None or is_cancel(text):
        return True
    norm = normalize(text)
    if not norm:
        return False
    if _BARE_NUMBERS.match(norm) or norm in ALL_WORDS or norm in BOTH_WORDS or norm in LAST_WORDS:
        return True
    ordinal = _ORDINAL.match(norm)
    return bool(ordinal and ordinal.group("w") in _ORDINALS and len(norm.split()) <= 3)
