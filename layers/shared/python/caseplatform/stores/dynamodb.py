"""DynamoDB store (deployed): one table, `TransactWriteItems` and condition expressions. The only
module of the case platform that imports the AWS SDK; the table layout (keys, items, cursors) is
`caseplatform.stores.dynamodb_items`.

A command on a case makes one read and one write: one Query of the case's partition (the CASE item,
this request_id's event, the TERMINAL guard with the winning event, the approval votes), then the
decision, then one transaction writing event + marker + CASE (condition: version unchanged)
[+ TERMINAL (condition: absent)] + a condition check that the adapter's active schema is still the
version the decision was taken on. A retry of a request_id is answered from the read (its marker);
a decided case is refused from the read (the TERMINAL guard names the winner); a lost race re-reads
and decides again, so the loser sees the winner's state (ALREADY_TERMINAL) or the winner's event.

The active schema a command decides on comes from a per-store cache (filled by every read of an
ACTIVE item): the transaction's condition check makes a stale cache cost a cancelled transaction,
never a decision on the wrong schema, and a refusal that depends on the schema (PAYLOAD_INVALID,
DECISION_NOT_ALLOWED) decided on the cache is decided again on the schema read now.
Reads through GSIs are eventually consistent; reads of one case are strongly consistent.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import boto3
from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.exceptions import ClientError

from caseplatform.errors import (
    ActiveSchemaChanged,
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
from caseplatform.ports import CaseSnapshot, Decide, Transition
from caseplatform.stores.dynamodb_items import (
    INDEX_KEYS,
    active_item,
    adapter_pk,
    case_from_item,
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


def _reason_code(reason: dict[str, Any]) -> str:
    return str(reason.get("Code") or "None")


@dataclass
class _Read:
    """What a command on a case read: the CASE item, this request's marker, the TERMINAL guard and
    the approval votes (`live`: read now by the store; else the caller's earlier CASE item only)."""

    item: dict[str, Any] | None = None
    marker: dict[str, Any] | None = None
    terminal: dict[str, Any] | None = None
    votes: list[Event] = field(default_factory=list)
    live: bool = True


class DynamoCaseStore:
    def __init__(self, table_name: str, client: Any, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self.table_name = table_name
        self._client = client
        self._sleep = sleep
        # The last ACTIVE item read per adapter (see the module doc), and per thread the schemas a
        # decision in progress was given: {adapter_id: (version, from the cache)}.
        self._active: dict[str, SchemaRecord] = {}
        self._decision = threading.local()

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
        if item is None:
            self._active.pop(adapter_id, None)
            return None
        record = schema_from_item({**item, "is_active": 1})
        self._active[adapter_id] = record
        return record

    def decision_schema(self, adapter_id: str) -> SchemaRecord | None:
        cached = self._active.get(adapter_id)
        record = cached if cached is not None else self.active_schema(adapter_id)
        served: dict[str, tuple[int, bool]] | None = getattr(self._decision, "served", None)
        if served is not None and record is not None:
            served[adapter_id] = (record.schema_version, cached is not None)
        return record

    def _active_check(self, adapter_id: str, version: int) -> dict[str, Any]:
        """The transaction's condition that `version` is still the adapter's active schema."""
        return {
            "ConditionCheck": {
                "TableName": self.table_name,
                "Key": _serialize({"pk": adapter_pk(adapter_id), "sk": "ACTIVE"}),
                "ConditionExpression": "schema_version = :active",
                "ExpressionAttributeValues": _serialize({":active": version}),
            }
        }

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
                self._active[adapter_id] = schema_from_item(
                    {**target, "is_active": 1, "updated_at_ms": now_ms}
                )
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
        """One transaction, no read: the submit marker (condition: absent; on failure it comes back in
        the cancellation, with the envelope it copies), the CASE item, the event and its marker, the
        refs, and the check that the schema the payload was validated on is still the active one."""
        case, event = new.case, new.event
        first = case_item(case, new.state, version=1, event_count=1, open_question=None)
        marker = self._put(submit_marker(event, first), "attribute_not_exists(pk)")
        marker["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
        operations = [
            {"Put": marker},
            {"Put": self._put(first, "attribute_not_exists(pk)")},
            *self._event_puts(event, 1),
            *({"Put": self._put(ref_item(case.case_id, ref))} for ref in new.refs),
            self._active_check(case.adapter_id, case.schema_version),
        ]
        reasons = self._transact_reasons(operations)
        if reasons is None:
            return Recorded(event)
        existing = reasons[0].get("Item")
        if _reason_code(reasons[0]) == "ConditionalCheckFailed":
            if existing is None:  # a store that does not return the item: read it
                existing = self._get(f"SUBMIT#{event.request_id}", "SUBMIT")
            else:
                existing = _deserialize(existing)
            if existing is not None:
                envelope = case_from_item(existing) if "case_id" in existing else None
                return Recorded(event_from_item(existing), replayed=True, case=envelope)
        if _reason_code(reasons[-1]) == "ConditionalCheckFailed":
            self._active.pop(case.adapter_id, None)
            raise ActiveSchemaChanged(case.adapter_id)
        raise ConcurrentModification(
            f"submit_case transaction cancelled: {[_reason_code(r) for r in reasons]}"
        )

    def _event_puts(self, event: Event, seq: int) -> list[dict[str, Any]]:
        """The event and its request marker, each written only if absent."""
        puts = [self._put(event_item(event, seq), "attribute_not_exists(pk)")]
        if event.request_id is not None:
            puts.append(self._put(request_marker(event), "attribute_not_exists(pk)"))
        return [{"Put": put} for put in puts]

    def _snapshot(self, pk: str, request_id: str) -> _Read | None:
        """The case's one read: a Query of its partition keeping the CASE item, this request's event
        (its replay answer, like its marker), the TERMINAL guard and the approval votes (None: no
        such case). DynamoDB filters only on non-key attributes, so each kind is told by its own:
        the CASE item has a `version`, events an `event_type` (and their `request_id`), the TERMINAL
        guard an `event_id` but no `event_type`; refs and request markers have none of them."""
        request: dict[str, Any] = {
            "TableName": self.table_name,
            "KeyConditionExpression": "pk = :p",
            "FilterExpression": (
                "attribute_exists(#version) OR #type = :vote OR #request = :req"
                " OR (attribute_exists(#event) AND attribute_not_exists(#type))"
            ),
            "ExpressionAttributeNames": {
                "#version": "version",
                "#type": "event_type",
                "#request": "request_id",
                "#event": "event_id",
            },
            "ExpressionAttributeValues": _serialize({":p": pk, ":req": request_id, ":vote": "approval_vote"}),
            "ConsistentRead": True,
        }
        read = _Read()
        while True:
            response = self._client.query(**request)
            for raw in response.get("Items", []):
                item = _deserialize(raw)
                sk = item["sk"]
                if sk == "CASE":
                    read.item = item
                elif sk == "TERMINAL":
                    read.terminal = item
                elif sk.startswith("EV#"):
                    if item.get("event_type") == "approval_vote":
                        read.votes.append(event_from_item(item))
                    if item.get("request_id") == request_id:
                        read.marker = item
            last = response.get("LastEvaluatedKey")
            if last is None:
                return read if read.item is not None else None
            request["ExclusiveStartKey"] = last

    def append(
        self, case_id: str, request_id: str, decide: Decide, *, seen: CaseRecord | None = None
    ) -> Recorded:
        pk = case_pk(case_id)
        # The caller's earlier read of the CASE item (this request's), tried first instead of a read:
        # the write below is conditioned on its version and on the request's marker being absent, so
        # a stale one only costs a cancelled transaction; a domain error decided on it is checked
        # again on the live case.
        earlier = seen.revision if seen is not None else None
        read: _Read | None = None
        if isinstance(earlier, dict) and earlier.get("pk") == pk:
            read = _Read(item=earlier, live=False)
        attempt = 0
        while attempt < MAX_ATTEMPTS:
            if read is None:
                read = self._snapshot(pk, request_id)
                if read is None:
                    raise CaseNotFound(case_id)
            if read.marker is not None:
                record = record_from_item(read.item)  # type: ignore[arg-type]
                votes = tuple(read.votes) if read.live else None
                return Recorded(event_from_item(read.marker), replayed=True, case=record.case, votes=votes)
            outcome = self._decide(read, decide)
            if outcome is None:
                # Refused on the caller's earlier read (decide again on the live case), or on a cached
                # schema the refusal depends on (decide again on this read, with the schema read now).
                if not read.live:
                    read = None
                continue
            transition, served = outcome
            operations, checks = self._transition_writes(read, transition, served)
            reasons = self._transact_reasons(operations)
            if reasons is None:
                return Recorded(transition.event)
            # Cancelled: this request_id was used already (its marker came back), or a racing writer
            # changed the case or the active schema (read again and decide again).
            marker = reasons[1].get("Item") if len(reasons) > 1 else None
            if marker is not None and _reason_code(reasons[1]) == "ConditionalCheckFailed":
                return Recorded(event_from_item(_deserialize(marker)), replayed=True)
            for adapter_id, index in checks.items():
                if _reason_code(reasons[index]) == "ConditionalCheckFailed":
                    self._active.pop(adapter_id, None)
            live = read.live
            read = None
            if live:
                self._backoff(attempt)
                attempt += 1
        raise ConcurrentModification(f"append to {case_id} lost {MAX_ATTEMPTS} races")

    def _decide(self, read: _Read, decide: Decide) -> tuple[Transition, dict[str, int]] | None:
        """Decide on the read; None when a refusal must be decided again (it was decided on an earlier
        read of the case, or on a cached schema it depends on). Returns the transition and the
        schemas it was decided on ({adapter_id: version})."""
        item = read.item
        assert item is not None
        record = record_from_item(item)
        winner = None
        if read.terminal is not None and "event_json" in read.terminal:
            winner = event_from_item(read.terminal)
        snapshot = CaseSnapshot(
            record.case,
            record.state,
            item.get("open_question"),
            votes=tuple(read.votes) if read.live else None,
            winner=winner,
        )
        served: dict[str, tuple[int, bool]] = {}
        self._decision.served = served
        try:
            transition = decide(snapshot)
        except CasePlatformError as error:
            cached = [adapter for adapter, (_, from_cache) in served.items() if from_cache]
            if error.depends_on_schema and cached:
                for adapter_id in cached:
                    self._active.pop(adapter_id, None)
                return None
            if not read.live:
                return None
            raise
        finally:
            self._decision.served = None
        return transition, {adapter_id: version for adapter_id, (version, _) in served.items()}

    def _transition_writes(
        self, read: _Read, transition: Transition, served: dict[str, int]
    ) -> tuple[list[dict[str, Any]], dict[str, int]]:
        """event, marker (returning the existing one on a retry), CASE (condition: the version read),
        [TERMINAL], then one condition check per schema the decision was taken on (and where each
        check is in the transaction, for its cancellation reasons)."""
        item = read.item
        assert item is not None
        record = record_from_item(item)
        event, state = transition.event, transition.state
        version, count = int(item["version"]), int(item["event_count"])
        question = open_question_after(event, state, item.get("open_question"))
        case_put = self._put(
            case_item(record.case, state, version=version + 1, event_count=count + 1, open_question=question),
            "version = :v",
        )
        case_put["ExpressionAttributeValues"] = _serialize({":v": version})
        operations = self._event_puts(event, count + 1)
        if len(operations) > 1:
            operations[1]["Put"]["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
        operations.append({"Put": case_put})
        if state.current_state in TERMINAL_STATES and record.state.current_state not in TERMINAL_STATES:
            operations.append({"Put": self._put(terminal_guard(event), "attribute_not_exists(pk)")})
        checks: dict[str, int] = {}
        for adapter_id, active_version in served.items():
            checks[adapter_id] = len(operations)
            operations.append(self._active_check(adapter_id, active_version))
        return operations, checks

    def _transact_reasons(self, operations: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        """Run a transaction; None on success, else the per-operation cancellation reasons."""
        try:
            self._client.transact_write_items(TransactItems=operations)
        except ClientError as error:
            if _error_code(error) != "TransactionCanceledException":
                raise
            reasons: list[dict[str, Any]] = [dict(r) for r in error.response.get("CancellationReasons") or []]
            return reasons or [{} for _ in operations]
        return None

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
