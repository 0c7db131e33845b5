"""Adapter schemas: validation of schema documents and payloads, per-adapter policy (upcasting:
`caseplatform.evolution`, whose `upcast` is re-exported here).

An adapter schema is a JSON Schema (draft 2020-12) document. Its `x-hitl` keyword (ignored by JSON
Schema validators) carries the adapter's configuration, so policy lives in data, not code:

    "x-hitl": {
      "clarification_sla_days": 30,         # needs_clarification longer than this escalates
      "sla_clock": "calendar",              # or "business" (Monday-Friday, UTC)
      "escalation_target": "lgv-tier2",     # who is notified
      "reescalation_interval_days": 7,      # repeat while unresolved; absent = escalate once
      "required_approvers": 2,              # distinct principals who must approve (default 1)
      "allowed_decisions": ["approve", "reject"],  # of approve|edit|reject|respond (default all but
                                            # respond); a payload's own `allowed_decisions` list
                                            # wins (respond only where this list names it)
      "always_require_feedback": false,     # feedback mandatory on every decision
      "enable_feedback_tool": false,        # agents may leave feedback on open cases (leave_feedback)
      "upcast": {"rename": {"old": "new"}, "drop": ["gone"], "convert": {"count": "integer"},
                 "defaults": {"field": "value"}},
      "migration": {"plan": "older cases are decided as they are", "accepts": ["values_narrowed:priority"]}
    }

`upcast` describes how a payload of the previous version reads as this version; a version without
it reads older payloads unchanged (backward-compatible additions need no upcaster). A version that
breaks the one before it is registered only when its upcaster covers each breaking change or its
declared `migration` accepts it (`caseplatform.evolution`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import resources
from typing import Any, Literal

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from caseplatform.compiled import compile_check
from caseplatform.errors import PayloadInvalid
from caseplatform.evolution import CONVERSIONS
from caseplatform.evolution import upcast as upcast  # re-exported
from caseplatform.model import STRUCTURED_DECISIONS
from caseplatform.validation import error_details

DAY_MS = 24 * 3600 * 1000
DEFAULT_SLA_DAYS = 30
DEFAULT_ESCALATION_TARGET = "adapter-owners"
# `respond` (feedback back to the submitter, the case ends rejected) only where an adapter lists it.
DEFAULT_DECISIONS: tuple[str, ...] = tuple(d for d in STRUCTURED_DECISIONS if d != "respond")

POLICY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "clarification_sla_days": {"type": "number", "exclusiveMinimum": 0, "maximum": 3650},
        "sla_clock": {"enum": ["calendar", "business"]},
        "escalation_target": {"type": "string", "minLength": 1, "maxLength": 200},
        "reescalation_interval_days": {"type": "number", "exclusiveMinimum": 0, "maximum": 3650},
        "required_approvers": {"type": "integer", "minimum": 1, "maximum": 5},
        "always_require_feedback": {"type": "boolean"},
        "enable_feedback_tool": {"type": "boolean"},
        "allowed_decisions": {
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "items": {"enum": list(STRUCTURED_DECISIONS)},
        },
        "upcast": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "rename": {"type": "object", "additionalProperties": {"type": "string", "minLength": 1}},
                "defaults": {"type": "object"},
                "drop": {"type": "array", "items": {"type": "string", "minLength": 1}},
                "convert": {"type": "object", "additionalProperties": {"enum": list(CONVERSIONS)}},
            },
        },
        # Payload fields a viewer does not see (caseplatform.governance.access).
        "sensitive_fields": {
            "type": "array",
            "maxItems": 50,
            "uniqueItems": True,
            "items": {"type": "string", "minLength": 1, "maxLength": 200},
        },
        # What is kept of a decided case, and for how long (caseplatform.governance.retention): after
        # `after_days` the `purge_fields` are blanked, or (`archive`) the case is archived and its whole
        # payload blanked.
        "retention": {
            "type": "object",
            "additionalProperties": False,
            "required": ["after_days"],
            "anyOf": [{"required": ["purge_fields"]}, {"required": ["archive"]}],
            "properties": {
                "after_days": {"type": "number", "exclusiveMinimum": 0, "maximum": 36500},
                "purge_fields": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 50,
                    "uniqueItems": True,
                    "items": {"type": "string", "minLength": 1, "maxLength": 200},
                },
                "archive": {"const": True},
            },
        },
        # Reassignment of pending cases to higher tiers (caseplatform.governance.tiers).
        "escalation_tiers": {"$ref": "#/$defs/tiers"},
        "team_escalation_tiers": {"type": "object", "additionalProperties": {"$ref": "#/$defs/tiers"}},
        "migration": {
            "type": "object",
            "additionalProperties": False,
            "required": ["plan", "accepts"],
            "properties": {
                "plan": {"type": "string", "minLength": 1, "maxLength": 2000},
                "accepts": {
                    "type": "array",
                    "uniqueItems": True,
                    "items": {"type": "string", "pattern": "^[a-z_]+:.+$", "maxLength": 300},
                },
            },
        },
    },
}
POLICY_SCHEMA["$defs"] = {
    "tiers": {
        "type": "array",
        "maxItems": 10,
        "items": {
            "type": "object",
            "additionalProperties": False,
            "required": ["after_minutes", "target"],
            "properties": {
                "after_minutes": {"type": "number", "exclusiveMinimum": 0, "maximum": 5_256_000},
                "target": {"type": "string", "minLength": 1, "maxLength": 200},
            },
        },
    }
}
_POLICY_VALIDATOR = Draft202012Validator(POLICY_SCHEMA)


@dataclass(frozen=True)
class AdapterPolicy:
    clarification_sla_days: float = DEFAULT_SLA_DAYS
    sla_clock: Literal["calendar", "business"] = "calendar"
    escalation_target: str = DEFAULT_ESCALATION_TARGET
    reescalation_interval_days: float | None = None
    required_approvers: int = 1
    allowed_decisions: tuple[str, ...] = DEFAULT_DECISIONS
    # Feedback is mandatory on every decision (FEEDBACK_REQUIRED otherwise).
    always_require_feedback: bool = False
    # The agent-facing feedback tool (`leave_feedback`) records feedback on the adapter's open cases.
    enable_feedback_tool: bool = False

    def allowed_for(self, payload: dict[str, Any]) -> tuple[str, ...]:
        """The decisions a reviewer may take on a case: the payload's own `allowed_decisions` (a
        question case names them) when it lists known decisions, else the adapter's. `respond` only
        where the adapter's own list names it."""
        named = payload.get("allowed_decisions")
        if isinstance(named, list) and named and all(d in STRUCTURED_DECISIONS for d in named):
            return tuple(
                d
                for d in STRUCTURED_DECISIONS
                if d in named and (d != "respond" or "respond" in self.allowed_decisions)
            )
        return self.allowed_decisions

    def due_at(self, start_ms: int, days: float | None = None) -> int:
        """When a clock started at `start_ms` runs out after `days` (default: the SLA)."""
        span = self.clarification_sla_days if days is None else days
        if self.sla_clock == "calendar":
            return start_ms + round(span * DAY_MS)
        return _add_business_days(start_ms, span)

    def next_escalation_at(self, escalated_at_ms: int) -> int | None:
        if self.reescalation_interval_days is None:
            return None
        return self.due_at(escalated_at_ms, self.reescalation_interval_days)


