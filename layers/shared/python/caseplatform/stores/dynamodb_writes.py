"""The DynamoDB store's writes: opening a case and appending to one, each one `TransactWriteItems`
with condition expressions.

A command on a case makes one read and one write: one Query of the case's partition (the CASE item,
this request_id's event, the TERMINAL guard with the winning event, the approval votes), then the
decision, then one transaction writing event + marker + CASE (condition: version unchanged)
[+ TERMINAL (condition: absent)] + a condition check that the adapter's active schema is still the
version the decision was taken on. A retry of a request_id is answered from the read (its marker);
a decided case is refused from the read (the TERMINAL guard names the winner); a lost race re-reads
and decides again, so the loser sees the winner's state (ALREADY_TERMINAL) or the winner's event.

The active schema a command decides on may come from the registry's cache
(`caseplatform.stores.dynamodb_schemas`): a refusal that depends on the schema (PAYLOAD_INVALID,
DECISION_NOT_ALLOWED) decided on the cache is decided again on the schema read now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from caseplatform.errors import (
    ActiveSchemaChanged,
    CaseNotFound,
    CasePlatformError,
    ConcurrentModification,
)
from caseplatform.model import TERMINAL_STATES, Case, CaseRecord, Event, NewCase, Recorded, Ref
from caseplatform.ports import CaseSnapshot, Decide, Transition
from caseplatform.stores.dynamodb_items import (
    case_from_item,
    case_item,
    case_pk,
    event_from_item,
    event_item,
    open_question_after,
    record_from_item,
    ref_item,
    request_marker,
    submit_marker,
    terminal_guard,
)
from caseplatform.stores.dynamodb_reads import DynamoCaseReads
from caseplatform.stores.dynamodb_schemas import DynamoSchemaRegistry
from caseplatform.stores.dynamodb_table import (
    MAX_ATTEMPTS,
    Reason,
    deserialize,
    failed,
    reason_code,
    serialize,
)

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import QueryInputTypeDef, TransactWriteItemTypeDef


@dataclass
class _Read:
    """What a command on a case read: the CASE item, this request's marker, the TERMINAL guard and
    the approval votes (`live`: read now by the store; else the caller's earlier CASE item only)."""

    item: dict[str, Any] | None = None
    marker: dict[str, Any] | None = None
    terminal: dict[str, Any] | None = None
    votes: list[Event] = field(default_factory=list)
    live: bool = True


# The filter of a case's one read (`_snapshot`). DynamoDB filters only on non-key attributes, so
# each kind of item is told by its own: the CASE item has a `version`, events an `event_type` (and
# their `request_id`), the TERMINAL guard an `event_id` but no `event_type`; refs and request
# markers have none of them.
_SNAPSHOT_FILTER = (
    "attribute_exists(#version) OR #type = :vote OR #request = :req"
    " OR (attribute_exists(#event) AND attribute_not_exists(#type))"
)
_SNAPSHOT_NAMES = {
    "#version": "version",
    "#type": "event_type",
    "#request": "request_id",
    "#event": "event_id",
}


class DynamoCaseWrites(DynamoSchemaRegistry, DynamoCaseReads):
    # ------------------------------------------------------------------ opening a case
    def create_case(self, new: NewCase) -> Recorded:
        """One transaction, no read: the submit marker (condition: absent; on failure it comes back in
        the cancellation, with the envelope it copies), the CASE item, the event and its marker, the
        refs, and the check that the schema the payload was validated on is still the active one."""
        case, event = new.case, new.event
        first = case_item(case, new.state, version=1, event_count=1, open_question=None)
        marker = self._put(submit_marker(event, first), "attribute_not_exists(pk)")
        marker["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
        operations: list[TransactWriteItemTypeDef] = [
            {"Put": marker},
            {"Put": self._put(first, "attribute_not_exists(pk)")},
            *self._event_puts(event, 1),
            *self._ref_puts(case.case_id, new.refs),
            self._active_check(case.adapter_id, case.schema_version),
        ]
        reasons = self._transact(operations)
        if reasons is None:
            return Recorded(event)
        replay = self._submitted_before(event, reasons[0])
        if replay is not None:
            return replay
        if failed(reasons[-1]):
            self._forget_active(case.adapter_id)
            raise ActiveSchemaChanged(case.adapter_id)
        raise ConcurrentModification(
            f"submit_case transaction cancelled: {[reason_code(r) for r in reasons]}"
        )

    def _submitted_before(self, event: Event, reason: Reason) -> Recorded | None:
        """The earlier submission of this request_id, when the submit marker's condition failed."""
        if not failed(reason):
            return None
        existing = reason.get("Item")
        if existing is None:  # a store that does not return the item: read it
            found = self._get(f"SUBMIT#{event.request_id}", "SUBMIT")
        else:
            found = deserialize(existing)
        if found is None:
            return None
        envelope = case_from_item(found) if "case_id" in found else None
        return Recorded(event_from_item(found), replayed=True, case=envelope)

    def _ref_puts(self, case_id: str, refs: Sequence[Ref]) -> list[TransactWriteItemTypeDef]:
        return [{"Put": self._put(ref_item(case_id, ref))} for ref in refs]

    def _event_puts(self, event: Event, seq: int) -> list[TransactWriteItemTypeDef]:
        """The event and its request marker, each written only if absent."""
        puts = [self._put(event_item(event, seq), "attribute_not_exists(pk)")]
        if event.request_id is not None:
            puts.append(self._put(request_marker(event), "attribute_not_exists(pk)"))
        return [{"Put": put} for put in puts]

    # ------------------------------------------------------------------ appending to a case
    def _snapshot(self, pk: str, request_id: str) -> _Read | None:
        """The case's one read: a Query of its partition keeping the CASE item, this request's event
        (its replay answer, like its marker), the TERMINAL guard and the approval votes (None: no
        such case)."""
        request: QueryInputTypeDef = {
            "TableName": self.table_name,
            "KeyConditionExpression": "pk = :p",
            "FilterExpression": _SNAPSHOT_FILTER,
            "ExpressionAttributeNames": _SNAPSHOT_NAMES,
            "ExpressionAttributeValues": serialize({":p": pk, ":req": request_id, ":vote": "approval_vote"}),
            "ConsistentRead": True,
        }
        read = _Read()
        while True:
            response = self._client.query(**request)
            for raw in response.get("Items", []):
                _keep(read, deserialize(raw), request_id)
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
            recorded = self._write_transition(read, *outcome)
            if recorded is not None:
                return recorded
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
                    self._forget_active(adapter_id)
                return None
            if not read.live:
                return None
            raise
        finally:
            self._decision.served = None
        return transition, {adapter_id: version for adapter_id, (version, _) in served.items()}

    def _write_transition(
        self, read: _Read, transition: Transition, served: dict[str, int]
    ) -> Recorded | None:
        """Write the transition; None when the transaction was cancelled by a racing writer that
        changed the case or the active schema (read again and decide again). A cancellation by this
        request_id's marker (used already) answers with its event."""
        operations, checks = self._transition_writes(read, transition, served)
        reasons = self._transact(operations)
        if reasons is None:
            return Recorded(transition.event)
        marker = reasons[1].get("Item") if len(reasons) > 1 else None
        if marker is not None and failed(reasons[1]):
            return Recorded(event_from_item(deserialize(marker)), replayed=True)
        for adapter_id, index in checks.items():
            if failed(reasons[index]):
                self._forget_active(adapter_id)
        return None

    def _transition_writes(
        self, read: _Read, transition: Transition, served: dict[str, int]
    ) -> tuple[list[TransactWriteItemTypeDef], dict[str, int]]:
        """event, marker (returning the existing one on a retry), CASE (condition: the version read),
        [TERMINAL], then one condition check per schema the decision was taken on (and where each
        check is in the transaction, for its cancellation reasons)."""
        item = read.item
        assert item is not None
        record = record_from_item(item)
        event, state = transition.event, transition.state
        version, count = int(item["version"]), int(item["event_count"])
        question = open_question_after(event, state, item.get("open_question"))
        case = record.case if transition.payload is None else replace(record.case, payload=transition.payload)
        case_put = self._put(
            case_item(case, state, version=version + 1, event_count=count + 1, open_question=question),
            "version = :v",
            {":v": version},
        )
        operations = self._event_puts(event, count + 1)
        if len(operations) > 1:
            operations[1]["Put"]["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
        operations.append({"Put": case_put})
        if transition.payload is not None:
            operations.extend(self._marker_rewrite(case))
        if state.current_state in TERMINAL_STATES and record.state.current_state not in TERMINAL_STATES:
            operations.append({"Put": self._put(terminal_guard(event), "attribute_not_exists(pk)")})
        checks: dict[str, int] = {}
        for adapter_id, active_version in served.items():
            checks[adapter_id] = len(operations)
            operations.append(self._active_check(adapter_id, active_version))
        return operations, checks

    def _marker_rewrite(self, case: Case) -> list[TransactWriteItemTypeDef]:
        """The submit marker put again with the envelope's payload (a rebuild of a lost CASE item
        reads its envelope there), on the condition that it exists. The marker is named by the
        submitted event's request_id: the case's first event, read here with the marker (only a
        redaction rewrites a payload; a put, so the store needs no UpdateItem on cases)."""
        first = self._get(case_pk(case.case_id), "EV#00000001")
        request_id = None if first is None else event_from_item(first).request_id
        marker = None if request_id is None else self._get(f"SUBMIT#{request_id}", "SUBMIT")
        if marker is None or "payload_json" not in marker:
            return []
        rewritten = {**marker, "payload_json": case.payload_json}
        return [{"Put": self._put(rewritten, "attribute_exists(pk)")}]


def _keep(read: _Read, item: dict[str, Any], request_id: str) -> None:
    """Sort one item of the case's partition into the read."""
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
