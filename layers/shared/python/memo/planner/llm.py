"""The OpenAI planner: structured outputs over any OpenAI-compatible endpoint.

`OpenAIPlanner.plan` sends the message with recent messages, the latest actions (last 3, most
recent first), now, the timezone and the language (and, when re-planning after intent_unclear,
the user's clarification), and asks for `PlannerWire` through `chat.completions.parse` (the
pydantic model is the strict JSON schema). Free-form step maps travel as key/value lists because
strict schemas cannot hold open objects; `to_planner_output` converts them explicitly.

On any OpenAI error (connection, timeout, HTTP status, length/content-filter), invalid output
(pydantic ValidationError) or a refusal, it logs PLANNER_FALLBACK and returns the rule planner's
plan. The `openai` package is imported only inside `openai_client` / `plan` (a test proves that
importing this module does not import it). Whatever the source, `enforce_risk_policy` applies:
deletes are high risk, bulk deletes also need approval.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, ValidationError

from memo.domain import PlannerOutput, PlanStep, RoutingSuggestion
from memo.observability import logger
from memo.planner.base import Planner, PlannerInput, PlannerResult, enforce_risk_policy
from memo.planner.rules import RulePlanner
from memo.planner.time_phrases import resolve_phrases
from memo.settings import LlmSettings
from memo.text.recurrence import find_recurrence

if TYPE_CHECKING:
    from openai import OpenAI

PLANNER_TEMPERATURE = 0.0
PLANNER_MAX_TOKENS = 800


def openai_client(settings: LlmSettings) -> OpenAI:
    """An OpenAI client with the configured key, base URL, timeout and retries (imports openai)."""
    import openai

    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key is not None else ""
    return openai.OpenAI(
        api_key=key,
        base_url=settings.openai_base_url,
        timeout=settings.timeout_seconds,
        max_retries=settings.max_retries,
    )


# --- wire models (the JSON schema the model must follow) -----------------------------------------


class KeyValueWire(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: str
    value: str | list[str]


class PlanStepWire(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    capability: Literal["reminders", "notes", "lists", "calendar", "email", "general"]
    action: str
    constraints: list[KeyValueWire]
    changes: list[KeyValueWire]
    dependsOn: list[str]


class RoutingSuggestionWire(BaseModel):
    model_config = ConfigDict(extra="forbid")

    capability: Literal["reminders", "notes", "lists", "calendar", "email", "general"]
    action: str | None
    confidence: float
    reason: str


class PlannerWire(BaseModel):
    """The planner's structured output: PlannerOutput plus routingSuggestions."""

    model_config = ConfigDict(extra="forbid")

    intentType: Literal["operation", "conversation", "meta"]
    confidence: float
    riskLevel: Literal["low", "medium", "high"]
    needsApproval: bool
    missingFields: list[str]
    plan: list[PlanStepWire]
    routingSuggestions: list[RoutingSuggestionWire]


def _clamp(value: float) -> float:
    return min(1.0, max(0.0, value))


def to_planner_output(wire: PlannerWire, inp: PlannerInput) -> tuple[PlannerOutput, list[RoutingSuggestion]]:
    """Convert the wire answer to the domain types (raises ValidationError when inconsistent).

    The model writes the words of each time and their role (`whenText`, `shiftText`, `dayText`);
    `memo.planner.time_phrases` resolves them as the rule planner resolves the same words, against
    the message's now and the user's timezone. A time it cannot resolve is asked, never guessed."""
    steps: list[PlanStep] = []
    missing = list(dict.fromkeys(wire.missingFields))
    for step in wire.plan:
        constraints, changes, unresolved = resolve_phrases(
            step.capability,
            step.action,
            {kv.key: kv.value for kv in step.constraints},
            {kv.key: kv.value for kv in step.changes},
            inp,
        )
        missing += [field for field in unresolved if field not in missing]
        steps.append(
            PlanStep(
                id=step.id,
                capability=step.capability,
                action=step.action,
                constraints=constraints,
                changes=changes,
                depends_on=list(step.dependsOn),
            )
        )
    output = PlannerOutput(
        intent_type=wire.intentType,
        confidence=_clamp(wire.confidence),
        risk_level=wire.riskLevel,
        needs_approval=wire.needsApproval,
        missing_fields=missing,
        plan=steps,
    )
    suggestions = [
        RoutingSuggestion(
            capability=s.capability, action=s.action, confidence=_clamp(s.confidence), reason=s.reason[:200]
        )
        for s in wire.routingSuggestions
    ]
    return enforce_risk_policy(output), suggestions