def _add_business_days(start_ms: int, days: float) -> int:
    """Count only Monday-Friday (UTC); whole days step over weekends, a fraction is added at the end."""
    moment = datetime.fromtimestamp(start_ms / 1000, tz=UTC)
    whole = int(days)
    while moment.weekday() >= 5:  # a clock started on a weekend starts on Monday
        moment = (moment + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    while whole > 0:
        moment += timedelta(days=1)
        if moment.weekday() < 5:
            whole -= 1
    moment += timedelta(days=days - int(days))
    return int(moment.timestamp() * 1000)


def policy_of(schema: dict[str, Any]) -> AdapterPolicy:
    raw = schema.get("x-hitl") or {}
    return AdapterPolicy(
        clarification_sla_days=raw.get("clarification_sla_days", DEFAULT_SLA_DAYS),
        sla_clock=raw.get("sla_clock", "calendar"),
        escalation_target=raw.get("escalation_target", DEFAULT_ESCALATION_TARGET),
        reescalation_interval_days=raw.get("reescalation_interval_days"),
        required_approvers=raw.get("required_approvers", 1),
        allowed_decisions=tuple(
            d for d in STRUCTURED_DECISIONS if d in raw.get("allowed_decisions", DEFAULT_DECISIONS)
        ),
        always_require_feedback=raw.get("always_require_feedback", False),
        enable_feedback_tool=raw.get("enable_feedback_tool", False),
    )


def check_schema_document(schema: Any) -> list[dict[str, str]]:
    """Problems of a schema document given to register_adapter_schema (empty list: valid)."""
    if not isinstance(schema, dict):
        return [{"path": "$", "message": "schema_json must be a JSON object"}]
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        return [{"path": exc.json_path, "message": exc.message[:300]}]
    details = error_details(list(_POLICY_VALIDATOR.iter_errors(schema.get("x-hitl", {}))))
    return [{"path": "$.x-hitl" + d["path"][1:], "message": d["message"]} for d in details]


class PayloadValidator:
    """One adapter schema's payload validation, built once per schema version (see
    `SchemaRegistry.validator`): the compiled check answers valid payloads, jsonschema (also built
    once) reports what is wrong with the others."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self._check = compile_check(schema)
        self._validator = Draft202012Validator(schema)

    def validate(self, payload: dict[str, Any]) -> None:
        """PAYLOAD_INVALID with every problem (paths under `$.payload`)."""
        if self._check is not None and self._check(payload):
            return
        _raise_payload_errors(error_details(list(self._validator.iter_errors(payload))))


def validate_payload(schema: dict[str, Any], payload: dict[str, Any]) -> None:
    """Validate with a validator built for this call (a cached one: `SchemaRegistry.validator`)."""
    _raise_payload_errors(error_details(list(Draft202012Validator(schema).iter_errors(payload))))


def _raise_payload_errors(details: list[dict[str, str]]) -> None:
    if details:
        raise PayloadInvalid(
            [{"path": "$.payload" + d["path"][1:], "message": d["message"]} for d in details]
        )


def default_adapter_schemas() -> dict[str, dict[str, Any]]:
    """The adapters registered (version 1, active) on first start: every `adapters/<id>.v1.json`."""
    found: dict[str, dict[str, Any]] = {}
    for entry in resources.files("caseplatform.adapters").iterdir():
        if entry.name.endswith(".v1.json"):
            found[entry.name.removesuffix(".v1.json")] = json.loads(entry.read_text(encoding="utf-8"))
    return found
