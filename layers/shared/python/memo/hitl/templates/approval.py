"""The approval question of a plan step: Approve / Edit / Reject, and the wording that names what the
step would do and the items it touches (numbered, so that an answer may keep only some)."""

from __future__ import annotations

from collections.abc import Sequence

from memo.domain import DisambiguationCandidate, HITLReason, PendingHITLOption, PlanStep
from memo.hitl.templates.plan_description import describe_step
from memo.text.language import Language
from memo.text.wording import he_list_name, quote, shorten

APPROVE_ID = "approve"
#: A listed repeating reminder's next time (`DisambiguationCandidate.data`), as a skip shows it.
NEXT_TIME = "next"
#: The listed reminder's next time is skipped once, and the series goes on (its description is
#: that time).
SKIPPED_ONCE = "skip"
#: The listed item is a repeating reminder that goes on after its next time (deleted whole): a
#: day names one of its times, never it (`memo.hitl.narrowing`).
GOES_ON = "goesOn"
#: How many times of a series a skip of some days skips, as text ("2", "366+"; its `NEXT_TIME`
#: then names them).
SKIP_TIMES = "skipTimes"
EDIT_ID = "edit"
REJECT_ID = "reject"

_APPROVAL_LABELS: dict[Language, tuple[str, str, str]] = {
    "en": ("Approve", "Edit", "Reject"),
    "he": ("אישור", "עריכה", "דחייה"),
}


def approval_options(language: Language) -> list[PendingHITLOption]:
    """Approve / Edit / Reject, in that order, as WhatsApp reply buttons."""
    approve, edit, reject = _APPROVAL_LABELS[language]
    return [
        PendingHITLOption(id=APPROVE_ID, label=approve),
        PendingHITLOption(id=EDIT_ID, label=edit),
        PendingHITLOption(id=REJECT_ID, label=reject),
    ]


def _approval_head(language: Language, reason: HITLReason) -> str:
    """How an approval opens: a review the policy asks for, or Memo's own "before I go ahead"."""
    review = reason in ("tool_requires_review", "policy_violation")
    if language == "he":
        return "הפעולה הזאת דורשת בדיקה" if review else "רגע לפני"
    return "This needs a check" if review else "Before I go ahead"


def approval_question(
    language: Language, summary: str, reason: HITLReason, *, along: Sequence[str] = ()
) -> str:
    also = f" {along_line(along, language).strip()}" if along else ""
    if language == "he":
        head = _approval_head(language, reason)
        return f"{head}: אני עומד {summary}.{also} לאשר, לערוך או לדחות?"
    head = _approval_head(language, reason)
    return f"{head}: I'm about to {summary}.{also} Approve, edit or reject?"


def policy_violation_question(language: Language, why: str) -> str:
    """A request that breaks a rule of `memo.hitl.request_rules`: why nothing was done, and whether an
    operator should look at it (only an operator's approval lets it run)."""
    if language == "he":
        return f"{why}\nלבקש מנציג לבדוק ולאשר את זה?"
    return f"{why}\nShould I ask an operator to check it and allow it?"


#: An approval lists at most this many items; the rest are counted ("…and 4 more").
APPROVAL_ITEMS_SHOWN = 10
_ITEM_NOUNS: dict[str, tuple[str, str, str, str]] = {
    # capability: (en singular, en plural, he singular "one", he plural)
    "reminders": ("reminder", "reminders", "תזכורת אחת", "תזכורות"),
    "notes": ("note", "notes", "פתק אחד", "פתקים"),
    "lists": ("item", "items", "פריט אחד", "פריטים"),
}


def count_items(capability: str, count: int, language: Language) -> str:
    """ "3 reminders" / "1 reminder" / "3 תזכורות" / "תזכורת אחת"."""
    en_one, en_many, he_one, he_many = _ITEM_NOUNS.get(capability, ("item", "items", "פריט אחד", "פריטים"))
    if language == "he":
        return he_one if count == 1 else f"{count} {he_many}"
    return f"1 {en_one}" if count == 1 else f"{count} {en_many}"


