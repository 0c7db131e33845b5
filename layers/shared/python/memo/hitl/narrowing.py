"""Narrowing answers to an approval that lists items: keep some of them, never add any.

`parse(text, shown, ...)` reads replies such as
- numbers: "1 3", "only 2", "just 1 and 3", "1-3", "רק 2";
- inclusion: "only tomorrow's", "just the ones for today", "only call mom", "רק של מחר", "רק את אמא";
- exclusion: "not 2", "all but 2", "except the one for dad", "not dad", "without the bank",
  "חוץ מ-2", "בלי אבא", "לא את של אבא";
each optionally after a yes ("yes but only the ones for tomorrow", "כן אבל רק של מחר").
The result is always a subset of the shown items (`Narrowing.ids`, in shown order). A reply that
has the shape of a narrowing but whose words pick nothing is `unresolved`: the caller asks again and
never approves the whole set. `has_qualifier` tells whether a reply limits its yes at all ("yes but
only X" must never approve everything).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from memo.capabilities.reminder_args import OCCURRENCE, split_scoped
from memo.domain import DisambiguationCandidate
from memo.hitl import places
from memo.hitl.fastpath import normalize
from memo.hitl.templates.approval import GOES_ON
from memo.planner.timeparse import extract_when
from memo.text.language import Language
from memo.text.matching import CLOSE_WINDOW, match, rank, tokens

_LEAD_YES = re.compile(
    r"^(?:yes|yeah|yep|sure|ok(?:ay)?|fine|approve[d]?|go ahead|do it|כן|בטח|סבבה|אוקיי?|בסדר|מאשר[ת]?|תמחק|תמחקי)"
    r"(?:\s+(?:but|and|please|אבל))*\s+",
)
#: "actually ...", "wait, ...", "בעצם ...": a second thought before the narrowing itself.
_SECOND_THOUGHT = re.compile(r"^(?:(?:oh|ok|wait|actually|hmm|sorry|בעצם|רגע|אה|סליחה)[\s,]+)+")
_ONLY = re.compile(r"^(?:but\s+)?(?:only|just|אבל\s+רק|רק)\s+(?P<rest>.+)$")
_KEEP_VERB = re.compile(r"^(?:keep|leave|save|spare|תשאיר|תשאירי|להשאיר)\s+(?:את\s+)?(?P<rest>\S.*)$")
_REMOVAL_VERB = re.compile(
    r"^(?:delete|remove|clear|cancel|erase|תמחק|תמחקי|תבטל|תבטלי|תוריד|תורידי)\s+(?:את\s+)?(?=\S)"
)
_COMMA_LEAD = re.compile(
    r"^\W*(?:(?:yes|yeah|yep|yup|ok|okay|sure|fine|alright|approve[ds]?|go\s+ahead|do\s+it|no|wait|but\s+wait|hmm+|"
    r"actually|oh|oops|but|כן|אוקי|אוקיי|בסדר|סבבה|מאשר|מאשרת|לא|רגע|אבל|בעצם)\b[\s!.]*)+,(?:\s*(?:(?:wait|but\s+wait|"
    r"actually|רגע|אבל\s+רגע|בעצם)\b[\s!.]*)+,)*",
    re.I,
)
_COMMA = re.compile(r"\s*[,،]\s*(?:and\s+)?(?=\S)", re.I)
_EXCEPT = re.compile(
    r"^(?:but\s+)?(?:(?:all|everything|every\s+one|the\s+rest|כולם|כולן|הכל|הכול|את\s+כולם|את\s+כולן)\s+)?"
    r"(?:(?:do\s+not|don'?t|dont|don\s+t)\s+(?:delete|remove|touch|clear)|"
    r"but\s+not|but|except(?:\s+for)?|excluding|apart\s+from|other\s+than|minus|without|not|leave|keep|skip|"
    r"אל\s+(?:תמחק|תמחקי|תוריד|תורידי|תיגע|תגע)\s+(?:ב|את)?|"
    r"חוץ\s+מ-?|חוץ\s+מה|מלבד|פרט\s+ל-?|בלי|לא\s+את|לא|תשאיר\s+את|תשאירי\s+את|תשאיר|תשאירי)\s*"
    r"(?P<rest>.+)$"
)
_QUALIFIER = re.compile(
    r"(?:^|\s)(?:only|just|but|except|excluding|apart|other\s+than|without|not|leave|keep|skip|don'?t|dont|don\s+t|אל|"
    r"רק|אבל|חוץ|מלבד|פרט|בלי|לא\s+את|תשאיר|תשאירי)(?:\s|$)"
)
_NUMBERS = re.compile(r"^(?:#?\d{1,3})(?:\s*(?:,|;|&|\+|and|or|ו-?|או|-|\s)\s*#?\d{1,3})*$")
_RANGE = re.compile(r"^(\d{1,3})\s*-\s*(\d{1,3})$")
_FILLER = frozenset(
    {
        "the", "one", "ones", "for", "with", "about", "from", "to", "that", "which", "is", "are", "of",
        "reminder", "reminders", "note", "notes", "item", "items", "please", "thanks", "s", "number",
        "numbers", "and", "on", "at", "due",
        "את", "של", "שעל", "על", "ה", "זו", "זה", "אלה", "אלו", "התזכורת", "התזכורות", "תזכורת", "תזכורות",
        "הפתק", "הפתקים", "הפריט", "הפריטים", "בבקשה", "ושל", "ואת", "מספר", "שהיא", "שהן", "שהם", "ל",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Narrowing:
    """The shown ids the reply keeps (shown order). `unresolved`: the reply narrows, but its words
    picked nothing among the shown items; `empty`: they picked every item away."""

    ids: tuple[str, ...] = ()
    unresolved: bool = False

    @property
    def empty(self) -> bool:
        return not self.unresolved and not self.ids


def has_qualifier(text: str) -> bool:
    """Whether a reply limits what it approves ("only", "except", "not the", "רק", "חוץ מ", ...)."""
    return bool(_QUALIFIER.search(normalize(text)))


def _words(text: str) -> str:
    norm = normalize(text).replace("'s", " ").replace("’s", " ")
    norm = re.sub(r"(?<=\w)'s\b", "", norm)
    return " ".join(w for w in norm.split() if w not in _FILLER)


def _indexes(text: str, count: int) -> list[int] | None:
    norm = normalize(text)
    norm = re.sub(r"^(?:numbers?|number|מספרים|מספר|items?|#)\s+", "", norm)
    found = _RANGE.match(norm)
    if found:
        low, high = int(found.group(1)), int(found.group(2))
        if 1 <= low < high <= count:
            return list(range(low, high + 1))
        return None
    if not _NUMBERS.match(norm):
        return None
    values = [int(v) for v in re.findall(r"\d{1,3}", norm)]
    if not values or any(not 1 <= v <= count for v in values):
        return None
    return list(dict.fromkeys(values))


def _day_of(candidate: DisambiguationCandidate) -> date | None:
    raw = candidate.data.get("day")
    if isinstance(raw, str):
        try:
            return date.fromisoformat(raw)
        except ValueError:
            return None
    return None


def _by_day(
    words: str,
    shown: Sequence[DisambiguationCandidate],
    *,
    now: datetime,
    timezone: str,
    language: Language,
    sparing: bool = False,
) -> list[str] | None:
    """The shown items due on the day the words name ("tomorrow", "friday", "מחר"); None when the
    words are not only a day. A repeating reminder that goes on after that day is one of them only
    when the words name what to keep (`sparing`: "except tomorrow's" keeps it): the day names one
    of its times, never the series the question lists to run ("only tomorrow" to "delete
    “vitamins” every day" deleted the whole series)."""
    if not any(_day_of(c) is not None for c in shown):
        return None
    day = day_named(words, now=now, timezone=timezone, language=language)
    if day is None:
        return None
    return [c.id for c in shown if _day_of(c) == day and (sparing or GOES_ON not in c.data)]


def a_time_of_a_series(
    text: str, shown: Sequence[DisambiguationCandidate], *, now: datetime, timezone: str, language: Language
) -> bool:
    """Whether a reply names only a day ("only tomorrow", "רק מחר") on which a listed repeating
    reminder comes, while the question deletes its whole series."""
    only = _ONLY.match(_reply_body(text, removal=True)[0])
    day = day_named(only.group("rest"), now=now, timezone=timezone, language=language) if only else None
    return day is not None and any(GOES_ON in c.data and _day_of(c) == day for c in shown)


def this_time_by_day(
    text: str,
    candidates: Sequence[DisambiguationCandidate],
    *,
    now: datetime,
    timezone: str,
    language: Language,
) -> str | None:
    """To "this one or the whole series?", the answer "only tomorrow", "tomorrow's", "רק מחר" when
    tomorrow is this one's day: its id; None for any other answer or day (asked again)."""
    this = [c for c in candidates if split_scoped(c.id)[1] == OCCURRENCE]
    if len(candidates) != 2 or len(this) != 1 or _day_of(this[0]) is None:
        return None
    only = _ONLY.match(normalize(text))
    words = only.group("rest") if only else normalize(text)
    return (
        this[0].id
        if day_named(words, now=now, timezone=timezone, language=language) == _day_of(this[0])
        else None
    )


def day_named(text: str, *, now: datetime, timezone: str, language: Language) -> date | None:
    """The day the words name and nothing else ("tomorrow", "for friday", "של מחר"); None for a time
    of day ("the ones at 5pm": the items' days cannot tell it apart, and the day it fell on once
    kept a 6pm item) or for words beside the day."""
    parsed = extract_when(_words(text), now=now, timezone=timezone, language=language)
    if parsed.when is not None or parsed.day is None or _words(parsed.remainder):
        return None
    return parsed.day


_PARTS = re.compile(r"\s*(?:,|&|\+|\band\b|\bor\b)\s*|\s+(?=ו\S)")


def _select(
    rest: str,
    shown: Sequence[DisambiguationCandidate],
    *,
    now: datetime,
    timezone: str,
    language: Language,
    sparing: bool = False,
) -> list[str] | None:
    """The shown ids the words of `rest` name: indexes, places ("the first one"), a day, or titles
    (each of several: "mom and milk"); None if they name none. `sparing`: the words name what to
    keep, so every title close to them counts ("keep the milk" spares “almond milk” too); else the
    very words of a title win over the titles that hold them ("only the milk" is “milk” alone)."""
    indexes = _indexes(rest, len(shown))
    if indexes is not None:
        return [shown[i - 1].id for i in indexes]
    run = places.run(normalize(rest), len(shown))
    if run is not None:
        return [shown[i - 1].id for i in run]
    words = _words(rest)
    if not words:
        return None
    named = places.ordinals(words, len(shown))
    if named is not None:
        return [shown[i - 1].id for i in named]
    by_day = _by_day(words, shown, now=now, timezone=timezone, language=language, sparing=sparing)
    if by_day is not None:
        return by_day or None
    whole = _titled(words, shown, sparing=sparing)
    # "mom and milk", "call mom and the dentist": each part names its own, and every part must name
    # something. The whole words matching one item ("call mom" in "call mom and the dentist") must
    # not drop the other parts, unless one item's title says every part ("salt and pepper").
    parts = [_words(p) for p in _PARTS.split(normalize(rest))]
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return whole
    picked: list[str] = []
    for part in parts:
        found = _titled(part, shown, sparing=sparing)
        if found is None:
            return whole
        picked += [i for i in found if i not in picked]
    if whole is not None and any(
        all(part in _words(c.label) for part in parts) for c in shown if c.id in whole
    ):
        return whole
    return picked


def _titled(words: str, shown: Sequence[DisambiguationCandidate], *, sparing: bool) -> list[str] | None:
    """The ids of the titles the words name (`_select`'s `sparing`); None for none."""
    if sparing:
        ranked = rank(words, list(shown), lambda c: c.label)
        return [s.item.id for s in ranked if s.score >= ranked[0].score - CLOSE_WINDOW] if ranked else None
    outcome = match(words, list(shown), lambda c: c.label)
    said = tokens(words)
    same = [s.item.id for s in outcome.matches if tokens(s.item.label) == said]
    if same:
        # the very words of a title, not the titles that hold them: "only the milk" is not
        # “almond milk” too (each scores 100 on the other, one holding the other)
        return same
    return [scored.item.id for scored in outcome.matches] if outcome.found else None


def parse(
    text: str,
    shown: Sequence[DisambiguationCandidate],
    *,
    now: datetime,
    timezone: str,
    language: Language,
    removal: bool = False,
) -> Narrowing | None:
    """The subset of `shown` a reply keeps, or None when the reply is not a narrowing at all.
    `removal`: the approval deletes or removes, so "delete mom" / "delete them" say which."""
    if not shown:
        return None
    body, said_yes = _reply_body(text, removal=removal)
    order = [c.id for c in shown]
    numbers = _indexes(body, len(shown))
    if numbers is not None:
        # "1" to a question that lists one item is that item (and the first button, Approve, too).
        return Narrowing(ids=tuple(shown[i - 1].id for i in sorted(numbers)))
    only = _ONLY.match(body)
    if only:
        rest = only.group("rest")
        kept = _KEEP_VERB.match(rest) if removal else None
        if kept is not None:
            # "only keep dad", "רק תשאיר את אבא": dad stays, the others are deleted
            spared = _select(
                kept.group("rest"), shown, now=now, timezone=timezone, language=language, sparing=True
            )
            if spared is None:
                return Narrowing(unresolved=True)
            return Narrowing(ids=tuple(i for i in order if i not in set(spared)))
        if removal:
            rest = _REMOVAL_VERB.sub("", rest, count=1)  # "just delete dad", "רק תמחק את אבא"
        picked = _select(rest, shown, now=now, timezone=timezone, language=language)
        if picked is None:
            return Narrowing(unresolved=True)
        keep = set(picked)
        return Narrowing(ids=tuple(i for i in order if i in keep))
    excluded = _EXCEPT.match(body) if _starts_exclusion(body) else None
    if excluded is not None:
        return _excluding(excluded.group("rest"), shown, now=now, timezone=timezone, language=language)
    named = _ACTION_ON.match(body) if removal else None
    if removal and ((named and _ALL.match(named.group("rest"))) or (said_yes and _ALL.match(body))):
        return Narrowing(ids=tuple(order))  # "delete all of them": every one shown, as asked
    if said_yes or named:
        # "yes delete mom and dad", "yes, the first two", "delete dad": what is named, and only that
        # (approving all three there would run more than was said).
        picked = _select(
            named.group("rest") if named else body, shown, now=now, timezone=timezone, language=language
        )
        if picked is not None:
            keep = set(picked)
            return Narrowing(ids=tuple(i for i in order if i in keep))
        if named:
            return Narrowing(unresolved=True)  # "delete the blue ones": named, but nothing shown is it
    # Anything else is for the interpreter; a yes it reads with a limit in it is asked again by the
    # caller (`has_qualifier`), never taken as approving everything.
    return None


def _excluding(
    rest: str, shown: Sequence[DisambiguationCandidate], *, now: datetime, timezone: str, language: Language
) -> Narrowing:
    """ "not 2", "except dad", "keep the bread": every shown item but those `rest` names."""
    if _ALL.match(rest) or _ANY.match(rest):
        # "keep all", "not all", "תשאיר את כולם": every one spared, none named ("all" is no title,
        # though "call mom" has it in it)
        return Narrowing(ids=())
    picked = _select(rest, shown, now=now, timezone=timezone, language=language, sparing=True)
    if picked is None:
        return Narrowing(unresolved=True)
    return Narrowing(ids=tuple(c.id for c in shown if c.id not in set(picked)))


def _reply_body(text: str, *, removal: bool) -> tuple[str, bool]:
    """The reply normalized, without its lead-in yes, second thought or repeated action; and
    whether it opened with a yes."""
    # "call mom, the dentist and bread": the commas part the names (`normalize` drops them); a
    # comma after a lead-in ("yes, ...", "ok, ...", "but wait, ...") is not between names.
    lead = _COMMA_LEAD.match(text)
    cut = lead.end() if lead else 0
    text = text[:cut] + _COMMA.sub(" and ", text[cut:])
    norm = _SECOND_THOUGHT.sub("", normalize(text), count=1)
    body = _LEAD_YES.sub("", norm, count=1).strip()
    said_yes = body != norm
    # "yes but wait, keep dad": a second thought after the yes; "delete them except ...": the
    # approved action said again before the limit.
    body = _SECOND_THOUGHT.sub("", body, count=1)
    limited = _ACTION_AGAIN.sub("", body, count=1).strip()
    if removal and limited != body and limited.startswith("but "):
        limited = f"all {limited}"  # "delete all but 1": every one but 1
    if removal and limited != body and _starts_exclusion(limited):
        body = limited
    return body, said_yes


#: The approved action said again before a limit: "delete them except ...", "remove all but 2".
_ACTION_AGAIN = re.compile(
    r"^(?:(?:delete|remove|clear|cancel|erase)\s+(?:them\s+all|all\s+of\s+them|them|all|everything|every\s+one)"
    r"|(?:תמחק|תמחקי|תבטל|תבטלי|תוריד|תורידי)\s+(?:את\s+)?(?:כולם|כולן|הכל|הכול|אותם|אותן))\s*,?\s+(?=\S)"
)
#: Words for every shown item (or the one): "delete them", "delete all of them", "תמחק את כולם".
_ALL = re.compile(
    r"^(?:them|it|all|everything|every\s+one|all\s+of\s+them|them\s+all|all\s+three|all\s+\d+|the\s+lot|"
    r"(?:את\s+)?(?:כולם|כולן|הכל|הכול|אותם|אותן|אותו|אותה|זה))(?:\s+(?:please|now|בבקשה))?[.!]*$"
)
#: Spared, "any" is every one: "don't delete any", "keep any of them", "אל תמחק אף אחד" (never in
#: what an approval acts on: "delete any of them" names no set).
_ANY = re.compile(r"^(?:any(?:\s+of\s+them)?|none(?:\s+of\s+them)?|אף\s+(?:אחד|אחת)(?:\s+מהם|\s+מהן)?)[.!]*$")
#: The approved action with what it is to act on: "delete mom and dad", "remove the milk", "תמחק את אבא".
_ACTION_ON = re.compile(
    r"^(?:(?:delete|remove|clear|cancel|erase)|(?:תמחק|תמחקי|תבטל|תבטלי|תוריד|תורידי))\s+(?:only\s+|just\s+|רק\s+)?(?P<rest>\S.*)$"
)


def names_by_its_action(text: str) -> bool:
    """Whether the reply says the removal again with what it removes ("delete call mom", "תמחק את
    להתקשר לאמא"), no yes or "only" before it."""
    body, said_yes = _reply_body(text, removal=True)
    return not said_yes and _ACTION_ON.match(body) is not None and _ONLY.match(body) is None


_EXCLUSION_START = re.compile(
    r"^(?:but\s+)?(?:all|everything|every\s+one|the\s+rest|כולם|כולן|הכל|הכול|את\s+כולם|את\s+כולן)?\s*"
    r"(?:(?<=\S\s)but\s|but\s+not|(?:do\s+not|don'?t|dont|don\s+t)\s+(?:delete|remove|touch|clear)\s|אל\s+(?:תמחק|תמחקי|תוריד|תורידי|תיגע|תגע)\s|"
    r"except|excluding|apart\s+from|other\s+than|without|not\s+(?!(?:sure|now|yet|really|at\s+all)\b)\S|"
    r"skip|leave|keep|חוץ|מלבד|פרט|בלי|לא\s+את|לא\s+של|לא\s+\d|תשאיר)"
)


def starts_with_a_limit(text: str) -> bool:
    """Whether `text` opens with words that keep some items ("only 1", "just mom", "not the bread",
    "keep dad", "רק של מחר", "בלי הלחם"), not with an action or a yes ("cancel it", "ok")."""
    body = normalize(text)
    return bool(_ONLY.match(body)) or _starts_exclusion(body)


def _starts_exclusion(body: str) -> bool:
    """An exclusion stated on its own ("not 2", "except dad", "בלי אבא"), not a bare "no ..."."""
    return bool(_EXCLUSION_START.match(body))