PLANNER_SYSTEM_PROMPT = """You are the planner of Memo, a WhatsApp assistant (English and Hebrew).
Turn the user's message into a plan. Capabilities and actions:
- reminders: create {constraints: title, whenText}, list {constraints: dayText?}, update {constraints: target | targetRef; changes: whenText? | shiftText?, title?},
  delete {constraints: target | targetRef}, delete_all {constraints: keep?, only?}
- notes: save {changes: text}, search {constraints: query}, update {constraints: target | targetRef, changes: text (the note's new text, or only its new value: "actually it's 4312")}, delete {constraints: target | targetRef}, delete_all {constraints: keep?, only?}
- lists: add / remove {constraints: listName; changes: items (list)}, update {constraints: listName, target (the item's words now); changes: text (its new words)} ("change eggs to 12 eggs"), show {constraints: listName}, clear {constraints: listName, keep?, only?}, show_all {} ("what lists do I have?"); listName is the user's own words ("groceries", "קניות"); omit listName when no list is named ("what's on my list?", "take milk off the list")
- calendar, email: any action, constraints {text} (they are refused later if not connected)
- general: reply {constraints: kind = greeting|thanks|smalltalk|help} for conversation/meta intents
Rules:
- Never compute a date or time: copy the user's own words for it, and say its role by the key. `whenText` of a
  new reminder is all its time words, repetition and end included ("tomorrow at 6:15pm", "every weekday at 7",
  "every 2 hours until Friday", "כל יום ראשון בעשר"); `whenText` of an update is the new time ("to friday at 10"
  -> "friday at 10"); `shiftText` is an amount to move by ("snooze it 10 min" -> "10 min", "push it an hour
  earlier" -> "an hour earlier"); `dayText` is the days a listing asks about ("tomorrow", "next week").
  A reminder with no time words has no whenText. Memo resolves the words in the user's timezone and asks
  about any it cannot resolve.
- missingFields values: reminder_time_required, reminder_title_required, note_text_required, list_items_required, target_unclear, time_unclear, which_one, intent_unclear.
- Referential language ("it", "that", "זה", "אותו") refers to the most recent latest action: use targetRef "latest_action"
  and target = its summary; "the last one" ("האחרון") after a request that made several adds refPlace "last".
  Only use intent_unclear when no latest action is plausible and the request is unclear.
- confidence is honest (0..1). riskLevel: create/read low, update medium, any delete high.
  Deleting everything (delete_all, clear) is high risk and needsApproval true. Never drop words that limit it:
  what to keep goes in `keep` as said ("delete all my reminders except call mom" -> keep "call mom"; "חוץ מלחם" ->
  keep "לחם"), which ones in `only` ("delete my reminders for tomorrow" -> delete_all, only "for tomorrow").
- Step ids are "s1", "s2", ...; dependsOn lists ids of earlier steps the step needs. Several requests in one
  message ("remind me to X at 4pm and add flour to my shopping list") are several steps, in the order written.
- The requested action wins over greetings, thanks and things mentioned in passing ("I have a meeting tomorrow
  so remind me to call the plumber at 8" is a reminder). Read typos and chat spelling as meant ("remnd", "tmrw").
- Titles and items are the user's words without filler ("please", "thanks"), without the time words, and in
  lower case when the message is typed in capitals.
- routingSuggestions: the capabilities this message most likely belongs to, best first.
- Never invent entity ids."""


