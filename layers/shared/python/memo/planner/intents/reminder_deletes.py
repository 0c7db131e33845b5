"""Deleting reminders: one ("delete the X reminder"), some or all of them ("delete my reminders for
tomorrow", "delete all notes"), or every time of one ("stop reminding me about X"); a skip of some
of its times is `memo.planner.intents.reminder_skips`."""

from __future__ import annotations

import re

from memo.domain import Capability
from memo.planner.base import PlannerInput
from memo.planner.intents.reminder_changes import scope_of, strip_scope
from memo.planner.intents.reminder_queries import days_named
from memo.planner.lexicon import (
    DELETE_EN,
    DELETE_HE,
    FORGET_EN,
    NOTE_EN,
    NOTE_HE,
    REMINDER_EN,
    REMINDER_HE,
    clean,
    limit_of,
    the_one_named,
)
from memo.planner.match import CONFIDENT, Match, latest_action, target_constraints

_RE_DELETE_ALL = (
    re.compile(
        rf"^(?:{DELETE_EN})\s+(?:all|every|each|everything)(?:\s+of)?(?:\s+(?:my|the))?\s+(?P<what>{REMINDER_EN}|{NOTE_EN})\b",
        re.I,
    ),
    re.compile(r"^(?:clear|wipe)\s+(?:out\s+)?(?:my|the|all)\s+(?P<what>reminders|notes)\b", re.I),
    re.compile(
        rf"^(?:{DELETE_HE})\s+(?:לי\s+)?(?:את\s+)?(?:כל|כול)\s+(?P<what>{REMINDER_HE}|{NOTE_HE})",
    ),
    re.compile(r"^(?:תנקה|נקה|לנקות)\s+(?:לי\s+)?(?:את\s+)?(?P<what>התזכורות|הפתקים|ההערות)"),
)


def _what_capability(word: str) -> Capability:
    return "reminders" if re.search(r"remind|תזכור", word, re.I) else "notes"


