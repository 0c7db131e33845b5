"""Small talk and questions about Memo: "hi", "thanks!", "how are you?", "what can you do".

The words come from the one small-talk lexicon, `memo.conversation.smalltalk`, so what the planner
calls conversation the small-talk responder recognises too. `chat` takes whole messages only (so
"hi, remind me to call mom" stays a command); `small_talk` is the planner's last resort before
intent_unclear and accepts what the responder's `classify` accepts.
"""

from __future__ import annotations

import re

from memo.conversation import errands, smalltalk
from memo.conversation.smalltalk import (
    ADDRESSEES,
    CLOCK,
    GREETINGS,
    HE_OPENING_QUESTIONS,
    HOW_ARE_YOU,
    IDENTITY,
    THANKS,
    THANKS_LEADS,
    THANKS_TAILS,
    TIMEZONE_ASKED,
)
from memo.planner.base import PlannerInput, PlannerResult
from memo.planner.lexicon import clean
from memo.planner.match import Match, unclear
from memo.planner.normalize import strip_pleasantries

_OPENERS = "|".join((GREETINGS.any, *HE_OPENING_QUESTIONS))
_GREETING = re.compile(
    rf"^(?:{_OPENERS})(?:\s+(?:{ADDRESSEES.any}|{'|'.join(HE_OPENING_QUESTIONS)}))*"
    rf"(?:\s*[,!.?]*\s*(?:{HOW_ARE_YOU.any}))?$",
    re.I,
)
_HOW_ARE_YOU = re.compile(rf"^(?:{HOW_ARE_YOU.any})$", re.I)
_THANKS = re.compile(
    rf"^(?:(?:{THANKS_LEADS.any})[,!. ]*)?(?:{THANKS.any})(?:\s+(?:{THANKS_TAILS.any}))*$",
    re.I,
)
#: "what can you do", and "what can you do for me", "מה אתה יכול לעשות בשבילי"
_HELP = re.compile(rf"^(?:{IDENTITY.any})(?:\s+(?:for\s+me|to\s+help(?:\s+me)?|בשבילי))?$", re.I)


def chat(text: str, inp: PlannerInput) -> Match | None:
    """A message that is only a greeting, "how are you", thanks or a question about Memo."""
    bare = clean(text).lower()
    for pattern, kind, intent in (
        (TIMEZONE_ASKED, "timezone", "conversation"),
        (CLOCK, "clock", "conversation"),
        (_HELP, "help", "meta"),
        (_GREETING, "greeting", "conversation"),
        (_HOW_ARE_YOU, "smalltalk", "conversation"),
        (_THANKS, "thanks", "conversation"),
    ):
        if pattern.match(bare):
            return Match(
                capability="general",
                action="reply",
                confidence=0.95,
                risk="low",
                constraints={"kind": kind},
                intent=intent,  # type: ignore[arg-type]
                pattern=f"conversation:{kind}",
            )
    return None


#: The most words before a closing thank-you that may still be only thanks ("ok great, that's all").
_THANKS_BESIDE = 3


def small_talk(text: str) -> Match | None:
    """Last resort before intent_unclear: what the conversation responder recognises as small talk
    ("hi there", "bye", "see you later", ...), so the planner and the responder agree."""
    kind = smalltalk.classify(text)
    if kind is None:
        return None
    before_thanks = strip_pleasantries(text)
    if kind == "thanks" and before_thanks != text and len(before_thanks.split()) > _THANKS_BESIDE:
        # "could you sort out my week? thank you": a request not understood, with thanks after it;
        # "You're welcome!" would say it was done.
        return None
    return Match(
        capability="general",
        action="reply",
        confidence=0.9,
        risk="low",
        constraints={"kind": kind},
        intent="meta" if kind == "identity" else "conversation",
        pattern=f"smalltalk:{kind}",
    )


def out_of_scope(text: str, inp: PlannerInput) -> PlannerResult | None:
    """ "book me a table for 2 at 8 tonight": an errand Memo cannot do, never a reminder: not
    understood as a request of Memo's (intent_unclear, answered with what Memo can do); "remind me to
    book a table" is a reminder (`reminders.create` is tried first)."""
    if errands.errand(clean(text)) is None:
        return None
    return unclear(text)
