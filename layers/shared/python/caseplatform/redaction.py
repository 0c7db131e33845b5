"""The redaction hook: applied to free text and payload strings at ingestion, before anything is
hashed or stored, so sensitive identifiers never reach the event log.

A redactor is any `Callable[[str], str]`; it must be deterministic (the same input always gives the
same output), because idempotency compares what a retry would store with what was stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Redactor = Callable[[str], str]

_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
_PHONE = re.compile(r"(?<![\w-])\+?\d{9,15}(?![\w-])")


def no_redaction(text: str) -> str:
    return text


def mask_contacts(text: str) -> str:
    """Mask e-mail addresses and phone-number-like digit runs (9-15 digits, optional leading +)."""
    return _PHONE.sub("[redacted-phone]", _EMAIL.sub("[redacted-email]", text))


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