def _items_action(
    step: PlanStep, count: int, language: Language, timezone: str, *, everything: bool = True
) -> str:
    """What the step does to the listed items, as a verb phrase ("delete 3 reminders"). A "delete
    all" or "clear" narrowed to some of the items (`everything` False) says only what it touches."""
    he = language == "he"
    counted = count_items(step.capability, count, language)
    name = str(step.constraints.get("listName", ""))
    if step.action == "delete_all" and not everything:
        return f"למחוק {counted}" if he else f"delete {counted}"
    if step.action == "clear" and not everything:
        return (
            f"להוריד {counted} מרשימת {he_list_name(name)}"
            if he
            else f"remove {counted} from your {name} list"
        )
    if step.action == "delete_all":
        _, en_many, _, he_many = _ITEM_NOUNS.get(step.capability, ("item", "items", "", "פריטים"))
        return f"למחוק את כל ה{he_many} שלך ({count})" if he else f"delete all your {en_many} ({count})"
    if step.action in ("delete",):
        return f"למחוק {counted}" if he else f"delete {counted}"
    if step.action == "remove":
        return (
            f"להוריד {counted} מרשימת {he_list_name(name)}"
            if he
            else f"remove {counted} from your {name} list"
        )
    if step.action == "clear":
        return (
            f"לנקות את רשימת {he_list_name(name)} ({counted})"
            if he
            else f"clear your {name} list ({counted})"
        )
    if step.action == "update":
        change = describe_step(step, language, timezone).split(": ", 1)
        tail = f": {change[1]}" if len(change) == 2 else ""
        return f"לעדכן {counted}{tail}" if he else f"update {counted}{tail}"
    return describe_step(step, language, timezone)


def _described(candidate: DisambiguationCandidate, language: Language, *, part: bool = True) -> str:
    """ " — Tue 5 May, 17:00" after an item; a repeating reminder's next time skipped among other
    items also says that only that time goes (`part`)."""
    said = f" — {candidate.description}" if candidate.description else ""
    if part and candidate.data.get(SKIPPED_ONCE):
        if candidate.data.get(SKIP_TIMES):
            # a skip of some days: its times, then the series goes on
            then = ", ואחר כך ממשיכה כרגיל" if language == "he" else ", then it goes on"
            return f"{said} — {_times(candidate, language)}{then}"
        said += " — רק הפעם הבאה" if language == "he" else " — only the next time"
    return said


def item_lines(candidates: list[DisambiguationCandidate], language: Language, *, parts: bool = True) -> str:
    """ "1. “call mom” — Tue 5 May, 17:00" per item, at most APPROVAL_ITEMS_SHOWN, then how many more."""
    lines = [
        f"{index}. {quote(shorten(c.label, 60), language)}{_described(c, language, part=parts)}"
        for index, c in enumerate(candidates[:APPROVAL_ITEMS_SHOWN], start=1)
    ]
    more = len(candidates) - APPROVAL_ITEMS_SHOWN
    if more > 0:
        lines.append(f"…ועוד {more}" if language == "he" else f"…and {more} more")
    return "\n".join(lines)


def along_line(along: Sequence[str], language: Language) -> str:
    """The rest of the plan, which waits for the same answer ("yes" runs it, "no" runs none of it)."""
    if not along:
        return ""
    if language == "he":
        return "ויחד עם זה גם: " + "; ".join(along) + ".\n"
    return "Along with it: " + "; ".join(along) + ".\n"


def approval_items_question(
    language: Language,
    step: PlanStep,
    candidates: list[DisambiguationCandidate],
    reason: HITLReason,
    timezone: str,
    *,
    everything: bool = True,
    along: Sequence[str] = (),
) -> str:
    """The approval of a resolved step: the concrete items it touches, never the search words.
    `everything`: the candidates are all the items a "delete all" / "clear" would touch. `along`:
    the rest of the plan, said so that the answer is about all of what runs."""
    if not candidates:
        return approval_question(language, describe_step(step, language, timezone), reason, along=along)
    if step.action == "delete" and all(c.data.get(SKIPPED_ONCE) for c in candidates):
        return _skip_question(language, candidates, reason, along=along)
    action = _items_action(step, len(candidates), language, timezone, everything=everything)
    listing = item_lines(candidates, language)
    # Keeping some is offered only when nothing else runs with them (`resume`: never guessed).
    several = len(candidates) > 1 and not along
    if language == "he":
        head = _approval_head(language, reason)
        tail = "לאשר, לערוך או לדחות?" + (
            " אפשר גם להשאיר רק חלק, למשל „רק 1 ו-3” או „חוץ מ-2”." if several else ""
        )
        return f"{head}: אני עומד {action}:\n{listing}\n{along_line(along, language)}{tail}"
    head = _approval_head(language, reason)
    tail = "Approve, edit or reject?" + (
        ' You can also keep only some, e.g. "only 1 and 3" or "not 2".' if several else ""
    )
    return f"{head}: I'm about to {action}:\n{listing}\n{along_line(along, language)}{tail}"


