"""The DynamoDB case table's layout: keys, items <-> domain records, and page cursors. Plain Python
(items are dicts of Python values); `caseplatform.stores.dynamodb` serializes them and talks to
DynamoDB.

Items (pk / sk):
    CASE#<id> / CASE            envelope + projection + version (optimistic lock) + open question
    CASE#<id> / EV#<seq:08d>    one event (event_json is the canonical record)
    CASE#<id> / REQ#<request>   idempotency marker (copy of the event it produced)
    CASE#<id> / TERMINAL        first-terminal-wins guard (the partial unique index of SQLite) + a copy
                                of the winning event
    CASE#<id> / REF#<json>      a ref
    SUBMIT#<request> / SUBMIT   global idempotency marker of submit_case + a copy of the envelope
A command on a case reads its partition once (one Query, filtered on non-key attributes to the CASE
item, the request's event, the TERMINAL guard and the approval votes) and writes once (one
TransactWriteItems).
    ADAPTER#<id> / V#<ver:06d>  a schema version;   ADAPTER#<id> / ACTIVE  the active version (+ copy)
GSIs (see memo.tables.CASES): GSI1 cases by state, events by type, refs; GSI2 cases by adapter,
events by principal; GSI3 all cases, all schemas; GSI4 (sparse) escalation due.
"""

from __future__ import annotations

import json
from typing import Any

from caseplatform.errors import InvalidCursor
from caseplatform.model import (
    Case,
    CaseRecord,
    CaseState,
    Event,
    Principal,
    Ref,
    SchemaRecord,
    canonical_json,
)
from caseplatform.stores import cursor as cursors

STATE_FIELDS = (
    "current_state",
    "updated_at_ms",
    "active_terminal_event_id",
    "active_decision_outcome",
    "needs_clarification_since_ms",
    "escalation_due_at_ms",
    "escalated_at_ms",
    "escalation_target",
)
INDEX_KEYS = {
    None: ("pk", "sk"),
    "GSI1": ("gsi1pk", "gsi1sk"),
    "GSI2": ("gsi2pk", "gsi2sk"),
    "GSI3": ("gsi3pk", "gsi3sk"),
    "GSI4": ("gsi4pk", "gsi4sk"),
}


# ------------------------------------------------------------------ keys
def ts(ms: int) -> str:
    """A time as a sort key: zero-padded epoch milliseconds."""
    return f"{max(ms, 0):013d}"


def case_pk(case_id: str) -> str:
    return f"CASE#{case_id}"


def adapter_pk(adapter_id: str) -> str:
    return f"ADAPTER#{adapter_id}"


def version_sk(schema_version: int) -> str:
    return f"V#{schema_version:06d}"


def ref_key(ref: Ref) -> str:
    return "REF#" + canonical_json([ref.ref_type, ref.ref_key, ref.ref_value])


# ------------------------------------------------------------------ cursors
def cursor_of(item: dict[str, Any], index: str | None) -> str:
    """The cursor after `item`: its table key and its key in `index`."""
    names = {"pk", "sk", *INDEX_KEYS[index]}
    return cursors.encode({name: item[name] for name in sorted(names)})


def start_key(cursor: str) -> dict[str, Any]:
    """The key a page starts after, from a cursor `cursor_of` issued."""
    start = cursors.decode(cursor)
    if not isinstance(start, dict):
        raise InvalidCursor("cursor does not fit this query")
    return start


# ------------------------------------------------------------------ schema registry
def schema_item(record: SchemaRecord) -> dict[str, Any]:
    return {
        "pk": adapter_pk(record.adapter_id),
        "sk": version_sk(record.schema_version),
        "gsi3pk": "SCHEMAS",
        "gsi3sk": f"{record.adapter_id}#{record.schema_version:06d}",
        "adapter_id": record.adapter_id,
        "schema_version": record.schema_version,
        "schema_json": record.schema_json,
        "is_active": 0,
        "updated_at_ms": record.updated_at_ms,
    }


def active_item(version_item: dict[str, Any], now_ms: int) -> dict[str, Any]:
    """The ACTIVE pointer of an adapter: a copy of its active version's item, out of the GSI."""
    item = {**version_item, "sk": "ACTIVE", "is_active": 1, "updated_at_ms": now_ms}
    for name in ("gsi3pk", "gsi3sk"):
        item.pop(name, None)
    return item


def schema_from_item(item: dict[str, Any]) -> SchemaRecord:
    return SchemaRecord(
        item["adapter_id"],
        int(item["schema_version"]),
        json.loads(item["schema_json"]),
        bool(item["is_active"]),
        int(item["updated_at_ms"]),
    )


# ------------------------------------------------------------------ cases
def case_item(
    case: Case, state: CaseState, *, version: int, event_count: int, open_question: str | None
) -> dict[str, Any]:
    created = f"{ts(case.created_at_ms)}#{case.case_id}"
    item: dict[str, Any] = {
        "pk": case_pk(case.case_id),
        "sk": "CASE",
        "case_id": case.case_id,
        "schema_version": case.schema_version,
        "adapter_id": case.adapter_id,
        "case_type": case.case_type,
        "title": case.title,
        "summary": case.summary,
        "payload_json": case.payload_json,
        "payload_hash_sha256": case.payload_hash_sha256,
        "submitter_name": case.submitter.name,
        "submitter_role": case.submitter.role,
        "submitter_id": case.submitter.id,
        "submitter_team": case.submitter.team,
        "priority": case.priority,
        "confidence": case.confidence,
        "created_at_ms": case.created_at_ms,
        "case_updated_at_ms": case.updated_at_ms,
        "version": version,
        "event_count": event_count,
        "open_question": open_question,
        "gsi1pk": f"STATE#{state.current_state}",
        "gsi1sk": created,
        "gsi2pk": f"ADAPTER#{case.adapter_id}",
        "gsi2sk": created,
        "gsi3pk": "CASES",
        "gsi3sk": created,
    }
    for name in STATE_FIELDS:
        item[name] = getattr(state, name)
    if state.resubmissions:  # written only once a case was revised: other items are unchanged
        item["resubmissions"] = state.resubmissions
    if state.escalation_due_at_ms is not None:
        item["gsi4pk"] = "ESCALATION"
        item["gsi4sk"] = f"{ts(state.escalation_due_at_ms)}#{case.case_id}"
    return item