def planner_messages(inp: PlannerInput) -> list[dict[str, str]]:
    recent = "\n".join(f"{m.role}: {m.text}" for m in inp.recent_messages[-10:]) or "(none)"
    latest = (
        "\n".join(
            f"{i + 1}. {a.capability}/{a.action}: {a.summary}"
            + (f" (when {a.when.isoformat()})" if a.when else "")
            + f" at {a.created_at.isoformat()}"
            for i, a in enumerate(inp.latest_actions)
        )
        or "(none)"
    )
    parts = [
        f"## Recent messages\n{recent}",
        f"## Latest Actions (most recent first)\n{latest}",
        f"## Now\n{inp.now.isoformat()}",
        f"## Timezone\n{inp.timezone}",
        f"## Language\n{inp.language}",
        f"## Message\n{inp.message}",
    ]
    if inp.clarification:
        parts.append(
            "## Clarification\nYou asked the user what they meant; this is their answer. Re-plan the message with it:\n"
            + inp.clarification
        )
    return [
        {"role": "system", "content": PLANNER_SYSTEM_PROMPT},
        {"role": "user", "content": "\n\n".join(parts)},
    ]


def _repetition_lost(inp: PlannerInput, output: PlannerOutput) -> bool:
    """A reminder created without a repetition from words that say one (`memo.text.recurrence`)."""
    creates = [s for s in output.plan if s.capability == "reminders" and s.action == "create"]
    if not creates or any("recurrence" in s.constraints for s in creates):
        return False
    now_local = inp.now.astimezone(ZoneInfo(inp.timezone))
    return (
        find_recurrence(inp.message, timezone=inp.timezone, now_local=now_local, language=inp.language)
        is not None
    )


class OpenAIPlanner:
    """Planner through OpenAI structured outputs, with the rule planner as the fallback."""

    def __init__(self, settings: LlmSettings, *, fallback: Planner | None = None) -> None:
        self._settings = settings
        self._fallback: Planner = fallback or RulePlanner()
        self._client: OpenAI | None = None

    def _get_client(self) -> OpenAI:
        if self._client is None:
            self._client = openai_client(self._settings)
        return self._client

    def _fall_back(self, inp: PlannerInput, reason: str) -> PlannerResult:
        logger.warning("PLANNER_FALLBACK", extra={"reason": reason, "model": self._settings.planner_model})
        result = self._fallback.plan(inp)
        return PlannerResult(
            output=result.output,
            routing_suggestions=result.routing_suggestions,
            source=result.source,
            fallback_reason=reason,
        )

    def plan(self, inp: PlannerInput) -> PlannerResult:
        result = self._plan(inp)
        if result.source == "llm" and _repetition_lost(inp, result.output):
            # The words say it repeats and the model made a one-off: the rules read repetitions exactly.
            return self._fall_back(inp, "recurrence_missing")
        return result

    def _plan(self, inp: PlannerInput) -> PlannerResult:
        import openai

        try:
            completion = self._get_client().chat.completions.parse(
                model=self._settings.planner_model,
                messages=planner_messages(inp),  # type: ignore[arg-type]
                response_format=PlannerWire,
                temperature=PLANNER_TEMPERATURE,
                max_tokens=PLANNER_MAX_TOKENS,
            )
            message = completion.choices[0].message if completion.choices else None
            wire = message.parsed if message is not None else None
            if wire is None:
                return self._fall_back(inp, "refusal_or_empty")
            output, suggestions = to_planner_output(wire, inp)
        except ValidationError:
            return self._fall_back(inp, "invalid_output")
        except (openai.LengthFinishReasonError, openai.ContentFilterFinishReasonError) as exc:
            return self._fall_back(inp, type(exc).__name__)
        except openai.APITimeoutError:
            return self._fall_back(inp, "timeout")
        except openai.APIError as exc:
            return self._fall_back(inp, type(exc).__name__)
        logger.info(
            "PLANNER_RESULT",
            extra={
                "source": "llm",
                "intentType": output.intent_type,
                "confidence": output.confidence,
                "steps": [f"{s.capability}/{s.action}" for s in output.plan],
            },
        )
        return PlannerResult(output=output, routing_suggestions=suggestions, source="llm")
