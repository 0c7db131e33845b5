"""Envelope validation with size bounds, done with JSON Schema like the adapter payloads.

The envelope schemas below are the canonical definitions of what callers send; every tool argument
is checked against them before anything is written. Errors come back as `details`, one
`{path, message}` per problem, sorted, so a caller can fix all of them at once.
"""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from caseplatform.compiled import compile_check
from caseplatform.model import ASSURANCES, PRIORITIES, STRUCTURED_DECISIONS, canonical_json

MAX_TITLE = 200
MAX_SUMMARY = 4000
MAX_TEXT = 4000  # notes, question, answer
MAX_PAYLOAD_BYTES = 64 * 1024
MAX_SCHEMA_BYTES = 64 * 1024
MAX_REFS = 50
MAX_REQUEST_ID = 128
MAX_MESSAGE = 300

_ID_PATTERN = "^[a-z][a-z0-9_]{1,63}$"
_NON_BLANK = r"\S"

_REQUEST_ID: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_REQUEST_ID,
    "pattern": _NON_BLANK,
}
_SHORT: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 200, "pattern": _NON_BLANK}
_OPTIONAL_SHORT: dict[str, Any] = {"type": ["string", "null"], "minLength": 1, "maxLength": 200}
_PERSON: dict[str, Any] = {
    "name": _SHORT,
    "role": _SHORT,
    "id": _OPTIONAL_SHORT,
    "team": _OPTIONAL_SHORT,
    # Set by the surface that authenticated the person (never taken from a remote caller).
    "assurance": {"enum": list(ASSURANCES)},
}

SUBMIT_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["adapter_id", "case_type", "title", "summary", "payload", "submitter", "request_id"],
    "properties": {
        "adapter_id": {"type": "string", "pattern": _ID_PATTERN},
        "case_type": {"type": "string", "pattern": _ID_PATTERN},
        "title": {"type": "string", "minLength": 1, "maxLength": MAX_TITLE, "pattern": _NON_BLANK},
        "summary": {"type": "string", "minLength": 1, "maxLength": MAX_SUMMARY, "pattern": _NON_BLANK},
        "payload": {"type": "object"},
        "submitter": {
            "type": "object",
            "additionalProperties": False,
            "required": ["name", "role"],
            "properties": _PERSON,
        },
        "priority": {"enum": list(PRIORITIES)},
        "confidence": {"enum": ["high", "medium", "low", None]},
        "refs": {
            "type": "array",
            "maxItems": MAX_REFS,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["ref_type", "ref_key", "ref_value"],
                "properties": {
                    "ref_type": _SHORT,
                    "ref_key": _SHORT,
                    "ref_value": {**_SHORT, "maxLength": 512},
                },
            },
        },
        "request_id": _REQUEST_ID,
    },
}

# Callers act as operators or agents; `system` is reserved for the platform's own events (escalation).
ACTION_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["case_id", "notes", "actor", "request_id"],
    "properties": {
        "case_id": {"type": "string", "pattern": "^HITL-[0-9a-f-]{36}$"},
        "notes": {"type": "string", "maxLength": MAX_TEXT},
        "question": {"type": "string", "maxLength": MAX_TEXT},
        "answer": {"type": "string", "maxLength": MAX_TEXT},
        "decision": {"enum": ["approved", "rejected"]},
        "structured_decision": {"enum": list(STRUCTURED_DECISIONS)},
        "feedback": {"type": "string", "maxLength": MAX_TEXT},
        "answers": {"type": ["array", "object"]},
        "actor": {
            "type": "object",
            "additionalProperties": False,
            "required": ["name", "role"],
            "properties": {**_PERSON, "kind": {"enum": ["operator", "agent"]}},
        },
        "request_id": _REQUEST_ID,
    },
}

_SUBMIT_VALIDATOR = Draft202012Validator(SUBMIT_SCHEMA)
_ACTION_VALIDATOR = Draft202012Validator(ACTION_SCHEMA)
# Compiled once: a valid envelope (the usual case) is checked without walking the schema; an invalid
# one is validated again by jsonschema for its error details.
_SUBMIT_CHECK = compile_check(SUBMIT_SCHEMA)
_ACTION_CHECK = compile_check(ACTION_SCHEMA)


def error_details(errors: list[ValidationError]) -> list[dict[str, str]]:
    details = [{"path": e.json_path, "message": e.message[:MAX_MESSAGE]} for e in errors]
    return sorted(details, key=lambda d: (d["path"], d["message"]))


def check_submit(arguments: dict[str, Any], payload_json: str | None = None) -> list[dict[str, str]]:
    """`payload_json`: the payload's canonical JSON when the caller has it already."""
    valid = _SUBMIT_CHECK is not None and _SUBMIT_CHECK(arguments)
    details = [] if valid else error_details(list(_SUBMIT_VALIDATOR.iter_errors(arguments)))
    payload = arguments.get("payload")
    if isinstance(payload, dict):
        size = len((canonical_json(payload) if payload_json is None else payload_json).encode("utf-8"))
        if size > MAX_PAYLOAD_BYTES:
            details.append(
                {"path": "$.payload", "message": f"payload is {size} bytes; the limit is {MAX_PAYLOAD_BYTES}"}
            )
    return details


def check_action(arguments: dict[str, Any]) -> list[dict[str, str]]:
    if _ACTION_CHECK is not None and _ACTION_CHECK(arguments):
        return []
    return error_details(list(_ACTION_VALIDATOR.iter_errors(arguments)))