ENVELOPE_FIELDS = (
    "case_id",
    "schema_version",
    "adapter_id",
    "case_type",
    "title",
    "summary",
    "payload_json",
    "payload_hash_sha256",
    "submitter_name",
    "submitter_role",
    "submitter_id",
    "submitter_team",
    "priority",
    "confidence",
    "created_at_ms",
    "case_updated_at_ms",
)


def record_from_item(item: dict[str, Any], *, revision: dict[str, Any] | None = None) -> CaseRecord:
    case = case_from_item(item)
    state = CaseState(
        case_id=case.case_id,
        current_state=item["current_state"],
        updated_at_ms=int(item["updated_at_ms"]),
        active_terminal_event_id=item.get("active_terminal_event_id"),
        active_decision_outcome=item.get("active_decision_outcome"),
        needs_clarification_since_ms=item.get("needs_clarification_since_ms"),
        escalation_due_at_ms=item.get("escalation_due_at_ms"),
        escalated_at_ms=item.get("escalated_at_ms"),
        escalation_target=item.get("escalation_target"),
        resubmissions=int(item.get("resubmissions", 0)),
    )
    return CaseRecord(case, state, revision)


def case_from_item(item: dict[str, Any]) -> Case:
    """The envelope of a CASE item (or of the copy a SUBMIT marker carries)."""
    return Case(
        case_id=item["case_id"],
        schema_version=int(item["schema_version"]),
        adapter_id=item["adapter_id"],
        case_type=item["case_type"],
        title=item["title"],
        summary=item["summary"],
        payload=json.loads(item["payload_json"]),
        payload_hash_sha256=item["payload_hash_sha256"],
        submitter=Principal(
            kind="agent",
            name=item["submitter_name"],
            role=item["submitter_role"],
            id=item.get("submitter_id"),
            team=item.get("submitter_team"),
        ),
        priority=item["priority"],
        confidence=item.get("confidence"),
        created_at_ms=int(item["created_at_ms"]),
        updated_at_ms=int(item["case_updated_at_ms"]),
    )


def ref_item(case_id: str, ref: Ref) -> dict[str, Any]:
    return {"pk": case_pk(case_id), "sk": ref_key(ref), "gsi1pk": ref_key(ref), "gsi1sk": case_id}


def ref_from_item(item: dict[str, Any]) -> Ref:
    return Ref(*json.loads(item["sk"].removeprefix("REF#")))


# ------------------------------------------------------------------ events and markers
def event_item(event: Event, seq: int) -> dict[str, Any]:
    """The event as the `seq`-th of its case, indexed by type and by principal."""
    at = f"{ts(event.created_at_ms)}#{event.event_id}"
    return {
        "pk": case_pk(event.case_id),
        "sk": f"EV#{seq:08d}",
        "event_id": event.event_id,
        "event_type": event.event_type,
        "decision_outcome": event.decision_outcome,
        "created_at_ms": event.created_at_ms,
        "request_id": event.request_id,
        "event_json": event.event_json,
        "gsi1pk": f"EVTYPE#{event.event_type}",
        "gsi1sk": at,
        "gsi2pk": f"ACTOR#{event.actor.principal}",
        "gsi2sk": at,
    }


def request_marker(event: Event) -> dict[str, Any]:
    """The idempotency marker of the event's (case, request_id)."""
    return {"pk": case_pk(event.case_id), "sk": f"REQ#{event.request_id}", "event_json": event.event_json}


def submit_marker(event: Event, case_item: dict[str, Any] | None = None) -> dict[str, Any]:
    """The global idempotency marker of a submit_case request_id, with a copy of the case's envelope
    (from its CASE item: immutable) so a retry is answered from the marker alone."""
    marker = {"pk": f"SUBMIT#{event.request_id}", "sk": "SUBMIT", "event_json": event.event_json}
    if case_item is not None:
        marker.update({name: case_item[name] for name in ENVELOPE_FIELDS})
    return marker


def terminal_guard(event: Event) -> dict[str, Any]:
    """First terminal wins: only one decision can create this item. It carries the winning event, so
    a later decision is refused (ALREADY_TERMINAL, naming the winner) from the case's one read."""
    return {
        "pk": case_pk(event.case_id),
        "sk": "TERMINAL",
        "event_id": event.event_id,
        "event_json": event.event_json,
    }


def event_from_item(item: dict[str, Any]) -> Event:
    return Event.from_json(item["event_json"])


def open_question_after(event: Event, state: CaseState, before: str | None) -> str | None:
    """The case's open question once `event` is applied (`before`: the open question until then)."""
    if state.current_state != "needs_clarification":
        return None
    return event.question if event.event_type == "needs_clarification" else before
