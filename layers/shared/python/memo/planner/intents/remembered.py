""" "Remember ..." told to Memo in English: a note when the words hold what is to be kept, a reminder
when they name a time.

"remember the dose: 5ml twice a day", "remember: the plumber comes thursday", "remember my
passport number 12345678", "remember ur keys r in the blue bag": what is kept is a label and its
value (a colon), words set apart after the verb ("remember: ...", "remember, ..."), a fact told
("... is ...") or a number or a code. "Remember the meeting at 5pm tomorrow" is "remind me about
the meeting at 5pm tomorrow". "Remember my wifi password" holds nothing to keep: it is a question
about a note (`memo.planner.intents.notes.recall`), and "remember to call mom" is a reminder
(`memo.planner.intents.reminders`).
"""

from __future__ import annotations

import re

from memo.planner.base import PlannerInput
from memo.planner.intents import reminders
from memo.planner.intents.notes import as_typed, as_written
from memo.planner.lexicon import clean
from memo.planner.match import CONFIDENT, Match, says_when

_REMEMBER = re.compile(
    r"^(?:please\s+)?(?:remember|memori[sz]e|keep\s+in\s+mind)"
    r"(?P<apart>\s*[:,\-–]\s*|\s+)(?:that\s+)?(?P<text>\S.*?)\s*[.!]*$",
    re.I,
)
#: "remember to ...", "remember when ...": a reminder, or a question.
_NOT_KEPT = re.compile(r"^(?:to|me|when|what|where|who|whom|how|which|why|if|whether|the\s+time)\b", re.I)
#: A request after the verb: "remember, remind me ...", "remember: delete ...".
_A_COMMAND = re.compile(
    r"^(?:remind|delete|remove|add|cancel|move|show|list|set|create|make|change|put|take|clear|snooze|rename|"
    r"save|note|write|tell|send)\b",
    re.I,
)
#: A label and its value: "the dose: 5ml", "wifi password: Blue2024", "where I parked: level 3".
_LABELLED = re.compile(r"^[^:?]{1,40}:\s*\S")
#: A fact told: "your keys are in the blue bag", "mom's size is 38".
_A_FACT = re.compile(r"^\S.{0,60}?\s(?:is|are|was|were)\s+(?!(?:what|where|when|who|which)\b)\S", re.I)
#: A number or a code: "12345678", "B12", "LY315", "054-1234567".
_A_NUMBER = re.compile(r"\d")


def remembered(text: str, inp: PlannerInput) -> Match | None:
    match = _REMEMBER.match(text)
    if match is None or text.rstrip().endswith("?") or inp.message.rstrip().endswith("?"):
        return None
    body = clean(match.group("text"))
    if _A_COMMAND.match(body):
        return None  # "remember, remind me to call mom at 5": that request (`memo.planner.rules`)
    kept = bool(_LABELLED.match(body)) or bool(match.group("apart").strip()) or bool(_A_FACT.match(body))
    if not kept and not _NOT_KEPT.match(body) and says_when(body, inp):
        # "remember the meeting at 5pm tomorrow": what "remind me about the meeting at 5pm" is.
        return reminders.create(f"remind me about {body}", inp)
    if not kept and (_NOT_KEPT.match(body) or not _A_NUMBER.search(body)):
        return None
    return Match(
        capability="notes",
        action="save",
        confidence=CONFIDENT,
        risk="low",
        constraints={},
        changes={"text": as_written(as_typed(body, inp), inp)},
        pattern="notes:save",
    )
