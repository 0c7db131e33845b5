"""The redaction hook: applied to free text and payload strings at ingestion, before anything is
hashed or stored, so sensitive identifiers never reach the event log.

A redactor is any `Callable[[str], str]`; it must be deterministic (the same input always gives the
same output), because idempotency compares what a retry would store with what was stored.

And redaction after the fact: named payload fields blanked in the stored payload, recorded as a
`redacted` event (the fields, the reason as its notes, the actor, the payload's hash after; the
command is `caseplatform.commands.redact`).

Fields are dotted paths from the payload's root (`contact.phone`), as in `x-hitl.sensitive_fields`.
A blanked field keeps its key and holds `REDACTED`. The envelope's `payload_hash_sha256` stays the
hash of the payload as submitted (the audit trail of what was submitted); the event carries the hash
of the payload as stored after it. Events are never rewritten: an earlier edit's `approved_payload`
or a revision's `revised_payload` keeps its text in the event log, and the case's views (the payload
as read, its latest revision) apply every `redacted` event of the case (`apply_redactions`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from caseplatform.model import Event, canonical_json, sha256_hex

Redactor = Callable[[str], str]

_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
_PHONE = re.compile(r"(?<![\w-])\+?\d{9,15}(?![\w-])")


def no_redaction(text: str) -> str:
    return text


PHONE_MASK = "[redacted-phone]"
EMAIL_MASK = "[redacted-email]"


def mask_contacts(text: str) -> str:
    """Mask e-mail addresses and phone-number-like digit runs (9-15 digits, optional leading +)."""
    return _PHONE.sub(PHONE_MASK, _EMAIL.sub(EMAIL_MASK, text))


REDACTORS: dict[str, Redactor] = {"none": no_redaction, "contacts": mask_contacts}


def redact_tree(value: Any, redactor: Redactor) -> Any:
    """Apply `redactor` to every string leaf of a JSON value (keys are left alone)."""
    if isinstance(value, str):
        return redactor(value)
    if isinstance(value, dict):
        return {key: redact_tree(item, redactor) for key, item in value.items()}
    if isinstance(value, list):
        return [redact_tree(item, redactor) for item in value]
    return value


# ------------------------------------------------------------------ fields redacted after the fact
REDACTED = "[redacted]"
# What redaction writes in place of a value: a text holding one is not what was said.
MASKS = (PHONE_MASK, EMAIL_MASK, REDACTED)
# Bounds of one redaction: how many fields, how long a path.
MAX_FIELDS = 50
MAX_PATH_CHARS = 200


def path_problems(fields: Sequence[str]) -> list[dict[str, str]]:
    """What is wrong with the requested field paths (empty: they are well formed)."""
    if not isinstance(fields, list | tuple) or not fields:
        return [{"path": "$.fields", "message": "name at least one field to redact"}]
    if len(fields) > MAX_FIELDS:
        return [{"path": "$.fields", "message": f"{len(fields)} fields; the limit is {MAX_FIELDS}"}]
    problems = []
    for index, path in enumerate(fields):
        if not isinstance(path, str) or not path or len(path) > MAX_PATH_CHARS or "" in path.split("."):
            message = f"a dotted path of at most {MAX_PATH_CHARS} characters, like `contact.phone`"
            problems.append({"path": f"$.fields[{index}]", "message": message})
    return problems


def present(payload: Any, path: str) -> bool:
    """Whether `payload` has the field at the dotted `path`."""
    *parents, leaf = path.split(".")
    node = payload
    for key in parents:
        node = node.get(key) if isinstance(node, dict) else None
    return isinstance(node, dict) and leaf in node


def blank_fields(payload: dict[str, Any], fields: Iterable[str]) -> dict[str, Any]:
    """A copy of `payload` with each present field of `fields` set to REDACTED (absent ones skipped)."""
    blanked = copy.deepcopy(payload)
    for path in fields:
        if present(blanked, path):
            *parents, leaf = path.split(".")
            node: Any = blanked
            for key in parents:
                node = node[key]
            node[leaf] = REDACTED
    return blanked


def payload_hash(payload: dict[str, Any]) -> str:
    return sha256_hex(canonical_json(payload))


def redacted_paths(events: Iterable[Event]) -> tuple[str, ...]:
    """Every field the case's `redacted` events blanked, in the order first blanked."""
    paths: dict[str, None] = {}
    for event in events:
        if event.event_type == "redacted" and event.redacted_fields:
            paths.update(dict.fromkeys(event.redacted_fields))
    return tuple(paths)


def apply_redactions(payload: Any, events: Iterable[Event]) -> Any:
    """`payload` (a revision or an approved payload read from the events) with the case's redactions
    applied: what a view shows once a field was redacted."""
    paths = redacted_paths(events)
    if not paths or not isinstance(payload, dict):
        return payload
    return blank_fields(payload, paths)
