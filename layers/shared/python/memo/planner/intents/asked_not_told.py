"""Questions that carry a command's words, answered as questions: "did I add milk?", "is milk on my
list?" (the list is shown), "did you remind me to call mom?" (the reminders about it), "how do I delete
a reminder?", "can you set reminders in Hebrew?" (what Memo does). "Did I add milk?" put milk on the
shopping list, and "how do I delete a reminder" looked for a reminder named "a": a question never
changes anything.
"""

from __future__ import annotations

import re

from memo.capabilities.lists import UNNAMED_LIST
from memo.planner.base import PlannerInput
from memo.planner.intents.daily import listing
from memo.planner.intents.list_words import list_name, unnamed
from memo.planner.lexicon import as_title, clean
from memo.planner.match import CONFIDENT, Match, says_when

#: "did I add milk?", "have we put eggs on the shopping list yet?"
_DID_I_ADD = re.compile(
    r"^(?:did|have|has)\s+(?:i|we|you|he|she)\s+(?:already\s+)?(?:add(?:ed)?|put)\s+(?P<thing>\S.*?)"
    r"(?:\s+(?:to|on|in)\s+(?:my|the|our)\s+(?P<list>[\w\-' ]{1,30}?)(?:\s+list)?)?(?:\s+(?:yet|already))?\s*\??$",
    re.I,
)
#: "is milk on my list?", "are eggs on the shopping list already?"
_ON_THE_LIST = re.compile(
    r"^(?:is|are)\s+(?:the\s+)?(?P<thing>\S.*?)\s+(?:on|in)\s+(?:my|the|our)\s+(?P<list>[\w\-' ]{1,30}?)"
    r"(?:\s+list)?(?:\s+(?:already|still|yet))?\s*\??$",
    re.I,
)
#: "יש חלב ברשימת הקניות?", "האם חלב ברשימה?", "הוספתי חלב?": asked (a "?") whether a thing is on a list.
_ON_THE_LIST_HE = re.compile(
    r"^(?!(?:כמה|מה|איזה|אילו|מי|למה|איך)(?:\s|$))(?:האם\s+)?(?:(?:יש|נמצא|נמצאים)\s+)?(?P<thing>\S.*?)\s+ב(?:רשימת\s+(?P<list>\S+)|רשימה)(?:\s+(?:כבר|עדיין))?$"
    r"|^(?:האם\s+)?(?:הוספתי|הוספת|הוספנו|שמתי|רשמתי)\s+(?:את\s+)?(?P<thing_added>\S.*?)"
    r"(?:\s+ל(?:רשימת\s+(?P<list_added>\S+)|רשימה))?(?:\s+(?:כבר|עדיין))?$"
)
#: "did you remind me to call mom?", "did I ask you to remind me about the dentist", "is the dentist
#: reminder still on?"
_REMINDED = re.compile(
    r"^(?:did|have)\s+you\s+(?:already\s+)?remind(?:ed)?\s+me\s+(?:to|about|of)\s+(?P<a>\S.*?)\s*\??$"
    r"|^(?:did|have)\s+i\s+(?:ask(?:ed)?|tell|told)\s+you\s+to\s+remind\s+me\s+(?:to|about|of)\s+(?P<b>\S.*?)\s*\??$"
    r"|^is\s+(?:the|my)\s+(?P<c>\S.*?)\s+reminder\s+(?:still\s+)?(?:on|set|there|active)\s*\??$",
    re.I,
)
#: "how do I delete a reminder?", "why did you remind me", "איך מוחקים תזכורת?": about Memo.
_HOW_OR_WHY = re.compile(
    r"^(?:how\s+(?:do|can|should|would)\s+(?:i|we|you)|how\s+to|why\s+(?:did|do|does|would)\s+you)\b"
    r"|^(?:איך|למה)\s+(?:אני\s+|אפשר\s+|עושים\s+)?(?:מוחקים|מוסיפים|קובעים|משנים|הזכרת|מוחק|מוסיף|קובע|משנה|למחוק|"
    r"להוסיף|לקבוע|לשנות)(?=\s|$)",
    re.I,
)
#: "can you set reminders in hebrew?", "אתה יכול להזכיר לי דברים?": asked (a "?"), of things in general.
_CAN_YOU = re.compile(
    r"^(?:can|could|do|will|would)\s+you\s+(?:(?!(?:my|our|all|the|these|those|every|his|her|their)\s)\w+\s+){1,3}?"
    r"(?:reminders?|notes?|lists?|things|stuff|me)"
    r"(?:\s+(?:in|on)\s+\w+)?$"
    r"|^(?:אתה|את)\s+(?:יכול|יכולה|יודע|יודעת)\s+ל\S+(?:\s+לי)?\s+(?:דברים|תזכורות|פתקים|רשימות|משהו)(?:\s+ב\S+)?$",
    re.I,
)
#: The same of things in no way one thing ("can you remind me of stuff", "can you set reminders",
#: "אתה יכול להזכיר לי דברים"): asked, with or without a "?"; no reminder is ever titled "stuff".
_CAN_YOU_THINGS = re.compile(
    r"(?:\bthings|\bstuff|\breminders|\bnotes|\blists|(?<!\S)(?:דברים|תזכורות|פתקים|רשימות))(?:\s+(?:in|on)\s+\w+|\s+ב\S+)?$",
    re.I,
)


def asked_not_told(text: str, inp: PlannerInput) -> Match | None:
    said = clean(text)
    asked = inp.message.rstrip().endswith("?")
    can_you = _CAN_YOU.match(said) and (asked or _CAN_YOU_THINGS.search(said))
    if (_HOW_OR_WHY.search(said) or can_you) and not says_when(said, inp):
        return Match(
            capability="general",
            action="reply",
            confidence=CONFIDENT,
            risk="low",
            constraints={"kind": "help"},
            intent="meta",
            pattern="general:asked_about_memo",
        )
    on_list = (
        _DID_I_ADD.match(said) or _ON_THE_LIST.match(said) or (asked and _ON_THE_LIST_HE.match(said)) or None
    )
    if on_list is not None:
        name = on_list.groupdict().get("list") or on_list.groupdict().get("list_added")
        name = None if name is None or name.lower() in ("list", "lists") else name
        return Match(
            capability="lists",
            action="show",
            confidence=CONFIDENT,
            risk="low",
            constraints={"listName": UNNAMED_LIST if unnamed(name) else list_name(name or "")},
            pattern="lists:asked_on_list",
        )
    reminded = _REMINDED.match(said)
    if reminded is not None and not says_when(said, inp):
        about = as_title(reminded.group("a") or reminded.group("b") or reminded.group("c") or "")
        return listing({"about": about}, "reminders:asked_reminded") if about else None
    return None