def delete_all(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_DELETE_ALL:
        match = pattern.search(text)
        if match:
            return Match(
                capability=_what_capability(match.group("what")),
                action="delete_all",
                confidence=CONFIDENT,
                risk="high",
                # "... except call mom", "... for tomorrow": never all of them.
                constraints=dict(limit_of(text[match.end() :])),
                needs_approval=True,
                pattern="delete_all",
            )
    return None


#: "delete everything", "clear it all", "תמחק הכל": no kind of thing named.
_RE_EVERYTHING = re.compile(
    rf"^(?:{DELETE_EN})\s+(?:out\s+)?(?:everything|all|it\s+all|all\s+of\s+it|the\s+lot)(?:\s+(?:please|now))?\s*[.!]*$"
    rf"|^(?:{DELETE_HE}|תנקה|תנקי|נקה|תוריד|תורידי)\s+(?:לי\s+)?(?:את\s+)?(?:הכל|הכול|כל\s+הדברים)(?:\s+בבקשה)?\s*[.!]*$",
    re.I,
)


def everything(text: str, inp: PlannerInput) -> Match | None:
    """ "delete everything" names no kind of thing: right after items went on a list (the latest
    action), that list is cleared; otherwise all the reminders. Either way the approval lists each thing it deletes
    before anything goes, so nothing unseen is deleted (notes and other lists are never touched)."""
    if _RE_EVERYTHING.match(text.strip()) is None:
        return None
    latest = inp.latest_actions[0] if inp.latest_actions else None
    key = (latest.external_ids or {}).get("listKey") if latest is not None else None
    if (
        latest is not None
        and (latest.capability, latest.action) == ("lists", "add")
        and isinstance(key, str)
        and key
    ):
        return Match(
            capability="lists",
            action="clear",
            confidence=CONFIDENT,
            risk="high",
            constraints={"listName": key},
            needs_approval=True,
            pattern="lists:clear",
        )
    return Match(
        capability="reminders",
        action="delete_all",
        confidence=CONFIDENT,
        risk="high",
        constraints={},
        needs_approval=True,
        pattern="delete_all",
    )


#: "delete my reminders for tomorrow", "cancel tomorrow's reminders", "delete both reminders about
#: mom", "delete my notes about work", "תמחק את התזכורות של מחר": the plural with words that pick
#: some out, a "delete all" limited to them (each shown in the approval, none run unshown).
_RE_DELETE_SOME = (
    re.compile(
        rf"^(?:{DELETE_EN})\s+(?:both\s+(?:of\s+)?)?(?:all\s+(?:of\s+)?)?(?:(?:my|the|those|these)\s+)?"
        r"(?:(?P<pre>[\w'’-]+(?:'s|’s))\s+)?(?P<what>reminders|notes|memos)\b(?P<tail>.*)$",
        re.I,
    ),
    re.compile(
        r"^(?:תמחק|תמחקי|מחק|תבטל|תבטלי|בטל|תסיר|תסירי)\s+(?:לי\s+)?(?:את\s+)?(?P<what>התזכורות|הפתקים|ההערות)(?P<tail>(?:\s.*)?)$"
    ),
)

#: The constraint of a delete whose scope is broad and unstated ("delete my reminders", "תמחק את
#: התזכורות שלי": neither "all" nor words that pick some out): which of them is asked first when
#: several match (HITL reason `ambiguous_scope`), and the answer states it.
SCOPE_UNSTATED = "scopeUnstated"
#: What may follow the plural and still say nothing of which ones.
_NO_SCOPE = re.compile(r"^\s*(?:(?:please|pls|now|for\s+me|שלי|בבקשה|כבר|עכשיו)\s*)*[.!?]*\s*$", re.I)


def delete_some(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_DELETE_SOME:
        match = pattern.search(text)
        if match is None:
            continue
        pre = match.groupdict().get("pre")
        limit: dict[str, object] = {"only": pre} if pre else dict(limit_of(match.group("tail")))
        if not limit and _NO_SCOPE.match(match.group("tail")):
            # "delete my reminders": all of them, or which ones, is asked once they are found.
            limit = {SCOPE_UNSTATED: True}
        if not limit:
            return None  # "delete reminders call mom": a name, read by `delete`
        return Match(
            capability=_what_capability(match.group("what")),
            action="delete_all",
            confidence=CONFIDENT,
            risk="high",
            constraints=dict(limit),
            needs_approval=True,
            pattern="delete_all",
        )
    return None


#: Words that delete a reminder named as one ("scrap the gym reminder"): no list item or note is.
_SCRAP = r"scrap|ditch|nix|trash|kill|bin"
_PLURAL_NOUN = re.compile(r"\breminders\b|\bnotes\b|תזכורות|פתקים", re.I)

_RE_REMINDER_DELETE = (
    re.compile(
        rf"^(?:{DELETE_EN}|{FORGET_EN})\s+(?:the\s+|my\s+|that\s+|this\s+)?{REMINDER_EN}\b\s*(?P<target>.*)$",
        re.I,
    ),
    re.compile(
        rf"^(?:{DELETE_EN}|{FORGET_EN}|{_SCRAP})\s+(?:the\s+|my\s+)?(?P<target>.+?)\s+{REMINDER_EN}\b\s*$",
        re.I,
    ),
    re.compile(rf"^(?:{DELETE_HE})\s+(?:לי\s+)?(?:את\s+)?{REMINDER_HE}\s*(?P<target>.*)$"),
    # "i don't need the dentist reminder anymore", "אני לא צריך את התזכורת של הרופא יותר"
    re.compile(
        rf"^i\s+(?:don'?t|do\s+not|no\s+longer)\s+need\s+(?:the\s+|my\s+|that\s+)?(?P<target>.+?)\s+{REMINDER_EN}\b"
        r"(?:\s+(?:anymore|any\s+more))?\s*[.!]*$",
        re.I,
    ),
    re.compile(
        rf"^אני\s+(?:כבר\s+)?לא\s+(?:צריך|צריכה)\s+(?:את\s+)?{REMINDER_HE}\s*(?P<target>.*?)(?:\s+(?:יותר|כבר))?\s*$"
    ),
)


#: "stop reminding me about vitamins", "don't remind me to stretch anymore", "תפסיק להזכיר לי על
#: הוויטמינים": that reminder deleted, every time of it (a series as a whole).
_RE_STOP_REMINDING = (
    re.compile(
        r"^(?:stop|quit|no\s+more)\s+remind(?:ing)?\s+me\s+(?:about\s+|to\s+|of\s+)?(?P<target>.+?)(?:\s+(?:anymore|any\s+more))?\s*[.!]*$",
        re.I,
    ),
    re.compile(
        # "don't remind me about the gym (anymore)": its days said, a skip (`reminder_skips`).
        r"^(?:don'?t|do\s+not|no\s+need\s+to)\s+remind\s+me\s+(?:about\s+|to\s+|of\s+)?(?P<target>.+?)(?:\s+(?:anymore|any\s+more|again))?\s*[.!]*$",
        re.I,
    ),
    re.compile(r"^(?:תפסיק|תפסיקי|די)\s+(?:להזכיר|לתזכר)\s+לי\s+(?:על\s+|ל)?(?P<target>.+?)\s*[.!]*$"),
    # "stop reminding me", "תפסיק להזכיר לי": no reminder named, so the one just set (asked for
    # approval), or which one is asked.
    re.compile(
        r"^(?:(?:stop|quit)\s+remind(?:ing)?\s+me|(?:תפסיק|תפסיקי)\s+(?:להזכיר|לתזכר)\s+לי)(?P<target>)"
        r"(?:\s+(?:anymore|any\s+more|please|already|כבר|בבקשה))?\s*[.!]*$",
        re.I,
    ),
    # "stop the plant reminders", "turn off my vitamins reminder", "stop the reminder about the gym"
    re.compile(
        rf"^(?:stop|end|turn\s+off|switch\s+off)\s+(?:the\s+|my\s+|that\s+|this\s+)?(?P<target>.+?)\s+{REMINDER_EN}\s*[.!]*$",
        re.I,
    ),
    re.compile(
        rf"^(?:stop|end|turn\s+off|switch\s+off)\s+(?:the\s+|my\s+)?{REMINDER_EN}\s+(?:about|for|to|of)\s+(?P<target>.+?)\s*[.!]*$",
        re.I,
    ),
    re.compile(
        rf"^(?:תפסיק|תפסיקי|תכבה|תכבי)\s+(?:לי\s+)?(?:את\s+)?{REMINDER_HE}\s+(?:של\s+|על\s+|ל)?(?P<target>.+?)\s*[.!]*$"
    ),
    re.compile(r"^אל\s+(?:תזכיר|תזכירי)\s+לי\s+(?:יותר\s+)?(?:על\s+|ל)?(?P<target>.+?)(?:\s+יותר)?\s*[.!]*$"),
)


def stop_reminding(text: str, inp: PlannerInput) -> Match | None:
    for pattern in _RE_STOP_REMINDING:
        match = pattern.search(text)
        if match and match.group("target") and days_named(match.group("target"), inp)[0]:
            return None  # "אל תזכיר לי על החדר כושר בשבוע הבא": those days only (`reminder_skips`)
        if match:
            constraints, missing, confidence = target_constraints(match.group("target"), inp, "reminders")
            latest = latest_action(inp)
            if not match.group("target") and (
                latest is None or latest.capability != "reminders" or latest.action.startswith("delete")
            ):
                # "stop reminding me" with something else just done (or a reminder just deleted):
                # which reminder is asked.
                constraints, missing, confidence = {}, ("target_unclear",), CONFIDENT
            return Match(
                capability="reminders",
                action="delete",
                confidence=confidence,
                risk="high",
                constraints={**constraints, "scope": "series"},
                missing=missing,
                pattern="reminders:delete",
            )
    return None


#: Where one delete names several reminders: "the bank and dad reminders" (a plural with "and"),
#: "the call bank reminder and the call dad reminder", "X, Y and Z reminders", Hebrew "את X ואת Y".
#: A bare "and" inside a singular name is part of it ("the call mom and dad reminder": one title).
_NEXT_NAMED_EN = re.compile(
    rf"\s+{REMINDER_EN}\s*(?:,|\band\b|&)\s*(?:the\s+|my\s+)?(?:one\s+)?(?:(?:for|to|about)\s+)?"
    r"|\s*(?:,|\band\b|&)\s*(?:the|my)\s+(?:one\s+)?(?:(?:for|to|about)\s+)?",
    re.I,
)
_NEXT_NAMED_PLURAL_EN = re.compile(r"\s*(?:,|\band\b|&)\s*", re.I)
_NEXT_NAMED_HE = re.compile(
    rf"\s+ו(?:גם\s+)?(?:את\s+(?:{REMINDER_HE}\s+|זו\s+|זאת\s+|זה\s+|ה?אחת\s+)?(?:של\s+|על\s+)?|של\s+|על\s+)"
)
_AND_THE_ONE = re.compile(rf"(\b{REMINDER_EN}\s+and\s+(?:the|my)\s+.+?)\s+one\s*$", re.I)
_BOTH = re.compile(
    r"^(?:both|all)\s+(?:of\s+)?(?:the\s+|my\s+)?(?P<name>.+)$|^(?:שתי|שני)\s+(?P<he>.+)$", re.I
)
_LEFTOVER_HE = re.compile(rf"^(?:את\s+)?(?:{REMINDER_HE}\s+)?(?:של\s+|על\s+)?")


def several_named(target: str, *, plural: bool) -> list[str]:
    """The names of a delete that names several reminders (see above), or [] for one."""
    if re.search(r"[א-ת]", target):
        parts = _NEXT_NAMED_HE.split(target)
        parts = [_LEFTOVER_HE.sub("", part) for part in parts]
    else:
        parts = (_NEXT_NAMED_PLURAL_EN if plural else _NEXT_NAMED_EN).split(target)
        parts = [re.sub(rf"\s+{REMINDER_EN}$", "", part, flags=re.I) for part in parts]
    names = [clean(part).strip(" ,;:-") for part in parts]
    return [name for name in names if name] if len(names) > 1 and all(names) else []


def several(names: list[str], text: str, scope: dict[str, object]) -> Match:
    """One delete of several named reminders: each found and shown in one approval, or asked."""
    hebrew = bool(re.search(r"[א-ת]", text))
    joined = " ו".join(names) if hebrew else " and ".join(names)
    return Match(
        capability="reminders",
        action="delete_all",
        confidence=CONFIDENT,
        risk="high",
        constraints={"only": joined, **scope},
        needs_approval=True,
        pattern="delete_all",
    )


def delete(text: str, inp: PlannerInput) -> Match | None:
    scope = scope_of(text)
    core = strip_scope(text) if scope else text
    core = _AND_THE_ONE.sub(r"\1 reminder", core)  # "the X reminder and the Y one"
    for pattern in _RE_REMINDER_DELETE:
        match = pattern.search(core)
        if match:
            target = strip_scope(match.group("target"))
            named = several_named(target, plural=bool(_PLURAL_NOUN.search(match.group(0))))
            both = _BOTH.match(target)
            if both is not None:
                named = [
                    both.group("name") or both.group("he")
                ]  # "both grandma reminders": every one of that name
            if named:
                return several(named, text, scope)
            target_words = the_one_named(strip_scope(match.group("target")))
            constraints, missing, confidence = target_constraints(target_words, inp, "reminders")
            if _PLURAL_NOUN.search(match.group(0)):
                constraints = {**constraints, "plural": True}  # "the call reminders": maybe several
            constraints = {**constraints, **scope}
            return Match(
                capability="reminders",
                action="delete",
                confidence=confidence,
                risk="high",
                constraints=constraints,
                missing=missing,
                pattern="reminders:delete",
            )
    return None
