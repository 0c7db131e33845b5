"""The rule planner: deterministic English + Hebrew planning for Memo's core commands.

It is the planner with no OpenAI key and the fallback when the LLM planner fails. It never
imports `openai`. Matching is by patterns over verbs and nouns (not a fixed list of sentences),
dates and times are resolved in the user's timezone (`timeparse`), and referential follow-ups
("delete it", "move it to 6", "תמחק את זה") use the most recent `LatestAction`.

Confidence, risk and approval are set honestly:
- a complete, explicit command: confidence 0.9; a referential follow-up resolved from the latest
  action: 0.85; a guess (e.g. "delete X" with no noun and nothing matching): 0.55, so the HITL gate
  asks `low_confidence_plan`; nothing recognisable: 0.2 with `intent_unclear`.
- creates and reads are low risk, updates medium, deletes high; deleting everything (reminders,
  notes, a whole list) is high risk and needs approval.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from memo.conversation import smalltalk
from memo.domain import (
    Capability,
    IntentType,
    LatestAction,
    PlannerOutput,
    PlanStep,
    RiskLevel,
    RoutingSuggestion,
)
from memo.planner.base import PlannerInput, PlannerResult
from memo.planner.timeparse import ParsedWhen, extract_when

_I = re.IGNORECASE
_HEBREW = re.compile(r"[\u0590-\u05FF]")

CONFIDENT = 0.9
REFERENTIAL = 0.85
GUESS = 0.55
UNCLEAR = 0.2


def _has_hebrew(text: str) -> bool:
    return bool(_HEBREW.search(text))


def _clean(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text.strip(" \"'“”‘’.,!?;:-")


def _strip_lead(text: str, words: str) -> str:
    return _clean(re.sub(rf"^(?:{words})\s+", "", _clean(text), flags=_I))


_EN_TITLE_LEAD = r"to|about|that|for|of|re|regarding|called|named"
_HE_TITLE_LEAD = r"על|לגבי|בנושא|של"


_QUOTED = re.compile(r"[“\"„']([^”\"“']+)[”\"“']")


def _named_in(summary: str) -> str:
    """What a latest action's summary names ("reminder “call mom” for Mon 17:00" -> "call mom"), so a
    question about "it" reads naturally; the whole summary when nothing is quoted."""
    match = _QUOTED.search(summary)
    return match.group(1).strip() if match else summary


def _title(text: str) -> str:
    text = _strip_lead(text, _EN_TITLE_LEAD)
    text = _strip_lead(text, _HE_TITLE_LEAD)
    if text.startswith("ש") and len(text) > 3 and " " in text:
        text = text[1:]
    return _clean(text)


# --- lexicon --------------------------------------------------------------------------------

_POLITE_EN = (
    r"^(?:(?:hey|hi|ok|okay|so)\s+)?(?:memo[,:]?\s+)?(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+"
    r"(?:please\s+)?)?(?:please\s+)?(?:i\s+(?:want|need|would like)\s+(?:you\s+)?to\s+)?"
)
_POLITE_HE = r"^(?:(?:היי|הי|אהלן)\s+)?(?:בבקשה\s+)?(?:(?:אתה\s+)?(?:יכול|תוכל|יכולה|תוכלי)\s+(?:בבקשה\s+)?)?"

_DELETE_EN = r"delete|remove|cancel|erase|drop|get rid of|clear|wipe"
_DELETE_HE = r"תמחק|תמחקי|מחק|למחוק|תבטל|תבטלי|בטל|לבטל|תסיר|תסירי|הסר|להסיר|תנקה|נקה|לנקות"
_MOVE_EN = r"move|reschedule|push|postpone|delay|shift|change|update|set|make"
_MOVE_HE = r"תזיז|תזיזי|הזז|להזיז|תדחה|תדחי|דחה|לדחות|תעביר|תעבירי|העבר|להעביר|תשנה|תשני|שנה|לשנות|תקדים|הקדם"
_RENAME_EN = r"rename|retitle|call"
_REF_EN = r"it|that|this|that one|this one|the last one|the last|them"
_REF_HE = r"זה|זאת|אותו|אותה|אותם|אותן|את זה|את זאת|את האחרון|את האחרונה|האחרון|האחרונה"

_REMINDER_EN = r"reminders?"
_REMINDER_HE = r"ה?תזכור(?:ת|ות)"
_NOTE_EN = r"notes?|memos?"
_NOTE_HE = r"ה?(?:פתקים|פתק|הערות|הערה)"


@dataclass(frozen=True)
class _Plan:
    capability: Capability
    action: str
    confidence: float
    risk: RiskLevel
    constraints: dict[str, object]
    changes: dict[str, object] | None = None
    missing: tuple[str, ...] = ()
    needs_approval: bool = False
    intent: IntentType = "operation"
    pattern: str = ""


def _iso(when: datetime) -> str:
    return when.isoformat()


class RulePlanner:
    """Deterministic planner (English + Hebrew). Stateless; safe to share."""

    def plan(self, inp: PlannerInput) -> PlannerResult:
        if inp.clarification:
            # Re-plan after intent_unclear: the answer alone first, then with the original request.
            first = self._plan_text(inp.clarification, inp)
            if "intent_unclear" not in first.output.missing_fields:
                return first
            return self._plan_text(f"{inp.message} {inp.clarification}", inp)
        return self._plan_text(inp.message, inp)

    # -- internals --

    def _plan_text(self, message: str, inp: PlannerInput) -> PlannerResult:
        text = _clean(message)
        stripped = _clean(re.sub(_POLITE_HE, "", re.sub(_POLITE_EN, "", text, flags=_I)))
        matchers: tuple[Callable[[str, PlannerInput], _Plan | PlannerResult | None], ...] = (
            _conversation,
            _delete_all,
            _list_clear,
            _reminder_list,
            _reminder_create,
            _reminder_rename,
            _reminder_update,
            _reminder_delete,
            _list_add,
            _list_remove,
            _list_show,
            _note_delete,
            _note_search,
            _note_save,
            _calendar,
            _email,
            _referential,
            _noun_less_delete,
            _recall,
        )
        for matcher in matchers:
            found = matcher(stripped or text, inp)
            if isinstance(found, PlannerResult):
                return found
            if found is not None:
                return _result(found)
        small_talk = _small_talk(text)
        if small_talk is not None:
            return _result(small_talk)
        return _unclear(stripped or text)


def _small_talk(text: str) -> _Plan | None:
    """Last resort before intent_unclear: what the conversation responder recognises as small talk
    ("hi there", "bye", "see you later", ...), so the planner and the responder agree."""
    kind = smalltalk.classify(text)
    if kind is None:
        return None
    return _Plan(
        capability="general",
        action="reply",
        confidence=0.9,
        risk="low",
        constraints={"kind": kind},
        intent="meta" if kind == "identity" else "conversation",
        pattern=f"smalltalk:{kind}",
    )


def _result(found: _Plan) -> PlannerResult:
    steps = (
        []
        if found.capability == "general" and found.intent == "operation"
        else [
            PlanStep(
                id="s1",
                capability=found.capability,
                action=found.action,
                constraints=dict(found.constraints),
                changes=dict(found.changes or {}),
            )
        ]
    )
    output = PlannerOutput(
        intent_type=found.intent,
        confidence=found.confidence,
        risk_level=found.risk,
        needs_approval=found.needs_approval,
        missing_fields=list(found.missing),
        plan=steps,
    )
    suggestion = RoutingSuggestion(
        capability=found.capability,
        action=found.action,
        confidence=found.confidence,
        reason=found.pattern,
    )
    return PlannerResult(output=output, routing_suggestions=[suggestion], source="rules")


_HINTS: tuple[tuple[Capability, str, re.Pattern[str]], ...] = (
    ("reminders", "create", re.compile(r"remind|reminder|תזכ|alarm|don't forget|לא לשכוח", _I)),
    ("notes", "save", re.compile(r"\bnote|write down|פתק|רשום|תרשום|remember", _I)),
    ("lists", "add", re.compile(r"\blist\b|shopping|groceries|רשימ|קניות", _I)),
    ("calendar", "create_event", re.compile(r"calendar|meeting|appointment|יומן|פגיש", _I)),
    ("email", "send", re.compile(r"e-?mail|inbox|מייל", _I)),
)


def _unclear(text: str) -> PlannerResult:
    hints = [
        RoutingSuggestion(capability=cap, action=action, confidence=0.4, reason="keyword")
        for cap, action, pattern in _HINTS
        if pattern.search(text)
    ]
    output = PlannerOutput(
        intent_type="operation",
        confidence=UNCLEAR,
        risk_level="low",
        needs_approval=False,
        missing_fields=["intent_unclear"],
        plan=[],
    )
    return PlannerResult(output=output, routing_suggestions=hints, source="rules")


def _when(text: str, inp: PlannerInput) -> ParsedWhen:
    return extract_when(
        text, now=inp.now, timezone=inp.timezone, language="he" if _has_hebrew(text) else "en"
    )


# --- conversation ----------------------------------------------------------------------------

_GREETING = re.compile(
    r"^(?:hi|hello|hey|hiya|heya|yo|howdy|good\s+(?:morning|afternoon|evening|night)|shalom|"
    r"שלום|היי|הי|הלו|אהלן|אהלן וסהלן|בוקר טוב|צהריים טובים|ערב טוב|לילה טוב|מה נשמע|מה קורה|מה שלומך|מה המצב)"
    r"(?:\s+(?:there|memo|everyone|friend|you|מה נשמע|מה קורה|מה שלומך|ממו))*"
    r"(?:\s*[,!.?]*\s*(?:how are you(?: doing)?|how's it going|what's up|מה נשמע|מה שלומך|מה קורה))?$",
    _I,
)
_SMALLTALK = re.compile(
    r"^(?:how are you(?: doing)?(?: today)?|how's it going|what's up|sup|how are things|"
    r"מה שלומך|מה נשמע|מה קורה|מה העניינים|מה המצב)$",
    _I,
)
_THANKS = re.compile(
    r"^(?:(?:ok(?:ay)?|great|awesome|perfect|cool|nice)[,!. ]*)?(?:thanks|thank you|thx|ty|cheers|much appreciated|"
    r"תודה|תודה רבה|תודה לך|תודה רבה לך|תנקיו|אחלה|מעולה תודה|יופי תודה|סבבה תודה)(?:\s+(?:so much|a lot|memo|again|ממו))*$",
    _I,
)
_HELP = re.compile(
    r"^(?:help|what can you do|what do you do|how does this work|how do you work|who are you|what are you|"
    r"עזרה|מה אתה יודע לעשות|מה את יודעת לעשות|מה אתה יכול לעשות|מה את יכולה לעשות|איך זה עובד|מי אתה)$",
    _I,
)


def _conversation(text: str, inp: PlannerInput) -> _Plan | None:
    bare = _clean(text).lower()
    for pattern, kind, intent in (
        (_HELP, "help", "meta"),
        (_GREETING, "greeting", "conversation"),
        (_SMALLTALK, "smalltalk", "conversation"),
        (_THANKS, "thanks", "conversation"),
    ):
        if pattern.match(bare):
            return _Plan(
                capability="general",
                action="reply",
                confidence=0.95,
                risk="low",
                constraints={"kind": kind},
                intent=intent,  # type: ignore[arg-type]
                pattern=f"conversation:{kind}",
            )
    return None


# --- reminders ---------------------------------------------------------------------------------

_RE_DELETE_ALL = (
    re.compile(
        rf"^(?:{_DELETE_EN})\s+(?:all|every|each|everything)(?:\s+of)?(?:\s+(?:my|the))?\s+(?P<what>{_REMINDER_EN}|{_NOTE_EN})\b",
        _I,
    ),
    re.compile(r"^(?:clear|wipe)\s+(?:out\s+)?(?:my|the|all)\s+(?P<what>reminders|notes)\b", _I),
    re.compile(
        rf"^(?:{_DELETE_HE})\s+(?:לי\s+)?(?:את\s+)?(?:כל|כול)\s+(?P<what>{_REMINDER_HE}|{_NOTE_HE})",
    ),
    re.compile(r"^(?:תנקה|נקה|לנקות)\s+(?:לי\s+)?(?:את\s+)?(?P<what>התזכורות|הפתקים|ההערות)"),
)


def _what_capability(word: str) -> Capability:
    return "reminders" if re.search(r"remind|תזכור", word, _I) else "notes"


def _delete_all(text: str, inp: PlannerInput) -> _Plan | None:
    for pattern in _RE_DELETE_ALL:
        match = pattern.search(text)
        if match:
            return _Plan(
                capability=_what_capability(match.group("what")),
                action="delete_all",
                confidence=CONFIDENT,
                risk="high",
                constraints={},
                needs_approval=True,
                pattern="delete_all",
            )
    return None


_RE_REMINDER_LIST = (
    re.compile(
        rf"^(?:what|which|show|list|see|view|get|tell|read|give|check|do i have|any|are there|what's|whats)\b.*\b{_REMINDER_EN}\b",
        _I,
    ),
    re.compile(rf"^(?:my|all(?:\s+my)?)\s+{_REMINDER_EN}\b", _I),
    re.compile(rf"^{_REMINDER_EN}\s*\??$", _I),
    re.compile(r"^(?:מה|אילו|איזה|אלו|תראה|תראי|הראה|תציג|תציגי|תגיד|תפרט|יש לי|רשימת|כל)\b.*תזכורות"),
    re.compile(r"^(?:ה)?תזכורות\s+(?:שלי|להיום|למחר)"),
)


def _reminder_list(text: str, inp: PlannerInput) -> _Plan | None:
    if re.search(rf"\b(?:{_DELETE_EN}|{_MOVE_EN}|remind me)\b|{_DELETE_HE}|{_MOVE_HE}|תזכיר", text, _I):
        return None
    for pattern in _RE_REMINDER_LIST:
        if pattern.search(text):
            parsed = _when(text, inp)
            constraints: dict[str, object] = {}
            day = parsed.day or (parsed.when.date() if parsed.when else None)
            if day is not None:
                constraints["day"] = day.isoformat()
            return _Plan(
                capability="reminders",
                action="list",
                confidence=CONFIDENT,
                risk="low",
                constraints=constraints,
                pattern="reminders:list",
            )
    return None


_RE_REMIND = (
    re.compile(
        r"^(?:remind\s+me|set\s+(?:up\s+)?(?:a\s+|an\s+|me\s+a\s+)?reminder|create\s+(?:a\s+)?reminder|"
        r"add\s+(?:a\s+)?reminder|new\s+reminder|make\s+(?:a\s+)?reminder|reminder|"
        r"don'?t\s+let\s+me\s+forget|make\s+sure\s+i\s+(?:don'?t\s+forget\s+)?)\b[:,]?\s*(?P<rest>.*)$",
        _I,
    ),
    re.compile(r"^(?P<rest>.+?)[,.]?\s+remind\s+me\b[.!]?$", _I),
    re.compile(
        r"^(?:תזכיר|תזכירי|הזכר|תזכרי|להזכיר)\s+לי\s*(?P<rest>.*)$"
        r"|^(?:תקבע|תקבעי|קבע|תיצור|צור|תוסיף|הוסף|תגדיר|הגדר)\s+(?:לי\s+)?תזכורת\s*(?P<rest2>.*)$"
        r"|^תזכורת\s*[:\-]?\s*(?P<rest3>.*)$"
        r"|^(?:אל\s+תיתן|אל\s+תתן|אל\s+תני)\s+לי\s+לשכוח\s*(?P<rest4>.*)$"
    ),
)


def _reminder_create(text: str, inp: PlannerInput) -> _Plan | None:
    rest: str | None = None
    for pattern in _RE_REMIND:
        match = pattern.search(text)
        if match:
            rest = next((g for g in match.groups() if g is not None), "")
            break
    if rest is None:
        return None
    parsed = _when(rest, inp)
    title = _title(parsed.remainder)
    constraints: dict[str, object] = {"title": title} if title else {}
    missing: list[str] = []
    if not title:
        missing.append("reminder_title_required")
    if parsed.when is not None and parsed.when > inp.now:
        constraints["when"] = _iso(parsed.when)
    else:
        if parsed.day is not None:
            constraints["day"] = parsed.day.isoformat()
        missing.append("reminder_time_required")
    return _Plan(
        capability="reminders",
        action="create",
        confidence=CONFIDENT,
        risk="low",
        constraints=constraints,
        missing=tuple(missing),
        pattern="reminders:create",
    )


def _latest(inp: PlannerInput, capability: Capability | None = None) -> LatestAction | None:
    for action in inp.latest_actions:
        if capability is None or action.capability == capability:
            return action
    return None


def _is_ref(target: str) -> bool:
    bare = _clean(target).lower()
    return bool(re.fullmatch(rf"(?:{_REF_EN}|{_REF_HE})", bare, _I)) or bare == ""


def _target_constraints(
    target: str, inp: PlannerInput, capability: Capability
) -> tuple[dict[str, object], tuple[str, ...], float]:
    """Constraints that select the entity, the missing fields, and the confidence."""
    if not _is_ref(target):
        return {"target": _title(target)}, (), CONFIDENT
    latest = _latest(inp, capability)
    if latest is not None:
        return {"targetRef": "latest_action", "target": _named_in(latest.summary)}, (), REFERENTIAL
    return {}, ("target_unclear",), CONFIDENT


_RE_REMINDER_RENAME = (
    re.compile(
        rf"^(?:rename|retitle)\s+(?:the\s+|my\s+)?(?:{_REMINDER_EN}\s+)?(?P<old>.*?)\s+(?:to|as|into)\s+(?P<new>.+)$",
        _I,
    ),
    re.compile(
        rf"^(?:change|update|set)\s+(?:the\s+)?(?:title|name|text)\s+(?:of\s+)?(?:the\s+|my\s+)?(?:{_REMINDER_EN}\s+)?"
        r"(?P<old>.*?)\s+(?:to|as)\s+(?P<new>.+)$",
        _I,
    ),
    re.compile(
        rf"^(?:תשנה|תשני|שנה|לשנות)\s+(?:את\s+)?(?:ה)?(?:שם|כותרת|טקסט)\s+(?:של\s+)?(?:{_REMINDER_HE}\s*)?"
        r"(?P<old>.*)\s+ל-(?P<new>\S.*)$"
    ),
    re.compile(
        rf"^(?:תשנה|תשני|שנה|לשנות)\s+(?:את\s+)?(?:ה)?(?:שם|כותרת|טקסט)\s+(?:של\s+)?(?:{_REMINDER_HE}\s*)?"
        r"(?P<old>.*?)\s+ל(?P<new>\S.*)$"
    ),
)


def _reminder_rename(text: str, inp: PlannerInput) -> _Plan | None:
    for pattern in _RE_REMINDER_RENAME:
        match = pattern.search(text)
        if not match:
            continue
        old = _strip_lead(match.group("old"), r"about|to|for|called|named|על|של")
        capability: Capability = "notes" if re.search(rf"\b(?:{_NOTE_EN})\b|פתק", text, _I) else "reminders"
        constraints, missing, confidence = _target_constraints(old, inp, capability)
        return _Plan(
            capability=capability,
            action="update",
            confidence=confidence,
            risk="medium",
            constraints=constraints,
            changes={"title": _title(match.group("new"))},
            missing=missing,
            pattern=f"{capability}:rename",
        )
    return None


_RE_REMINDER_MOVE = (
    re.compile(rf"^(?:{_MOVE_EN})\s+(?:the\s+|my\s+)?{_REMINDER_EN}\b\s*(?P<rest>.*)$", _I),
    re.compile(rf"^(?:{_MOVE_EN})\s+(?:the\s+|my\s+)?(?P<rest>.+?\s+{_REMINDER_EN}\b.*)$", _I),
    re.compile(rf"^(?:{_MOVE_HE})\s+(?:לי\s+)?(?:את\s+)?{_REMINDER_HE}\s*(?P<rest>.*)$"),
)


def _reminder_update(text: str, inp: PlannerInput) -> _Plan | None:
    for pattern in _RE_REMINDER_MOVE:
        match = pattern.search(text)
        if not match:
            continue
        rest = re.sub(rf"\b{_REMINDER_EN}\b", " ", match.group("rest"), flags=_I)
        parsed = _when(rest, inp)
        target = _title(parsed.remainder)
        constraints, missing, confidence = _target_constraints(target, inp, "reminders")
        changes: dict[str, object] = {}
        missing_fields = list(missing)
        if parsed.when is not None:
            changes["when"] = _iso(parsed.when)
        elif parsed.day is not None:
            changes["day"] = parsed.day.isoformat()
            missing_fields.append("reminder_time_required")
        else:
            missing_fields.append("time_unclear")
        return _Plan(
            capability="reminders",
            action="update",
            confidence=confidence,
            risk="medium",
            constraints=constraints,
            changes=changes,
            missing=tuple(missing_fields),
            pattern="reminders:update",
        )
    return None


_PLURAL_NOUN = re.compile(r"\breminders\b|\bnotes\b|תזכורות|פתקים", _I)

_RE_REMINDER_DELETE = (
    re.compile(
        rf"^(?:{_DELETE_EN})\s+(?:the\s+|my\s+|that\s+|this\s+)?{_REMINDER_EN}\b\s*(?P<target>.*)$", _I
    ),
    re.compile(rf"^(?:{_DELETE_EN})\s+(?:the\s+|my\s+)?(?P<target>.+?)\s+{_REMINDER_EN}\b\s*$", _I),
    re.compile(rf"^(?:{_DELETE_HE})\s+(?:לי\s+)?(?:את\s+)?{_REMINDER_HE}\s*(?P<target>.*)$"),
)


def _reminder_delete(text: str, inp: PlannerInput) -> _Plan | None:
    for pattern in _RE_REMINDER_DELETE:
        match = pattern.search(text)
        if match:
            constraints, missing, confidence = _target_constraints(match.group("target"), inp, "reminders")
            if _PLURAL_NOUN.search(match.group(0)):
                constraints = {**constraints, "plural": True}  # "the call reminders": maybe several
            return _Plan(
                capability="reminders",
                action="delete",
                confidence=confidence,
                risk="high",
                constraints=constraints,
                missing=missing,
                pattern="reminders:delete",
            )
    return None


# --- lists -------------------------------------------------------------------------------------

_LIST_NAME_EN = r"(?:my\s+|the\s+|our\s+)?(?P<name>[\w\-' ]{1,30}?)"


def _items(raw: str) -> list[str]:
    raw = re.sub(r"^(?:את|some|a|an|the)\s+", "", _clean(raw), flags=_I)
    parts = re.split(r"\s*,\s*|\s+and\s+|\s*&\s*|\s+ו-?(?=\S)|\s+וגם\s+", raw, flags=_I)
    return [p for p in (_clean(re.sub(r"^(?:את|some)\s+", "", x, flags=_I)) for x in parts) if p]


def _list_name(raw: str) -> str:
    name = _clean(raw).lower()
    name = re.sub(r"\s+list$", "", name)
    if _has_hebrew(name) and name.startswith("ה") and len(name) > 3:
        name = name[1:]
    return {"grocery": "shopping", "groceries": "shopping", "to-do": "todo", "to do": "todo"}.get(name, name)


_KNOWN_LISTS = r"shopping|grocery|groceries|todo|to-do|to do|packing|wish|movies|books"

_RE_LIST_ADD = (
    re.compile(
        rf"^(?:add|put|throw|stick)\s+(?P<items>.+?)\s+(?:to|on|onto|in|into)\s+{_LIST_NAME_EN}\s+list\b", _I
    ),
    re.compile(
        r"^(?:add|put)\s+(?P<items>.+?)\s+(?:to|on|onto|in)\s+(?:my\s+|the\s+)?list\s+(?P<name>[\w\-]+)", _I
    ),
    re.compile(
        rf"^(?:add|put)\s+(?P<items>.+?)\s+(?:to|on|onto)\s+(?:my\s+|the\s+)?(?P<name>{_KNOWN_LISTS})\b", _I
    ),
    re.compile(
        r"^(?:תוסיף|תוסיפי|הוסף|להוסיף|תכניס|תכניסי|הכנס|תרשום|רשום|תשים|שים)\s+(?:לי\s+)?(?:את\s+)?(?P<items>.+?)\s+"
        r"(?:ל|אל\s+ה|ב)רשימ(?:ת|ה)(?:\s+(?:של\s+)?(?P<name>\S+))?\s*$"
    ),
    re.compile(
        r"^(?:תוסיף|תוסיפי|הוסף|להוסיף|תכניס|הכנס|תרשום|רשום)\s+(?:ל|ב)רשימ(?:ת|ה)\s+(?:של\s+)?(?P<name>\S+)\s+(?:את\s+)?(?P<items>.+)$"
    ),
)
_RE_LIST_REMOVE = (
    re.compile(
        rf"^(?:remove|delete|take|cross|strike)\s+(?:off\s+)?(?P<items>.+?)\s+(?:off|from|out of|on)\s+{_LIST_NAME_EN}\s+list\b",
        _I,
    ),
    re.compile(
        rf"^(?:remove|delete|take|cross)\s+(?:off\s+)?(?P<items>.+?)\s+(?:off|from)\s+(?:my\s+|the\s+)?(?P<name>{_KNOWN_LISTS})\b",
        _I,
    ),
    re.compile(
        r"^(?:תוריד|תורידי|הורד|להוריד|תמחק|תמחקי|מחק|תסיר|הסר)\s+(?:לי\s+)?(?:את\s+)?(?P<items>.+?)\s+"
        r"(?:מ|מה)רשימ(?:ת|ה)(?:\s+(?:של\s+)?(?P<name>\S+))?\s*$"
    ),
)
_RE_LIST_SHOW = (
    re.compile(
        rf"^(?:show|read|list|see|view|get|open|give|send|what'?s|whats|what\s+is|what\s+are|what\s+do\s+i\s+have|check)"
        rf"\s+(?:me\s+)?(?:on|in)?\s*{_LIST_NAME_EN}\s+list\b",
        _I,
    ),
    re.compile(r"^(?:my|the)\s+(?P<name>[\w\-]+)\s+list\s*\??$", _I),
    re.compile(
        r"^(?:מה\s+(?:יש\s+)?(?:ב|על\s+ה)|מה\s+ב|תראה\s+(?:לי\s+)?(?:את\s+)?|תראי\s+(?:לי\s+)?(?:את\s+)?|הראה\s+(?:לי\s+)?(?:את\s+)?|"
        r"תציג\s+(?:לי\s+)?(?:את\s+)?|תקריא\s+(?:לי\s+)?(?:את\s+)?)?רשימת\s+(?P<name>\S+)\s*\??$"
    ),
)
_RE_LIST_CLEAR = (
    re.compile(
        rf"^(?:clear|empty|wipe|delete|reset)\s+(?:out\s+)?(?:all\s+of\s+)?{_LIST_NAME_EN}\s+list\b", _I
    ),
    re.compile(
        r"^(?:תנקה|תנקי|נקה|תרוקן|תרוקני|רוקן|תמחק|מחק|למחוק)\s+(?:לי\s+)?(?:את\s+)?(?:כל\s+)?(?:ה)?רשימ(?:ת|ה)\s*(?P<name>\S+)?\s*$"
    ),
)


def _list_add(text: str, inp: PlannerInput) -> _Plan | None:
    return _list_items(text, _RE_LIST_ADD, "add", "low")


def _list_remove(text: str, inp: PlannerInput) -> _Plan | None:
    return _list_items(text, _RE_LIST_REMOVE, "remove", "medium")


def _list_items(
    text: str, patterns: tuple[re.Pattern[str], ...], action: str, risk: RiskLevel
) -> _Plan | None:
    for pattern in patterns:
        match = pattern.search(text)
        if not match:
            continue
        items = _items(match.group("items"))
        name = match.group("name")
        missing: tuple[str, ...] = () if items else ("target_unclear",)
        return _Plan(
            capability="lists",
            action=action,
            confidence=CONFIDENT if name else 0.8,
            risk=risk,
            constraints={"listName": _list_name(name) if name else "default"},
            changes={"items": items},
            missing=missing,
            pattern=f"lists:{action}",
        )
    return None


def _list_show(text: str, inp: PlannerInput) -> _Plan | None:
    for pattern in _RE_LIST_SHOW:
        match = pattern.search(text)
        if match:
            return _Plan(
                capability="lists",
                action="show",
                confidence=CONFIDENT,
                risk="low",
                constraints={"listName": _list_name(match.group("name"))},
                pattern="lists:show",
            )
    return None


def _list_clear(text: str, inp: PlannerInput) -> _Plan | None:
    for pattern in _RE_LIST_CLEAR:
        match = pattern.search(text)
        if match:
            name = match.group("name")
            return _Plan(
                capability="lists",
                action="clear",
                confidence=CONFIDENT if name else GUESS,
                risk="high",
                constraints={"listName": _list_name(name) if name else "default"},
                needs_approval=True,
                pattern="lists:clear",
            )
    return None


# --- notes -------------------------------------------------------------------------------------

_RE_NOTE_SAVE = (
    re.compile(r"^(?:note|memo)\s*[:\-]\s*(?P<text>.+)$", _I),
    re.compile(
        r"^(?:take|make|save|add|write|create|jot)\s+(?:down\s+)?(?:a\s+|this\s+|the\s+)?(?:quick\s+)?note\s*(?:that|saying|:|-)?\s*(?P<text>.+)$",
        _I,
    ),
    re.compile(r"^note\s+(?:that|down)\s*:?\s*(?P<text>.+)$", _I),
    re.compile(r"^(?:write|jot)\s+(?:this\s+)?down\s*:?\s*(?P<text>.+)$", _I),
    re.compile(r"^(?:remember|save)\s+(?:that|this)\s*:?\s*(?P<text>.+)$", _I),
    re.compile(
        r"^(?:תרשום|תרשמי|רשום|לרשום|תכתוב|תכתבי|כתוב|תשמור|תשמרי|שמור|לשמור|תזכור|תזכרי|זכור)\s+"
        r"(?:לי\s+)?(?:פתק\s+)?(?:ש-?|:\s*)(?P<text>.+)$"
    ),
    re.compile(r"^(?:תרשום|רשום|תכתוב|כתוב|תשמור|שמור)\s+(?:לי\s+)?פתק\s*:?\s*(?P<text>.+)$"),
    re.compile(r"^(?:פתק|הערה)\s*[:\-]\s*(?P<text>.+)$"),
)


def _note_save(text: str, inp: PlannerInput) -> _Plan | None:
    for pattern in _RE_NOTE_SAVE:
        match = pattern.search(text)
        if match:
            body = _clean(match.group("text"))
            return _Plan(
                capability="notes",
                action="save",
                confidence=CONFIDENT if body else GUESS,
                risk="low",
                constraints={},
                changes={"text": body},
                missing=() if body else ("target_unclear",),
                pattern="notes:save",
            )
    return None


_RE_NOTE_SEARCH = (
    re.compile(
        r"^(?:what\s+did\s+i\s+(?:note|write|save|jot)(?:\s+down)?|what\s+do\s+i\s+have\s+(?:noted|written)(?:\s+down)?)"
        r"\s*(?:about|on|for|regarding|re)?\s*(?P<q>.*?)\??$",
        _I,
    ),
    re.compile(
        rf"^(?:find|search|look\s+up|look\s+for|show|get|check|list|read)\s+(?:me\s+)?(?:in\s+)?(?:my\s+|the\s+|all\s+(?:my\s+)?)?(?:{_NOTE_EN})"
        r"\s*(?:about|on|for|regarding|with|mentioning|that\s+mention)?\s*(?P<q>.*?)\??$",
        _I,
    ),
    re.compile(
        rf"^(?:do\s+i\s+have|is\s+there)\s+(?:a|any)\s+(?:{_NOTE_EN})\s*(?:about|on|for|with)?\s*(?P<q>.*?)\??$",
        _I,
    ),
    re.compile(rf"^(?:my\s+)?(?:{_NOTE_EN})\s*\??$", _I),
    re.compile(r"^מה\s+(?:רשמתי|כתבתי|שמרתי)\s*(?:על|לגבי|בנושא|בקשר\s+ל)?\s*(?P<q>.*?)\??$"),
    re.compile(
        rf"^(?:תחפש|תחפשי|חפש|לחפש|תמצא|תמצאי|מצא|תראה|תראי|הראה|תציג)\s+(?:לי\s+)?(?:את\s+)?(?:ב)?(?:כל\s+)?{_NOTE_HE}\s*"
        r"(?:על|של|לגבי|עם|בנושא)?\s*(?P<q>.*?)\??$"
    ),
    re.compile(r"^(?:ה)?(?:פתקים|הערות)\s+שלי\s*\??$"),
)


def _note_search(text: str, inp: PlannerInput) -> _Plan | None:
    for pattern in _RE_NOTE_SEARCH:
        match = pattern.search(text)
        if match:
            query = _clean(match.groupdict().get("q") or "")
            return _Plan(
                capability="notes",
                action="search",
                confidence=CONFIDENT,
                risk="low",
                constraints={"query": query},
                pattern="notes:search",
            )
    return None


# "what's the wifi password?" / "מה הסיסמה של הוויפי?": a question about something the user told Memo
# is a note search. Only "the/my/our ..." (Hebrew: a definite noun) so "what time is it" stays unclear.
_RE_RECALL = (
    re.compile(
        r"^(?:what(?:'s|’s|\s+is|\s+was|\s+are|\s+were)|whats|where(?:'s|’s|\s+is|\s+are)|"
        r"(?:do\s+you\s+)?remember|remind\s+me\s+what)\s+(?:my|the|our)\s+(?P<q>.+?)\s*\??$",
        _I,
    ),
    re.compile(r"^(?:מה|איפה)\s+(?:היה\s+|היתה\s+|הייתה\s+)?(?P<q>ה\S{2,}.*?)\s*\??$"),
)


def _recall(text: str, inp: PlannerInput) -> _Plan | None:
    for pattern in _RE_RECALL:
        match = pattern.search(text)
        if match:
            return _Plan(
                capability="notes",
                action="search",
                confidence=0.75,
                risk="low",
                constraints={"query": _clean(match.group("q"))},
                pattern="notes:recall",
            )
    return None


_RE_NOTE_DELETE = (
    re.compile(
        rf"^(?:{_DELETE_EN})\s+(?:the\s+|my\s+|that\s+|this\s+)?(?:note|memo)\b\s*(?:about|on|for|regarding|with|that\s+says|saying)?\s*(?P<target>.*)$",
        _I,
    ),
    re.compile(
        rf"^(?:{_DELETE_HE})\s+(?:לי\s+)?(?:את\s+)?ה?(?:פתק|הערה)\s*(?:על|של|לגבי|ש)?\s*(?P<target>.*)$"
    ),
)


def _note_delete(text: str, inp: PlannerInput) -> _Plan | None:
    for pattern in _RE_NOTE_DELETE:
        match = pattern.search(text)
        if match:
            constraints, missing, confidence = _target_constraints(match.group("target"), inp, "notes")
            return _Plan(
                capability="notes",
                action="delete",
                confidence=confidence,
                risk="high",
                constraints=constraints,
                missing=missing,
                pattern="notes:delete",
            )
    return None


# --- calendar / email (no adapters: the capability check refuses them) ------------------------

_RE_CALENDAR = re.compile(
    r"\b(?:calendar|meeting|meetings|appointment|appointments|event|events|agenda|schedule\s+a)\b|יומן|פגישה|פגישות|אירוע|אירועים",
    _I,
)
_RE_CALENDAR_CREATE = re.compile(
    r"\b(?:add|schedule|book|set\s+up|create|put|arrange|plan)\b|תקבע|תקבעי|קבע|תוסיף|הוסף|תיצור|צור|תכניס",
    _I,
)
_RE_EMAIL = re.compile(r"\b(?:e-?mails?|inbox|gmail|outlook)\b|מייל|אימייל|דוא\"ל|דואר\s+אלקטרוני", _I)
_RE_EMAIL_SEND = re.compile(
    r"\b(?:send|write|reply|compose|draft|forward)\b|תשלח|שלח|תכתוב|כתוב|תענה|ענה", _I
)


def _calendar(text: str, inp: PlannerInput) -> _Plan | None:
    if not _RE_CALENDAR.search(text):
        return None
    create = bool(_RE_CALENDAR_CREATE.search(text))
    return _Plan(
        capability="calendar",
        action="create_event" if create else "list_events",
        confidence=0.8,
        risk="medium" if create else "low",
        constraints={"text": text},
        pattern="calendar",
    )


def _email(text: str, inp: PlannerInput) -> _Plan | None:
    if not _RE_EMAIL.search(text):
        return None
    send = bool(_RE_EMAIL_SEND.search(text))
    return _Plan(
        capability="email",
        action="send" if send else "list",
        confidence=0.8,
        risk="high" if send else "low",
        constraints={"text": text},
        pattern="email",
    )


# --- referential follow-ups ("delete it", "move it to 6", "תמחק את זה") --------------------------

_RE_REF_DELETE = re.compile(rf"^(?:{_DELETE_EN}|{_DELETE_HE})\s+(?:{_REF_EN}|{_REF_HE})\s*[.!]?$", _I)
_RE_REF_MOVE = re.compile(rf"^(?:{_MOVE_EN}|{_MOVE_HE})\s+(?:{_REF_EN}|{_REF_HE})\b\s*(?P<rest>.*)$", _I)
_RE_REF_RENAME = re.compile(
    rf"^(?:(?:{_RENAME_EN})\s+(?:{_REF_EN})\s+(?:to|as)?|(?:תשנה|שנה|תקרא|תקראי)\s+(?:ל|את\s+השם\s+של\s+)?(?:{_REF_HE})\s+ל-?)\s*(?P<new>.+)$",
    _I,
)


def _referential(text: str, inp: PlannerInput) -> _Plan | PlannerResult | None:
    latest = _latest(inp)
    if _RE_REF_DELETE.match(text):
        if latest is None:
            # "delete it" with nothing recent to point at: ask what the user means.
            return _unclear(text)
        return _Plan(
            capability=latest.capability,
            action="delete",
            confidence=REFERENTIAL,
            risk="high",
            constraints={"targetRef": "latest_action", "target": _named_in(latest.summary)},
            pattern="ref:delete",
        )
    rename = _RE_REF_RENAME.match(text)
    if rename:
        if latest is None:
            return _unclear(text)
        return _Plan(
            capability=latest.capability,
            action="update",
            confidence=REFERENTIAL,
            risk="medium",
            constraints={"targetRef": "latest_action", "target": _named_in(latest.summary)},
            changes={"title": _title(rename.group("new"))},
            pattern="ref:rename",
        )
    move = _RE_REF_MOVE.match(text)
    if move:
        parsed = _when(move.group("rest"), inp)
        reminder = _latest(inp, "reminders")
        if not parsed.found:
            return None
        if reminder is None:
            return _unclear(text)
        when = parsed.when
        if when is None and parsed.day is not None and reminder.when is not None:
            # "move it to friday": keep the reminder's time of day.
            kept = reminder.when.astimezone(ZoneInfo(inp.timezone)).time()
            when = datetime.combine(parsed.day, kept, tzinfo=ZoneInfo(inp.timezone))
        changes: dict[str, object] = {"when": _iso(when)} if when is not None else {}
        if when is None and parsed.day is not None:
            changes["day"] = parsed.day.isoformat()
        return _Plan(
            capability="reminders",
            action="update",
            confidence=REFERENTIAL if reminder is latest else 0.75,
            risk="medium",
            constraints={"targetRef": "latest_action", "target": _named_in(reminder.summary)},
            changes=changes,
            missing=() if when is not None else ("reminder_time_required",),
            pattern="ref:move",
        )
    return None


_RE_BARE_DELETE = re.compile(rf"^(?:{_DELETE_EN}|{_DELETE_HE})\s+(?:the\s+|my\s+|את\s+)?(?P<target>.+)$", _I)


def _noun_less_delete(text: str, inp: PlannerInput) -> _Plan | None:
    match = _RE_BARE_DELETE.match(text)
    if not match:
        return None
    target = _title(match.group("target"))
    from rapidfuzz import fuzz

    for action in inp.latest_actions:
        if fuzz.partial_ratio(target.lower(), action.summary.lower()) >= 80:
            return _Plan(
                capability=action.capability,
                action="delete",
                confidence=0.8,
                risk="high",
                constraints={"target": target},
                pattern="delete:latest_match",
            )
    return _Plan(
        capability="reminders",
        action="delete",
        confidence=GUESS,
        risk="high",
        constraints={"target": target},
        pattern="delete:guess",
    )
