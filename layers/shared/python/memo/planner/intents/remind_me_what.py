""" "Remind me what I have on monday", "remind me where I parked", "תזכיר לי מה יש לי מחר": a question
asked with "remind me". When it names no time it is that question, and only read: what is on a day,
on a list, in a note.

"Remind me at 5 what to buy" names a time and "remind me tomorrow what to bring" a day before the
question: reminders (`memo.planner.intents.reminders`). "Remind me what to bring" is one too (an
infinitive: something to do), and so is a question nothing here can answer ("remind me who called"):
Memo asks when, as for any reminder without a time.
"""

from __future__ import annotations

import re

from memo.planner.base import PlannerInput
from memo.planner.intents import daily, list_queries, notes, reminder_queries, unconnected
from memo.planner.lexicon import clean
from memo.planner.match import Match, parse_when

_ASKED_EN = re.compile(
    r"^(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+)?remind\s+me\s+(?:again\s+)?"
    r"(?:(?P<wh>what\s+time|what(?:'s|’s)?|where(?:'s|’s)?|which|how\s+many)\s+(?P<rest>\S.*?)"
    r"|(?:of|about)\s+(?P<own>(?:all\s+)?(?:my|the)\s+(?:reminders|agenda|schedule|notes|(?:\w+\s+)?list)\b.*?))"
    r"\s*[?.!]*$",
    re.I,
)
_ASKED_HE = re.compile(
    r"^(?:תזכיר|תזכירי|תזכרי|הזכר)\s+לי\s+(?:שוב\s+)?(?P<wh>מה|איפה|אילו|איזה|כמה)\s+(?P<rest>\S.*?)\s*[?.!]*$"
)
#: "... to bring": something to do, a reminder.
_TO_DO = re.compile(r"^to\s", re.I)
#: "what the wifi password is": the question's verb comes last.
_VERB_LAST = re.compile(r"^(?P<subject>\S.*?)\s+(?P<be>is|are|was|were)$", re.I)
#: "what I have", "where I parked": the question is asked with "do" or "did".
_I_DID = re.compile(r"^(?P<who>i|we)\s+(?P<verb>\w+)\b(?P<rest>.*)$", re.I)
#: The verbs a question about what was said or kept asks in the past, by their present form.
_PAST = {
    "asked": "ask",
    "told": "tell",
    "said": "say",
    "noted": "note",
    "wrote": "write",
    "saved": "save",
    "jotted": "jot",
    "parked": "park",
    "put": "put",
    "left": "leave",
    "hid": "hide",
    "kept": "keep",
    "stored": "store",
    "set": "set",
    "made": "make",
    "added": "add",
}

#: Questions that only read, in the order the planner tries them.
_READS = (
    reminder_queries.show,
    reminder_queries.next_ones,
    reminder_queries.when_is,
    daily.agenda,
    list_queries.show,
    notes.where,
    notes.search,
    notes.recall,
    unconnected.calendar,
)


def remind_me_what(text: str, inp: PlannerInput) -> Match | None:
    question = _question(text)
    if question is None or _names_a_time(text, inp):
        return None
    for read in _READS:
        found = read(question, inp)
        if isinstance(found, Match):
            return found
    return None


def _question(text: str) -> str | None:
    """The question "remind me ..." asks, in the words it is asked with; None: not one."""
    hebrew = _ASKED_HE.match(text)
    if hebrew is not None:
        return f"{hebrew.group('wh')} {hebrew.group('rest')}"
    asked = _ASKED_EN.match(clean(text))
    if asked is None:
        return None
    if asked.group("own"):
        return f"show {asked.group('own')}"
    wh, rest = asked.group("wh").lower(), asked.group("rest")
    if _TO_DO.match(rest):
        return None
    if wh.endswith(("'s", "’s")):
        return f"{wh} {rest}"  # "what's on my list": asked in the question's order already
    verb_last = _VERB_LAST.match(rest)
    if verb_last is not None:
        return f"{wh} {verb_last.group('be')} {verb_last.group('subject')}"
    did = _I_DID.match(rest)
    if did is not None:
        verb = did.group("verb").lower()
        aux, verb = ("did", _PAST[verb]) if verb in _PAST else ("do", verb)
        return f"{wh} {aux} {did.group('who')} {verb}{did.group('rest')}"
    return f"{wh} {rest}"


def _names_a_time(text: str, inp: PlannerInput) -> bool:
    when = parse_when(text, inp)
    return when.when is not None or when.recurrence is not None
