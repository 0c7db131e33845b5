"""DynamoDB store (deployed): one table, `TransactWriteItems` and condition expressions.

Items (pk / sk):
    CASE#<id> / CASE            envelope + projection + version (optimistic lock) + open question
    CASE#<id> / EV#<seq:08d>    one event (event_json is the canonical record)
    CASE#<id> / REQ#<request>   idempotency marker (copy of the event it produced)
    CASE#<id> / TERMINAL        first-terminal-wins guard (the partial unique index of SQLite)
    CASE#<id> / REF#<json>      a ref
    SUBMIT#<request> / SUBMIT   global idempotency marker of submit_case
    ADAPTER#<id> / V#<ver:06d>  a schema version;   ADAPTER#<id> / ACTIVE  the active version (+ copy)
GSIs (see memo.tables.CASES): GSI1 cases by state, events by type, refs; GSI2 cases by adapter,
events by principal; GSI3 all cases, all schemas; GSI4 (sparse) escalation due.

A transition reads the CASE item, decides, and writes event + marker + CASE (condition: version
unchanged) [+ TERMINAL (condition: absent)] in one transaction; a lost race re-reads and decides
again, so the loser sees the winner's state (ALREADY_TERMINAL) or the winner's event (replay).
Reads through GSIs are eventually consistent; reads of one case are strongly consistent.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.exceptions import ClientError

from caseplatform.errors import (
    AdapterNotFound,
    CaseNotFound,
    CasePlatformError,
    ConcurrentModification,
    InvalidCursor,
    SchemaVersionExists,
    SchemaVersionNotFound,
)
from caseplatform.model import (
    TERMINAL_STATES,
    Case,
    CaseRecord,
    CaseState,
    Decision,
    Event,
    EventType,
    NewCase,
    Page,
    Principal,
    Recorded,
    Ref,
    SchemaRecord,
    canonical_json,
)
from caseplatform.ports import CaseSnapshot, Decide
from caseplatform.stores import cursor as cursors

MAX_ATTEMPTS = 25
_SER = TypeSerializer()
_DES = TypeDeserializer()
_STATE_FIELDS = (
    "current_state",
    "updated_at_ms",
    "active_terminal_event_id",
    "active_decision_outcome",
    "needs_clarification_since_ms",
    "escalation_due_at_ms",
    "escalated_at_ms",
    "escalation_target",
)
_INDEX_KEYS = {
    None: ("pk", "sk"),
    "GSI1": ("gsi1pk", "gsi1sk"),
    "GSI2": ("gsi2pk", "gsi2sk"),
    "GSI3": ("gsi3pk", "gsi3sk"),
    "GSI4": ("gsi4pk", "gsi4sk"),
}


def _ts(ms: int) -> str:
    return f"{max(ms, 0):013d}"


def _case_pk(case_id: str) -> str:
    return f"CASE#{case_id}"


def _ref_key(ref: Ref) -> str:
    return "REF#" + canonical_json([ref.ref_type, ref.ref_key, ref.ref_value])


def _serialize(item: dict[str, Any]) -> dict[str, Any]:
    return {key: _SER.serialize(value) for key, value in item.items() if value is not None}


def _deserialize(item: dict[str, Any]) -> dict[str, Any]:
    plain = {key: _DES.deserialize(value) for key, value in item.items()}
    return {key: int(value) if isinstance(value, Decimal) else value for key, value in plain.items()}


def _error_code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def _cancellation_codes(error: ClientError) -> list[str]:
    reasons = error.response.get("CancellationReasons") or []
    return [str(reason.get("Code") or "None") for reason in reasons]


class DynamoCaseStore:
    def __init__(self, table_name: str, client: Any, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self.table_name = table_name
        self._client = client
        self._sleep = sleep

    # ------------------------------------------------------------------ low-level helpers
    def _get(self, pk: str, sk: str) -> dict[str, Any] | None:
        response = self._client.get_item(
            TableName=self.table_name, Key=_serialize({"pk": pk, "sk": sk}), ConsistentRead=True
        )
        item = response.get("Item")
        return None if item is None else _deserialize(item)

    def _put(self, item: dict[str, Any], condition: str | None = None) -> dict[str, Any]:
        put: dict[str, Any] = {"TableName": self.table_name, "Item": _serialize(item)}
        if condition:
            put["ConditionExpression"] = condition
        return put

    def _transact(self, operations: list[dict[str, Any]]) -> list[str] | None:
        """Run a transaction; None on success, else the per-operation cancellation codes."""
        try:
            self._client.transact_write_items(TransactItems=operations)
        except ClientError as error:
            if _error_code(error) != "TransactionCanceledException":
                raise
            return _cancellation_codes(error)
        return None

    def _backoff(self, attempt: int) -> None:
        self._sleep(random.uniform(0, 0.002 * (attempt + 1)))  # noqa: S311 - jitter, not security

    def _query(
        self,
        key_condition: str,
        values: dict[str, Any],
        *,
        index: str | None = None,
        limit: int,
        cursor: str | None,
        forward: bool,
        keep: Callable[[dict[str, Any]], bool] = lambda item: True,
    ) -> Page[dict[str, Any]]:
        """Query one index, filter in Python, and cut a page of `limit`; the cursor is the key of the
        last item returned, so the next page starts right after it whatever the filter skipped."""
        request: dict[str, Any] = {
            "TableName": self.table_name,
            "KeyConditionExpression": key_condition,
            "ExpressionAttributeValues": _serialize(values),
            "ScanIndexForward": forward,
            "Limit": max(limit + 1, 25),
        }
        if index is None:
            request["ConsistentRead"] = True
        else:
            request["IndexName"] = index
        if cursor is not None:
            start = cursors.decode(cursor)
            if not isinstance(start, dict):
                raise InvalidCursor("cursor does not fit this query")
            request["ExclusiveStartKey"] = _serialize(start)
        found: list[dict[str, Any]] = []
        while True:
            response = self._client.query(**request)
            for raw in response.get("Items", []):
                item = _deserialize(raw)
                if keep(item):
                    found.append(item)
                    if len(found) > limit:
                        return Page(found[:limit], self._cursor_of(found[limit - 1], index))
            last = response.get("LastEvaluatedKey")
            if last is None:
                return Page(found, None)
            request["ExclusiveStartKey"] = last

    @staticmethod
    def _cursor_of(item: dict[str, Any], index: str | None) -> str:
        names = {"pk", "sk", *_INDEX_KEYS[index]}
        return cursors.encode({name: item[name] for name in sorted(names)})

    def _query_all(
        self, key_condition: str, values: dict[str, Any], *, index: str | None = None
    ) -> Iterator[dict[str, Any]]:
        cursor: str | None = None
        while True:
            page = self._query(key_condition, values, index=index, limit=500, cursor=cursor, forward=True)
            yield from page.items
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    # ------------------------------------------------------------------ schema registry
    @staticmethod
    def _schema_from_item(item: dict[str, Any]) -> SchemaRecord:
        return SchemaRecord(
            item["adapter_id"],
            int(item["schema_version"]),
            json.loads(item["schema_json"]),
            bool(item["is_active"]),
            int(item["updated_at_ms"]),
        )

    def put_schema(self, record: SchemaRecord) -> SchemaRecord:
        item = {
            "pk": f"ADAPTER#{record.adapter_id}",
            "sk": f"V#{record.schema_version:06d}",
            "gsi3pk": "SCHEMAS",
            "gsi3sk": f"{record.adapter_id}#{record.schema_version:06d}",
            "adapter_id": record.adapter_id,
            "schema_version": record.schema_version,
            "schema_json": record.schema_json,
            "is_active": 0,
            "updated_at_ms": record.updated_at_ms,
        }
        try:
            self._client.put_item(**self._put(item, "attribute_not_exists(pk)"))
        except ClientError as error:
            if _error_code(error) != "ConditionalCheckFailedException":
                raise
            existing = self.get_schema(record.adapter_id, record.schema_version)
            if existing is None or existing.schema != record.schema:
                raise SchemaVersionExists(record.adapter_id, record.schema_version) from error
            return existing
        return SchemaRecord(
            record.adapter_id, record.schema_version, record.schema, False, record.updated_at_ms
        )

    def get_schema(self, adapter_id: str, schema_version: int) -> SchemaRecord | None:
        item = self._get(f"ADAPTER#{adapter_id}", f"V#{schema_version:06d}")
        return None if item is None else self._schema_from_item(item)

    def active_schema(self, adapter_id: str) -> SchemaRecord | None:
        item = self._get(f"ADAPTER#{adapter_id}", "ACTIVE")
        return None if item is None else self._schema_from_item({**item, "is_active": 1})

    def list_schemas(self, adapter_id: str | None = None) -> list[SchemaRecord]:
        if adapter_id is None:
            items = self._query_all("gsi3pk = :p", {":p": "SCHEMAS"}, index="GSI3")
        else:
            items = self._query_all(
                "pk = :p AND begins_with(sk, :v)", {":p": f"ADAPTER#{adapter_id}", ":v": "V#"}
            )
        return [self._schema_from_item(item) for item in items]

    def activate_schema(self, adapter_id: str, schema_version: int, now_ms: int) -> int | None:
        pk = f"ADAPTER#{adapter_id}"
        for attempt in range(MAX_ATTEMPTS):
            versions = list(self._query_all("pk = :p AND begins_with(sk, :v)", {":p": pk, ":v": "V#"}))
            if not versions:
                raise AdapterNotFound(adapter_id)
            target = next((v for v in versions if v["schema_version"] == schema_version), None)
            if target is None:
                raise SchemaVersionNotFound(adapter_id, schema_version)
            pointer = self._get(pk, "ACTIVE")
            previous = None if pointer is None else int(pointer["schema_version"])
            if previous == schema_version:
                return previous
            operations = []
            if previous is not None:
                operations.append(self._set_active(pk, previous, 0, now_ms))
            operations.append(self._set_active(pk, schema_version, 1, now_ms))
            active_item = {**target, "sk": "ACTIVE", "is_active": 1, "updated_at_ms": now_ms}
            for name in ("gsi3pk", "gsi3sk"):
                active_item.pop(name, None)
            guard = "attribute_not_exists(pk)" if previous is None else "schema_version = :prev"
            put = self._put(active_item, guard)
            if previous is not None:
                put["ExpressionAttributeValues"] = _serialize({":prev": previous})
            operations.append({"Put": put})
            if self._transact(operations) is None:
                return previous
            self._backoff(attempt)
        raise ConcurrentModification(f"activate_schema {adapter_id} lost {MAX_ATTEMPTS} races")

    def _set_active(self, pk: str, version: int, value: int, now_ms: int) -> dict[str, Any]:
        return {
            "Update": {
                "TableName": self.table_name,
                "Key": _serialize({"pk": pk, "sk": f"V#{version:06d}"}),
                "UpdateExpression": "SET is_active = :a, updated_at_ms = :t",
                "ConditionExpression": "attribute_exists(pk)",
                "ExpressionAttributeValues": _serialize({":a": value, ":t": now_ms}),
            }
        }

    # ------------------------------------------------------------------ item conversion
    def _case_item(
        self, case: Case, state: CaseState, *, version: int, event_count: int, open_question: str | None
    ) -> dict[str, Any]:
        created = f"{_ts(case.created_at_ms)}#{case.case_id}"
        item: dict[str, Any] = {
            "pk": _case_pk(case.case_id),
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
        for name in _STATE_FIELDS:
            item[name] = getattr(state, name)
        if state.escalation_due_at_ms is not None:
            item["gsi4pk"] = "ESCALATION"
            item["gsi4sk"] = f"{_ts(state.escalation_due_at_ms)}#{case.case_id}"
        return item

    @staticmethod
    def _record_from_item(item: dict[str, Any], *, revision: dict[str, Any] | None = None) -> CaseRecord:
        case = Case(
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
        )
        return CaseRecord(case, state, revision)

    def _event_items(self, event: Event, seq: int) -> list[dict[str, Any]]:
        pk = _case_pk(event.case_id)
        at = f"{_ts(event.created_at_ms)}#{event.event_id}"
        items = [
            self._put(
                {
                    "pk": pk,
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
                },
                "attribute_not_exists(pk)",
            )
        ]
        if event.request_id is not None:
            marker = {"pk": pk, "sk": f"REQ#{event.request_id}", "event_json": event.event_json}
            items.append(self._put(marker, "attribute_not_exists(pk)"))
        return [{"Put": put} for put in items]

    # ------------------------------------------------------------------ writes
    def create_case(self, new: NewCase) -> Recorded:
        case, event = new.case, new.event
        submit_marker = {"pk": f"SUBMIT#{event.request_id}", "sk": "SUBMIT", "event_json": event.event_json}
        case_item = self._case_item(case, new.state, version=1, event_count=1, open_question=None)
        operations = [
            {"Put": self._put(submit_marker, "attribute_not_exists(pk)")},
            {"Put": self._put(case_item, "attribute_not_exists(pk)")},
            *self._event_items(event, 1),
            *(
                {
                    "Put": self._put(
                        {
                            "pk": _case_pk(case.case_id),
                            "sk": _ref_key(ref),
                            "gsi1pk": _ref_key(ref),
                            "gsi1sk": case.case_id,
                        }
                    )
                }
                for ref in new.refs
            ),
        ]
        codes = self._transact(operations)
        if codes is None:
            return Recorded(event)
        existing = self._get(f"SUBMIT#{event.request_id}", "SUBMIT")
        if existing is not None:
            return Recorded(Event.from_json(existing["event_json"]), replayed=True)
        raise ConcurrentModification(f"submit_case transaction cancelled: {codes}")

    def append(
        self, case_id: str, request_id: str, decide: Decide, *, seen: CaseRecord | None = None
    ) -> Recorded:
        pk = _case_pk(case_id)
        # The caller's earlier read of the CASE item (this request's), tried first instead of a read:
        # the write below is conditioned on its version, so a stale one only costs a cancelled
        # transaction; a domain error decided on it is checked again on the live item.
        earlier = seen.revision if seen is not None else None
        item = earlier if isinstance(earlier, dict) and earlier.get("pk") == pk else None
        attempt = 0
        while attempt < MAX_ATTEMPTS:
            live = item is None
            if item is None:
                item = self._get(pk, "CASE")
                if item is None:
                    raise CaseNotFound(case_id)
            record = self._record_from_item(item)
            snapshot = CaseSnapshot(record.case, record.state, item.get("open_question"))
            try:
                transition = decide(snapshot)
            except CasePlatformError:
                if not live:  # decided on the earlier read: decide again on the live case
                    item = None
                    continue
                replay = self._replay(pk, request_id)
                if replay is not None:
                    return replay
                raise
            event, state = transition.event, transition.state
            version, count = int(item["version"]), int(item["event_count"])
            question = (
                event.question if event.event_type == "needs_clarification" else item.get("open_question")
            )
            if state.current_state != "needs_clarification":
                question = None
            case_put = self._put(
                self._case_item(
                    record.case, state, version=version + 1, event_count=count + 1, open_question=question
                ),
                "version = :v",
            )
            case_put["ExpressionAttributeValues"] = _serialize({":v": version})
            operations = [*self._event_items(event, count + 1), {"Put": case_put}]
            if state.current_state in TERMINAL_STATES and record.state.current_state not in TERMINAL_STATES:
                guard = {"pk": pk, "sk": "TERMINAL", "event_id": event.event_id}
                operations.append({"Put": self._put(guard, "attribute_not_exists(pk)")})
            if self._transact(operations) is None:
                return Recorded(event)
            # Cancelled: this request_id was used already (answer with its event), or a racing
            # writer changed the case (read again and decide again).
            replay = self._replay(pk, request_id)
            if replay is not None:
                return replay
            item = None
            if live:
                self._backoff(attempt)
                attempt += 1
        raise ConcurrentModification(f"append to {case_id} lost {MAX_ATTEMPTS} races")

    def _replay(self, pk: str, request_id: str) -> Recorded | None:
        marker = self._get(pk, f"REQ#{request_id}")
        return None if marker is None else Recorded(Event.from_json(marker["event_json"]), replayed=True)

    # ------------------------------------------------------------------ reads
    def get_case(self, case_id: str) -> CaseRecord | None:
        item = self._get(_case_pk(case_id), "CASE")
        return None if item is None else self._record_from_item(item, revision=item)

    def list_events(self, case_id: str) -> list[Event]:
        items = self._query_all("pk = :p AND begins_with(sk, :e)", {":p": _case_pk(case_id), ":e": "EV#"})
        return [Event.from_json(item["event_json"]) for item in items]

    def list_refs(self, case_id: str) -> list[Ref]:
        items = self._query_all("pk = :p AND begins_with(sk, :r)", {":p": _case_pk(case_id), ":r": "REF#"})
        refs = [Ref(*json.loads(item["sk"].removeprefix("REF#"))) for item in items]
        return sorted(refs, key=lambda r: (r.ref_type, r.ref_key, r.ref_value))

    def list_cases(
        self,
        *,
        state: str | None = None,
        adapter_id: str | None = None,
        priority: str | None = None,
        limit: int,
        cursor: str | None = None,
    ) -> Page[CaseRecord]:
        if state is not None:
            index, condition, values = "GSI1", "gsi1pk = :p", {":p": f"STATE#{state}"}
        elif adapter_id is not None:
            index, condition, values = "GSI2", "gsi2pk = :p", {":p": f"ADAPTER#{adapter_id}"}
        else:
            index, condition, values = "GSI3", "gsi3pk = :p", {":p": "CASES"}

        def keep(item: dict[str, Any]) -> bool:
            return (adapter_id is None or item["adapter_id"] == adapter_id) and (
                priority is None or item["priority"] == priority
            )

        page = self._query(
            condition, values, index=index, limit=limit, cursor=cursor, forward=False, keep=keep
        )
        return Page([self._record_from_item(item) for item in page.items], page.next_cursor)

    def _events_between(
        self,
        index: str,
        partition: str,
        from_ms: int,
        to_ms: int,
        limit: int,
        cursor: str | None,
        keep: Callable[[dict[str, Any]], bool] = lambda item: True,
    ) -> Page[Event]:
        pk_name, sk_name = _INDEX_KEYS[index]
        if to_ms <= from_ms:
            return Page([], None)
        page = self._query(
            f"{pk_name} = :p AND {sk_name} BETWEEN :a AND :b",
            {":p": partition, ":a": _ts(from_ms), ":b": _ts(to_ms - 1) + "~"},
            index=index,
            limit=limit,
            cursor=cursor,
            forward=False,
            keep=keep,
        )
        return Page([Event.from_json(item["event_json"]) for item in page.items], page.next_cursor)

    def list_events_by_type(
        self,
        event_type: EventType,
        *,
        from_ms: int,
        to_ms: int,
        decision: Decision | None = None,
        limit: int,
        cursor: str | None = None,
    ) -> Page[Event]:
        def keep(item: dict[str, Any]) -> bool:
            return decision is None or item.get("decision_outcome") == decision

        return self._events_between("GSI1", f"EVTYPE#{event_type}", from_ms, to_ms, limit, cursor, keep)

    def list_events_by_principal(
        self, principal: str, *, from_ms: int, to_ms: int, limit: int, cursor: str | None = None
    ) -> Page[Event]:
        return self._events_between("GSI2", f"ACTOR#{principal}", from_ms, to_ms, limit, cursor)

    def cases_by_ref(self, ref: Ref, *, limit: int, cursor: str | None = None) -> Page[str]:
        page = self._query(
            "gsi1pk = :p", {":p": _ref_key(ref)}, index="GSI1", limit=limit, cursor=cursor, forward=True
        )
        return Page([item["gsi1sk"] for item in page.items], page.next_cursor)

    def escalation_due(self, before_ms: int, *, limit: int, cursor: str | None = None) -> Page[CaseState]:
        page = self._query(
            "gsi4pk = :p AND gsi4sk <= :b",
            {":p": "ESCALATION", ":b": _ts(before_ms) + "~"},
            index="GSI4",
            limit=limit,
            cursor=cursor,
            forward=True,
        )
        return Page([self._record_from_item(item).state for item in page.items], page.next_cursor)

    # ------------------------------------------------------------------ projection maintenance
    def iter_case_ids(self) -> Iterator[str]:
        return (item["case_id"] for item in self._query_all("gsi3pk = :p", {":p": "CASES"}, index="GSI3"))

    def list_states(self) -> list[CaseState]:
        states = []
        for case_id in self.iter_case_ids():
            record = self.get_case(case_id)
            if record is not None:
                states.append(record.state)
        return sorted(states, key=lambda s: s.case_id)

    def replace_states(self, states: list[CaseState]) -> None:
        for state in states:
            for attempt in range(MAX_ATTEMPTS):
                item = self._get(_case_pk(state.case_id), "CASE")
                if item is None:
                    raise CaseNotFound(state.case_id)
                record = self._record_from_item(item)
                version = int(item["version"])
                put = self._put(
                    self._case_item(
                        record.case,
                        state,
                        version=version + 1,
                        event_count=int(item["event_count"]),
                        open_question=self._open_question(state),
                    ),
                    "version = :v",
                )
                put["ExpressionAttributeValues"] = _serialize({":v": version})
                if self._transact([{"Put": put}]) is None:
                    break
                self._backoff(attempt)
            else:
                raise ConcurrentModification(f"rebuild of {state.case_id} lost {MAX_ATTEMPTS} races")

    def _open_question(self, state: CaseState) -> str | None:
        if state.current_state != "needs_clarification":
            return None
        questions = [
            e.question for e in self.list_events(state.case_id) if e.event_type == "needs_clarification"
        ]
        return questions[-1] if questions else None
