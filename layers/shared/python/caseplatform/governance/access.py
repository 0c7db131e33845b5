"""Sensitive payload fields, hidden from callers who may read an adapter's cases but neither review
nor submit them (the review API's `viewers:<adapter>` group).

An adapter marks the fields in its schema's `x-hitl` (validated with the rest of it):

    "sensitive_fields": ["site", "contact.phone"]      # dotted paths from the payload's root

A viewer reads each such field that is present as `HIDDEN`, wherever a payload appears in the case's
answer: the payload as stored and as read, the case view's sections, an approval's edited payload
and the final payload; and a list shows a viewer the case's title instead of a summary line built
from the payload. Reviewers and agents of the adapter read everything.
"""

from __future__ import annotations

import copy
from typing import Any

from caseplatform.model import SchemaRecord

HIDDEN = "[hidden]"


def sensitive_fields(active: SchemaRecord | None) -> tuple[str, ...]:
    """The fields the adapter's active schema marks sensitive (none without a schema)."""
    if active is None:
        return ()
    return tuple((active.schema.get("x-hitl") or {}).get("sensitive_fields", ()))


def mask_payload(payload: Any, fields: tuple[str, ...]) -> Any:
    """A copy of `payload` with each present field of `fields` replaced by HIDDEN."""
    if not fields or not isinstance(payload, dict):
        return payload
    masked = copy.deepcopy(payload)
    for path in fields:
        *parents, leaf = path.split(".")
        node: Any = masked
        for key in parents:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict) and leaf in node:
            node[leaf] = HIDDEN
    return masked


def mask_case_answer(answer: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    """The review API's case answer with the fields hidden everywhere it carries a payload (the
    view is built by the caller from the masked payload)."""
    if not fields:
        return answer
    case = answer.get("case")
    if isinstance(case, dict):
        for key in ("payload", "payload_as_read"):
            if key in case:
                case[key] = mask_payload(case[key], fields)
    for event in [*(answer.get("history") or []), *(answer.get("items") or [])]:  # a case's, or a history's
        if event.get("approved_payload") is not None:
            event["approved_payload"] = mask_payload(event["approved_payload"], fields)
    if isinstance(case, dict) and case.get("payload_problems"):  # a problem's message may quote a value
        case["payload_problems"] = [{**p, "message": HIDDEN} for p in case["payload_problems"]]
    decision = answer.get("decision")
    if isinstance(decision, dict) and decision.get("approved_payload") is not None:
        decision["approved_payload"] = mask_payload(decision["approved_payload"], fields)
    if answer.get("final_payload") is not None:
        answer["final_payload"] = mask_payload(answer["final_payload"], fields)
    return answer
