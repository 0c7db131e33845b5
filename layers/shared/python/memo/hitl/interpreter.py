"""Resume layer 2: classify a planner-HITL reply the fast path could not match.

Five decisions: continue, continue_with_modifications, switch_intent, cancel, re_ask.
- `OpenAIInterpreter`: one strict-JSON-schema call (temperature 0.1, max 200 tokens,
  MEMO_INTERPRETER_MODEL). Malformed output, an unknown decision or a refusal -> re_ask (safest);
  a transport failure (connection, timeout, HTTP error) -> the rule interpreter answers instead.
- `RuleInterpreter` (no key): cancel words -> cancel; "yes, and change X to Y" /
  "כן, ותשנה את X ל-Y" style edits -> continue_with_modifications when they parse; a leading yes/no
  -> continue; a complete, different request -> switch_intent; otherwise re_ask.

Whatever produced them, modifications go through `sanitize_modifications` (only
ALLOWED_MODIFICATION_FIELDS, never id-like keys, JSON scalars/lists of strings only) and
`normalize_modifications` (time/date words become the step's canonical `when` / `day`).
Entity disambiguation never comes here (it is deterministic only).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, ValidationError

from memo.domain import InterpreterOutput, InterpreterParsed, PendingHITL, PlanStep
from memo.hitl.about_asked import names_another_thing
from memo.hitl.complete_request import default_rules, is_complete_request
from memo.hitl.fastpath import is_cancel, is_no, is_yes, normalize
from memo.observability import logger
from memo.planner.timeparse import extract_when, parse_time_answer
from memo.settings import LlmSettings
from memo.text.dates import BARE_MORNING_HOUR, nearer_half
from memo.text.language import Language

if TYPE_CHECKING:
    from openai import OpenAI

    from memo.planner.base import Planner

#: Semantic fields an interpreter may change. Never ids, indexes or tokens.
ALLOWED_MODIFICATION_FIELDS: frozenset[str] = frozenset(
    {
        "title",
        "text",
        "when",
        "time",
        "date",
        "day",
        "location",
        "description",
        "listName",
        "items",
        "query",
        "recurrence",
        "duration",
    }
)
_ID_LIKE = re.compile(r"(?:^ids?$|_ids?$|[a-z]Ids?$|uuid|token|index|^ref|Ref$|externalid|candidate)", re.I)

INTERPRETER_TEMPERATURE = 0.1
INTERPRETER_MAX_TOKENS = 200


@dataclass(frozen=True)
class InterpreterInput:
    pending: PendingHITL
    reply: str
    language: Language
    timezone: str
    now: datetime
    origin_step: PlanStep | None = None


class Interpreter(Protocol):
    def interpret(self, inp: InterpreterInput) -> InterpreterOutput: ...


def sanitize_modifications(modifications: Mapping[str, Any] | None) -> dict[str, Any]:
    """Keep only allowed, non-id-like keys with JSON scalar (or list of strings) values."""
    clean: dict[str, Any] = {}
    for key, value in (modifications or {}).items():
        if key not in ALLOWED_MODIFICATION_FIELDS or _ID_LIKE.search(key):
            continue
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        if isinstance(value, bool | int | float):
            clean[key] = value
        elif isinstance(value, str):
            clean[key] = value.strip()
        elif isinstance(value, list) and all(isinstance(v, str) for v in value) and value:
            clean[key] = [v.strip() for v in value if v.strip()]
    return clean


def _step_when(step: PlanStep | None, timezone: str) -> tuple[datetime | None, date | None]:
    if step is None:
        return None, None
    for bag in (step.changes, step.constraints):
        raw = bag.get("when")
        if isinstance(raw, str):
            try:
                when = datetime.fromisoformat(raw)
            except ValueError:
                continue
            return when.astimezone(ZoneInfo(timezone)), None
    for bag in (step.changes, step.constraints):
        raw = bag.get("day")
        if isinstance(raw, str):
            try:
                return None, date.fromisoformat(raw)
            except ValueError:
                continue
    return None, None


def normalize_modifications(
    modifications: Mapping[str, Any],
    *,
    step: PlanStep | None,
    now: datetime,
    timezone: str,
    language: Language,
) -> dict[str, Any]:
    """Turn "time"/"date"/"when" words into the step's canonical `when` (ISO) or `day` (ISO date).

    A bare time lands on the step's current day; a bare date keeps the step's current time of day.
    Time words that do not parse are dropped rather than merged as junk.
    """
    mods = dict(modifications)
    time_text = mods.pop("time", None)
    date_text = mods.pop("date", None)
    when_text = mods.pop("when", None)
    day_text = mods.pop("day", None)
    if not any(isinstance(v, str) for v in (time_text, date_text, when_text, day_text)):
        return mods
    current_when, current_day = _step_when(step, timezone)
    base_day = current_when.date() if current_when is not None else current_day
    day_words = " ".join(v for v in (date_text, day_text) if isinstance(v, str))
    if isinstance(when_text, str):
        try:
            parsed_iso = datetime.fromisoformat(when_text)
            if parsed_iso.tzinfo is not None:
                mods["when"] = parsed_iso.isoformat()
                return mods
        except ValueError:
            pass
    phrase = " ".join(v for v in (day_words, when_text, time_text) if isinstance(v, str))
    parsed = extract_when(phrase, now=now, timezone=timezone, language=language, default_day=base_day)
    if parsed.when is not None:
        either_half = parsed.either_half and not parsed.explicit_day and parsed.recurrence is None
        mods["when"] = nearer_half(parsed.when, current_when, either_half=either_half).isoformat()
        if parsed.recurrence is not None:
            mods["recurrence"] = parsed.recurrence  # "every day at 8": `when` is its first time
    elif parsed.day is not None:
        if current_when is not None:
            mods["when"] = datetime.combine(
                parsed.day, current_when.time(), tzinfo=ZoneInfo(timezone)
            ).isoformat()
        else:
            mods["day"] = parsed.day.isoformat()
    elif isinstance(time_text, str):
        answered = parse_time_answer(time_text, now=now, timezone=timezone, language=language, day=base_day)
        if answered is not None:
            either_half = BARE_MORNING_HOUR.match(time_text.strip()) is not None
            mods["when"] = nearer_half(answered, current_when, either_half=either_half).isoformat()
    return mods


# --- rule interpreter ---------------------------------------------------------------------------

_FIELD_WORDS: dict[str, str] = {
    "time": "time",
    "hour": "time",
    "when": "time",
    "date": "date",
    "day": "date",
    "title": "title",
    "name": "title",
    "text": "title",
    "wording": "title",
    "location": "location",
    "place": "location",
    "list": "listName",
    "שעה": "time",
    "השעה": "time",
    "תאריך": "date",
    "התאריך": "date",
    "יום": "date",
    "היום": "date",
    "שם": "title",
    "השם": "title",
    "כותרת": "title",
    "הכותרת": "title",
    "טקסט": "title",
    "הטקסט": "title",
    "נוסח": "title",
    "הנוסח": "title",
    "מיקום": "location",
    "המיקום": "location",
    "מקום": "location",
    "המקום": "location",
    "רשימה": "listName",
    "הרשימה": "listName",
}
_LEAD_YES = re.compile(
    r"^(?:yes|yeah|yep|sure|ok(?:ay)?|fine|approve[d]?|go ahead|כן|בטח|סבבה|אוקיי?|בסדר|מאשר[ת]?)\b[\s,.!-]*(?:(?:and|but|just|only)\s+|ו(?=\S)|אבל\s+|רק\s+)?",
    re.I,
)
_EN_SET_FIELD = re.compile(
    r"(?:change|set|make|update|switch|rename)\s+(?:the\s+|its\s+|it's\s+)?(?P<field>time|hour|date|day|title|name|text|wording|location|place|list)"
    r"\s+(?:to|into|as|for)\s+(?P<value>.+)$",
    re.I,
)
_EN_RENAME = re.compile(r"(?:rename|retitle|call)\s+(?:it|that|this)?\s*(?:to|as)?\s+(?P<value>.+)$", re.I)
_EN_MOVE = re.compile(
    r"(?:move|push|change|make|set|reschedule|postpone)\s+(?:it|that|this)?\s*(?:to|for)?\s*(?P<value>.+)$",
    re.I,
)
_EN_INSTEAD = re.compile(
    r"^(?:at|on|for|to)\s+(?P<value>.+?)(?:\s+instead)?$|^(?P<value2>.+?)\s+instead$", re.I
)
_HE_SET_FIELD = re.compile(
    r"(?:תשנה|תשני|שנה|לשנות|תעדכן|תעדכני|עדכן)\s+(?:לי\s+)?(?:את\s+)?(?P<field>\S+)\s+(?:ל-?|ל\s+)(?P<value>.+)$"
)
_HE_MOVE = re.compile(
    r"(?:תזיז|תזיזי|הזז|תעביר|תעבירי|העבר|תדחה|תדחי|דחה|תקבע|תקבעי|קבע)\s+(?:את\s+זה\s+|אותה\s+|אותו\s+|את\s+התזכורת\s+)?(?:ל-?)?(?P<value>.+)$"
)
_HE_INSTEAD = re.compile(r"^(?:ב-?|ל-?)(?P<value>.+?)(?:\s+במקום)?$|^(?P<value2>.+?)\s+במקום$")


def parse_modifications(text: str) -> dict[str, Any]:
    """Field changes written in the reply ("change the time to 6pm", "ותשנה את השם ל-X")."""
    body = _LEAD_YES.sub("", text.strip()).strip()
    body = re.sub(r"^(?:and|but|ו|אבל)\s+", "", body, flags=re.I)
    if body.startswith("ו") and len(body) > 2 and body[1] in "תשהל":
        body = body[1:]  # "ותשנה" -> "תשנה"
    body = body.rstrip(" .!?")
    if not body:
        return {}
    for pattern in (_EN_SET_FIELD, _HE_SET_FIELD):
        match = pattern.search(body)
        if match:
            field = _FIELD_WORDS.get(match.group("field").casefold())
            if field is None:
                continue
            return {field: match.group("value").strip(" \"'“”„")}
    match = _EN_RENAME.search(body)
    if match and re.match(r"^(?:rename|retitle|call)\b", body, re.I):
        return {"title": match.group("value").strip(" \"'“”„")}
    for pattern in (_EN_MOVE, _HE_MOVE, _EN_INSTEAD, _HE_INSTEAD):
        match = pattern.match(body)
        if match:
            value = (match.group("value") or match.groupdict().get("value2") or "").strip()
            if value:
                # Only a time/date survives `normalize_modifications`; other words are dropped.
                return {"when": value}
    return {}


class RuleInterpreter:
    """The interpreter without an LLM. Deterministic; safe to share. `rules` reads whether an answer
    is a request of its own (the composition root passes its rule planner)."""

    def __init__(self, rules: Planner | None = None) -> None:
        self._rules = rules or default_rules()

    def interpret(self, inp: InterpreterInput) -> InterpreterOutput:
        text = inp.reply.strip()
        if not text:
            return InterpreterOutput(decision="re_ask")
        if is_cancel(text) or _starts_with_cancel(text):
            return InterpreterOutput(decision="cancel")
        raw_mods = parse_modifications(text)
        if (
            raw_mods
            and names_another_thing(inp.origin_step, inp.pending, text)
            and _is_new_request(text, inp, self._rules)
        ):
            # "move call mom to friday" while "delete the plumber?" is open: a move of its own
            return InterpreterOutput(decision="switch_intent", parsed=InterpreterParsed(answer=text))
        if raw_mods:
            mods = normalize_modifications(
                sanitize_modifications(raw_mods),
                step=inp.origin_step,
                now=inp.now,
                timezone=inp.timezone,
                language=inp.language,
            )
            mods = sanitize_modifications(mods)
            if mods:
                return InterpreterOutput(
                    decision="continue_with_modifications",
                    parsed=InterpreterParsed(approved=True, answer=text, modifications=mods),
                )
        context = inp.pending.context
        editing = context is not None and context.awaiting == "edit_details"
        if inp.pending.expected_input == "yes_no" or editing:
            words = re.sub(r"^(?:actually|in fact|on second thought|בעצם|האמת)\s+", "", normalize(text))
            first = words.split(" ")[0] if words else ""
            held = bool(_HOLD.search(words))  # "yes wait", "ok but not yet": never a yes
            if is_yes(words) or (is_yes(first) and not is_no(words) and not held):
                return InterpreterOutput(
                    decision="continue", parsed=InterpreterParsed(approved=True, answer=text)
                )
            if not editing and (is_no(words) or (is_no(first) and not is_yes(words))):
                return InterpreterOutput(
                    decision="continue", parsed=InterpreterParsed(approved=False, answer=text)
                )
        if _is_new_request(text, inp, self._rules):
            return InterpreterOutput(decision="switch_intent", parsed=InterpreterParsed(answer=text))
        return InterpreterOutput(decision="re_ask")


_HOLD = re.compile(r"(?:^|\s)(?:wait|hold\s+on|hang\s+on|not\s+yet|רגע|חכה|חכי|עוד\s+לא)(?:\s|$)")
#: "stop reminding me about the gym", "stop the gym reminder" are requests of their own (a stop of a
#: reminder), not a "stop" to the question.
_CANCEL_LEAD = re.compile(
    r"^(?:cancel|never\s*mind|forget\s+(?:it|about\s+it)|abort|stop(?!\s+(?:reminding|the|my|all)\b)"
    r"|ביטול|בטל|תבטל|תבטלי|עזוב|עזבי|לא משנה|תשכח מזה|שכח מזה)\b",
    re.I,
)


def _starts_with_cancel(text: str) -> bool:
    return bool(_CANCEL_LEAD.match(text.strip()))


def _is_new_request(text: str, inp: InterpreterInput, rules: Planner) -> bool:
    """A complete, confident request for something else (the rule planner agrees). To a yes/no
    question, a request the planner only guesses at counts too ("add 2 cartons of milk", "we're out
    of milk" while "Just to check — ...?" is open): it is no yes or no, and asking "yes or no?"
    again would hold it back; it gets its own question if it needs one."""
    return is_complete_request(
        text,
        now=inp.now,
        timezone=inp.timezone,
        language=inp.language,
        allow_missing=True,
        allow_guess=inp.pending.expected_input == "yes_no",
        rules=rules,
    )


# --- OpenAI interpreter --------------------------------------------------------------------------


class _ModificationsWire(BaseModel):
    """The allowed fields, fixed, so the strict schema itself cannot carry ids."""

    model_config = ConfigDict(extra="ignore")

    title: str | None
    text: str | None
    when: str | None
    time: str | None
    date: str | None
    location: str | None
    description: str | None
    listName: str | None
    items: list[str] | None
    query: str | None


class _ParsedWire(BaseModel):
    model_config = ConfigDict(extra="ignore")

    approved: bool | None
    answer: str | None
    modifications: _ModificationsWire | None


class InterpreterWire(BaseModel):
    """The interpreter's strict JSON output (the response_format schema)."""

    model_config = ConfigDict(extra="ignore")

    decision: Literal["continue", "continue_with_modifications", "switch_intent", "cancel", "re_ask"]
    parsed: _ParsedWire | None


INTERPRETER_SYSTEM_PROMPT = """You classify a WhatsApp user's reply to a question the assistant asked.
Return JSON only, with one decision:
- "continue": the reply answers the question (e.g. "go ahead", "do it", "3pm"). For yes/no questions set parsed.approved.
- "continue_with_modifications": the user approves AND changes details of the SAME operation
  (e.g. "yes, and change the name to Wedding"). Put only the changed semantic fields in parsed.modifications
  (title, text, when, time, date, location, description, listName, items, query) as the user's words.
- "switch_intent": the reply is about a different request (e.g. "what are my reminders?" during a delete confirmation).
- "cancel": the user cancels ("never mind", "forget it", "ביטול").
- "re_ask": the reply is unclear ("what?", "hmm", "maybe").
Never output ids, indexes, numbers of options or tokens. Replies may be in English or Hebrew."""


def _interpreter_messages(inp: InterpreterInput) -> list[dict[str, str]]:
    pending = inp.pending
    payload = {
        "question": pending.question,
        "kind": pending.kind,
        "reason": pending.reason,
        "expectedInput": pending.expected_input,
        "options": [option.label for option in pending.options or []],
        "awaiting": pending.context.awaiting if pending.context else "answer",
        "operation": inp.origin_step.model_dump(
            mode="json", include={"capability", "action", "constraints", "changes"}
        )
        if inp.origin_step
        else None,
        "language": inp.language,
        "reply": inp.reply,
    }
    return [
        {"role": "system", "content": INTERPRETER_SYSTEM_PROMPT},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False, default=str)},
    ]


