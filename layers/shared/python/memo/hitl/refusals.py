"""What a "no" to an approval says beside the refusal: a reason to note ("no, I still need them"),
or the part of the items it would keep ("no, only tomorrow's", read by `memo.hitl.narrowing`)."""

from __future__ import annotations

import re

from memo.domain import PlanStep
from memo.hitl import fastpath
from memo.hitl.transitions import RAW_LOG_LIMIT

_REJECT_LEAD = re.compile(
    # "wait, no, only 1", "רגע לא, רק את הראשונה": a second thought before the no is no word of its own
    r"^(?:(?:wait|hmm+|oh|actually|sorry|רגע|בעצם|אה|סליחה)\b[\s,.!]*)*"
    r"(?:no|nope|nah|reject(?:ed)?|don'?t|do not|לא|דחייה|תדחה|תדחי|אל תעשה|אל תעשי)\b[\s,.:;!-]*"
    r"(?:because|since|as|cause|'cause|כי|מכיוון ש|בגלל ש)?\s*",
    re.I,
)


_ONLY_THE_THING = frozenset(
    {"it", "that", "this", "them", "this one", "that one", "all", "all of it", "אותו", "את זה"}
)
#: "no, don't delete", "לא למחוק": the action refused, said again; no reason.
_ACTION_ALONE = re.compile(
    r"^(?:(?:do\s+it|delete|remove|erase|clear|cancel|go\s+ahead|למחוק|תמחק|להוריד|לבטל|לנקות)"
    r"(?:\s+(?:it|them|that|anything|any|אותם|אותן|את\s+זה|כלום))?)$",
    re.I,
)
#: "no wait, ...", "no actually ...", "לא רגע, ...": a second thought follows, not a reason.
_SECOND_THOUGHT = re.compile(
    r"^(?:wait|hold\s+on|actually|hmm+|oh|sorry|oops|רגע|בעצם|אה|סליחה)"
    r"(?:\s*[,.!:;-]|\s*$|\s+(?:the|just|only|i\s+mean|make|את|רק|תעשה))",
    re.I,
)
_THANKS = re.compile(r"^(?:thanks|thank\s+you|thx|ty|תודה(?:\s+רבה)?)(?:\s+anyway)?$", re.I)


def rejection_reason(raw: str) -> str | None:
    """The reason a rejection gives ("no, I still need them" -> "I still need them"), if any."""
    match = _REJECT_LEAD.match(raw.strip())
    if match is None:
        return None
    reason = raw.strip()[match.end() :].strip(" .,!")
    again = _REJECT_LEAD.match(reason)
    if again is not None:  # "no, reject", "no no, don't": a second refusal, no reason
        reason = reason[again.end() :].strip(" .,!")
    # "no, cancel it", "no thanks", "לא, עזוב": the refusal said again in other words.
    if not reason or fastpath.parse_yes_no(reason) is not None or fastpath.is_way_out(reason):
        return None
    if _SECOND_THOUGHT.match(reason):
        return None  # "no wait, the whole thing": a change of mind, not why
    if _THANKS.match(reason) or reason.lower() in _ONLY_THE_THING or _ACTION_ALONE.match(reason):
        return None
    return reason[:RAW_LOG_LIMIT]


def refusal_rest(raw: str) -> str:
    """The words after a refusal's lead ("no, only 1" -> "only 1"); "" when it does not open with one."""
    lead = _REJECT_LEAD.match(raw.strip())
    return raw.strip()[lead.end() :] if lead is not None else ""


_NEW = frozenset({"create", "add", "save"})  # the actions that make a new item
#: "actually delete that", "scratch the reminder", "בעצם תמחק את זה": said to a question that asks
#: what a new item still needs ("When should I remind you?"), the item is dropped.
_DROPPED = re.compile(
    r"^(?:(?:actually|no|nah|oh|wait|hmm+|בעצם|לא|רגע|אה)\b[\s,.!]*)*"
    r"(?:(?:just\s+)?(?:delete|remove|erase|drop|scratch|cancel)\s+(?:it|that|this|that\s+one|this\s+one|"
    r"the\s+(?:reminder|note|request))"
    r"|(?:תמחק|תמחקי|מחק|תוריד|תורידי|תבטל|תבטלי)\s+(?:את\s+זה|אותו|אותה|את\s+התזכורת|את\s+הבקשה))[.!]*$",
    re.I,
)


def drops_the_new_item(raw: str, step: PlanStep | None) -> bool:
    """Whether an answer to "what does the new item still need?" (of a `step` that makes a new
    item) drops the item instead. Said of a delete ("delete it" to "which one?") it is no drop."""
    return step is not None and step.action in _NEW and _DROPPED.match(raw.strip()) is not None
