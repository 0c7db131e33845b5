"""DynamoDB store (deployed): one table, `TransactWriteItems` and condition expressions. The only
module of the case platform that imports the AWS SDK; the table layout (keys, items, cursors) is
`caseplatform.stores.dynamodb_items`.

A transition reads the CASE item, decides, and writes event + marker + CASE (condition: version
unchanged) [+ TERMINAL (condition: absent)] in one transaction; a lost race re-reads and decides
again, so the loser sees the winner's state (ALREADY_TERMINAL) or the winner's event (replay).
Reads through GSIs are eventually consistent; reads of one case are strongly consistent.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import boto3
from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.exceptions import ClientError

from caseplatform.errors import (
    AdapterNotFound,
    CaseNotFound,
    CasePlatformError,
    ConcurrentModification,
    SchemaVersionExists,
    SchemaVersionNotFound,
)
from caseplatform.model import (
    TERMINAL_STATES,
    CaseRecord,
    CaseState,
    Decision,
    Event,
    EventType,
    NewCase,
    Page,
    Recorded,
    Ref,
    SchemaRecord,
)
from caseplatform.ports import CaseSnapshot, Decide
from caseplatform.stores.dynamodb_items import (
    INDEX_KEYS,
    active_item,
    adapter_pk,
    case_item,
    case_pk,
    cursor_of,
    event_from_item,
    event_item,
    open_question_after,
    record_from_item,
    ref_from_item,
    ref_item,
    ref_key,
    request_marker,
    schema_from_item,
    schema_item,
    start_key,
    submit_marker,
    terminal_guard,
    ts,
    version_sk,
)

MAX_ATTEMPTS = 25
_SER = TypeSerializer()
_DES = TypeDeserializer()


def dynamodb_client(region: str | None = None, endpoint_url: str | None = None) -> Any:
    """A DynamoDB client for `DynamoCaseStore` (region and endpoint from the environment when None)."""
    return boto3.client("dynamodb", region_name=region, endpoint_url=endpoint_url)


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
            request["ExclusiveStartKey"] = _serialize(start_key(cursor))
        found: list[dict[str, Any]] = []
        while True:
            response = self._client.query(**request)
            for raw in response.get("Items", []):
                item = _deserialize(raw)
                if keep(item):
                    found.append(item)
                    if len(found) > limit:
                        return Page(found[:limit], cursor_of(found[limit - 1], index))
            last = response.get("LastEvaluatedKey")
            if last is None:
                return Page(found, None)
            request["ExclusiveStartKey"] = last

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
    def put_schema(self, record: SchemaRecord) -> SchemaRecord:
        try:
            self._client.put_item(**self._put(schema_item(record), "attribute_not_exists(pk)"))
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
        item = self._get(adapter_pk(adapter_id), version_sk(schema_version))
        return None if item is None else schema_from_item(item)

    def active_schema(self, adapter_id: str) -> SchemaRecord | None:
        item = self._get(adapter_pk(adapter_id), "ACTIVE")
        return None if item is None else schema_from_item({**item, "is_active": 1})

    def list_schemas(self, adapter_id: str | None = None) -> list[SchemaRecord]:
        if adapter_id is None:
            items = self._query_all("gsi3pk = :p", {":p": "SCHEMAS"}, index="GSI3")
        else:
            items = self._query_all(
                "pk = :p AND begins_with(sk, :v)", {":p": adapter_pk(adapter_id), ":v": "V#"}
            )
        return [schema_from_item(item) for item in items]

    def activate_schema(self, adapter_id: str, schema_version: int, now_ms: int) -> int | None:
        pk = adapter_pk(adapter_id)
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
            guard = "attribute_not_exists(pk)" if previous is None else "schema_version = :prev"
            put = self._put(active_item(target, now_ms), guard)
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
                "Key": _serialize({"pk": pk, "sk": version_sk(version)}),
                "UpdateExpression": "SET is_active = :a, updated_at_ms = :t",
                "ConditionExpression": "attribute_exists(pk)",
                "ExpressionAttributeValues": _serialize({":a": value, ":t": now_ms}),
            }
        }

    # ------------------------------------------------------------------ writes
    def create_case(self, new: NewCase) -> Recorded:
        case, event = new.case, new.event
        first = case_item(case, new.state, version=1, event_count=1, open_question=None)
        operations = [
            {"Put": self._put(submit_marker(event), "attribute_not_exists(pk)")},
            {"Put": self._put(first, "attribute_not_exists(pk)")},
            *self._event_puts(event, 1),
            *({"Put": self._put(ref_item(case.case_id, ref))} for ref in new.refs),
        ]
        codes = self._transact(operations)
        if codes is None:
            return Recorded(event)
        existing = self._get(f"SUBMIT#{event.request_id}", "SUBMIT")
        if existing is not None:
            return Recorded(event_from_item(existing), replayed=True)
        raise ConcurrentModification(f"submit_case transaction cancelled: {codes}")

    def _event_puts(self, event: Event, seq: int) -> list[dict[str, Any]]:
        """The event and its request marker, each written only if absent."""
        puts = [self._put(event_item(event, seq), "attribute_not_exists(pk)")]
        if event.request_id is not None:
            puts.append(self._put(request_marker(event), "attribute_not_exists(pk)"))
        return [{"Put": put} for put in puts]

    def append(
        self, case_id: str, request_id: str, decide: Decide, *, seen: CaseRecord | None = None
    ) -> Recorded:
        pk = case_pk(case_id)
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
            record = record_from_item(item)
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
            question = open_question_after(event, state, item.get("open_question"))
            case_put = self._put(
                case_item(
                    record.case, state, version=version + 1, event_count=count + 1, open_question=question
                ),
                "version = :v",
            )
            case_put["ExpressionAttributeValues"] = _serialize({":v": version})
            operations = [*self._event_puts(event, count + 1), {"Put": case_put}]
            if state.current_state in TERMINAL_STATES and record.state.current_state not in TERMINAL_STATES:
                operations.append({"Put": self._put(terminal_guard(event), "attribute_not_exists(pk)")})
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
        return None if marker is None else Recorded(event_from_item(marker), replayed=True)

    # ------------------------------------------------------------------ reads
    def get_case(self, case_id: str) -> CaseRecord | None:
        item = self._get(case_pk(case_id), "CASE")
        return None if item is None else record_from_item(item, revision=item)

    def list_events(self, case_id: str) -> list[Event]:
        items = self._query_all("pk = :p AND begins_with(sk, :e)", {":p": case_pk(case_id), ":e": "EV#"})
        return [event_from_item(item) for item in items]

    def list_refs(self, case_id: str) -> list[Ref]:
        items = self._query_all("pk = :p AND begins_with(sk, :r)", {":p": case_pk(case_id), ":r": "REF#"})
        refs = [ref_from_item(item) for item in items]
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
        return Page([record_from_item(item) for item in page.items], page.next_cursor)

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
        pk_name, sk_name = INDEX_KEYS[index]
        if to_ms <= from_ms:
            return Page([], None)
        page = self._query(
            f"{pk_name} = :p AND {sk_name} BETWEEN :a AND :b",
            {":p": partition, ":a": ts(from_ms), ":b": ts(to_ms - 1) + "~"},
            index=index,
            limit=limit,
            cursor=cursor,
            forward=False,
            keep=keep,
        )
        return Page([event_from_item(item) for item in page.items], page.next_cursor)

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
            "gsi1pk = :p", {":p": ref_key(ref)}, index="GSI1", limit=limit, cursor=cursor, forward=True
        )
        return Page([item["gsi1sk"] for item in page.items], page.next_cursor)

    def escalation_due(self, before_ms: int, *, limit: int, cursor: str | None = None) -> Page[CaseState]:
        page = self._query(
            "gsi4pk = :p AND gsi4sk <= :b",
            {":p": "ESCALATION", ":b": ts(before_ms) + "~"},
            index="GSI4",
            limit=limit,
            cursor=cursor,
            forward=True,
        )
        return Page([record_from_item(item).state for item in page.items], page.next_cursor)

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
                item = self._get(case_pk(state.case_id), "CASE")
                if item is None:
                    raise CaseNotFound(state.case_id)
                record = record_from_item(item)
                version = int(item["version"])
                put = self._put(
                    case_item(
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