def _skip_question(
    language: Language, candidates: list[DisambiguationCandidate], reason: HITLReason, *, along: Sequence[str]
) -> str:
    """ "I'm about to skip “take vitamins” once — Tue 1 Dec, 09:00; it goes on after that.": the
    next time of repeating reminders skipped, never said as a delete."""
    head, rest = _approval_head(language, reason), along_line(along, language)
    if language == "he":
        tail = "לאשר, לערוך או לדחות?"
        if len(candidates) == 1:
            c = candidates[0]
            times = _times(c, language)
            said = f"לדלג {times} על {quote(shorten(c.label, 60), language)} — {c.description}; אחרי זה היא ממשיכה כרגיל."
            return f"{head}: אני עומד {said}\n{rest}{tail}"
        listing = item_lines(candidates, language, parts=False)
        if any(_times(c, language) != "פעם אחת" for c in candidates):
            return f"{head}: אני עומד לדלג על הפעמים האלה של {len(candidates)} תזכורות (אחרי זה הן ממשיכות כרגיל):\n{listing}\n{rest}{tail}"
        return f"{head}: אני עומד לדלג פעם אחת על {len(candidates)} תזכורות (אחרי זה הן ממשיכות כרגיל):\n{listing}\n{rest}{tail}"
    tail = "Approve, edit or reject?"
    if len(candidates) == 1:
        c = candidates[0]
        said = f"skip {quote(shorten(c.label, 60), language)} {_times(c, language)} — {c.description}; it goes on after that."
        return f"{head}: I'm about to {said}\n{rest}{tail}"
    listing = item_lines(candidates, language, parts=False)
    if any(_times(c, language) != "once" for c in candidates):
        return f"{head}: I'm about to skip these times of {len(candidates)} reminders (each goes on after that):\n{listing}\n{rest}{tail}"
    return f"{head}: I'm about to skip {len(candidates)} reminders once (each goes on after that):\n{listing}\n{rest}{tail}"


def _times(candidate: DisambiguationCandidate, language: Language) -> str:
    """How many times a skip skips: "once", "twice", "7 times" ("פעם אחת", "פעמיים", "7 פעמים")."""
    count = str(candidate.data.get(SKIP_TIMES) or "1")  # "2", or "366+" past the count
    if language == "he":
        return {"1": "פעם אחת", "2": "פעמיים"}.get(count, f"{count} פעמים")
    return {"1": "once", "2": "twice"}.get(count, f"{count} times")


def approval_steps_question(
    language: Language,
    parts: Sequence[tuple[PlanStep, list[DisambiguationCandidate]]],
    reason: HITLReason,
    timezone: str,
    *,
    along: Sequence[str] = (),
) -> str:
    """One approval for a plan that deletes or removes in several steps ("delete the dentist
    reminder and delete the mom reminder"): every item of every step, since one answer runs them
    all, numbered across the steps so that an answer may keep only some ("only 1", "not 2") when
    nothing else runs with them."""
    he = language == "he"
    blocks = []
    number = 0
    for step, items in parts:
        skips = step.action == "delete" and bool(items) and all(c.data.get(SKIPPED_ONCE) for c in items)
        counted = count_items(step.capability, len(items), language)
        # a skip among other steps is said as a skip ("skip 1 reminder:"), never as a delete
        action = (
            (f"לדלג על {counted}" if he else f"skip {counted}")
            if skips
            else _items_action(step, len(items), language, timezone)
        )
        lines = []
        for c in items:
            number += 1
            described = _described(c, language)
            lines.append(f"{number}. {quote(shorten(c.label, 60), language)}{described}")
        blocks.append(f"{action}:\n" + "\n".join(lines))
    body = "\n".join(blocks)
    head = _approval_head(language, reason)
    if he:
        ask = (
            "לאשר את הכול או לדחות?"
            if along
            else "לאשר את הכול, לדחות, או להשאיר רק חלק (למשל „רק 1” או „חוץ מ-2”)?"
        )
        return f"{head}: אני עומד:\n{body}\n{along_line(along, language)}{ask}"
    ask = (
        "Approve all of it, or reject?"
        if along
        else 'Approve all of it, reject, or keep only some (e.g. "only 1" or "not 2")?'
    )
    return f"{head}: I'm about to:\n{body}\n{along_line(along, language)}{ask}"