class OpenAIInterpreter:
    """Layer 2 through OpenAI (any OpenAI-compatible endpoint). `openai` is imported on first use."""

    def __init__(
        self, settings: LlmSettings, *, fallback: Interpreter | None = None, rules: Planner | None = None
    ) -> None:
        self._settings = settings
        self._fallback: Interpreter = fallback or RuleInterpreter(rules)
        self._client: OpenAI | None = None

    def _get_client(self) -> OpenAI:
        if self._client is None:
            from memo.planner.llm import openai_client

            self._client = openai_client(self._settings)
        return self._client

    def interpret(self, inp: InterpreterInput) -> InterpreterOutput:
        import openai

        try:
            completion = self._get_client().chat.completions.parse(
                model=self._settings.interpreter_model,
                messages=_interpreter_messages(inp),  # type: ignore[arg-type]
                response_format=InterpreterWire,
                temperature=INTERPRETER_TEMPERATURE,
                max_tokens=INTERPRETER_MAX_TOKENS,
            )
        except ValidationError as exc:
            logger.warning("HITL_INTERPRETER_INVALID_OUTPUT", extra={"errors": exc.error_count()})
            return InterpreterOutput(decision="re_ask")
        except (openai.LengthFinishReasonError, openai.ContentFilterFinishReasonError) as exc:
            logger.warning("HITL_INTERPRETER_INVALID_OUTPUT", extra={"error": type(exc).__name__})
            return InterpreterOutput(decision="re_ask")
        except openai.APIError as exc:
            logger.warning("HITL_INTERPRETER_FALLBACK", extra={"error": type(exc).__name__})
            return self._fallback.interpret(inp)
        message = completion.choices[0].message if completion.choices else None
        wire = message.parsed if message is not None else None
        if wire is None:
            return InterpreterOutput(decision="re_ask")
        return _from_wire(wire, inp)


def _from_wire(wire: InterpreterWire, inp: InterpreterInput) -> InterpreterOutput:
    parsed = wire.parsed
    raw_mods = parsed.modifications.model_dump() if parsed is not None and parsed.modifications else {}
    mods = sanitize_modifications(raw_mods)
    if mods:
        mods = sanitize_modifications(
            normalize_modifications(
                mods, step=inp.origin_step, now=inp.now, timezone=inp.timezone, language=inp.language
            )
        )
    if wire.decision == "continue_with_modifications" and not mods:
        # Approved "with changes" but no usable change survived: ask again rather than guess.
        return InterpreterOutput(decision="re_ask")
    return InterpreterOutput(
        decision=wire.decision,
        parsed=InterpreterParsed(
            approved=parsed.approved if parsed else None,
            answer=parsed.answer if parsed else None,
            modifications=mods or None,
        ),
    )


def build_interpreter(settings: LlmSettings, rules: Planner | None = None) -> Interpreter:
    """The OpenAI interpreter when a key is configured, else the rule interpreter; `rules` is the
    rule planner both read requests with."""
    return OpenAIInterpreter(settings, rules=rules) if settings.enabled else RuleInterpreter(rules)
