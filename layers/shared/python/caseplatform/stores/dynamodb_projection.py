"""The DynamoDB store's projection maintenance: the cases page by page, a case's projection read with
its events, and its repair.

The projection of a case is its CASE item (state fields, the index keys derived from them, the open
question) and its TERMINAL guard (first terminal wins). Both are derived from the events, which are
never rewritten: a repair folds the events and writes the CASE item (restoring a deleted one from the
envelope its SUBMIT marker copies) and puts or deletes the guard, in one transaction guarded by the
CASE item's version, so an event appended meanwhile makes it read and fold again.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from caseplatform.errors import CaseNotFound, ConcurrentModification
from caseplatform.model import TERMINAL_STATES, Case, CaseState, Event, Page
from caseplatform.ports import Fold, ProjectionRead, Repair
from caseplatform.stores.dynamodb_items import (
    case_from_item,
    case_item,
    case_pk,
    event_from_item,
    record_from_item,
    terminal_guard,
    ts,
)
from caseplatform.stores.dynamodb_table import MAX_ATTEMPTS, serialize
from caseplatform.stores.dynamodb_writes import DynamoCaseWrites

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef

SUBMITTED = "EVTYPE#submitted"


class _Partition:
    """The items of one case's partition that make or guard its projection."""

    def __init__(self, items: Iterator[dict[str, Any]]) -> None:
        self.item: dict[str, Any] | None = None
        self.guard: dict[str, Any] | None = None
        self.events: list[Event] = []
        for item in items:
            sk = item["sk"]
            if sk == "CASE":
                self.item = item
            elif sk == "TERMINAL":
                self.guard = item
            elif sk.startswith("EV#"):
                self.events.append(event_from_item(item))

    def read(self) -> ProjectionRead:
        if self.item is None:
            return ProjectionRead(None, self.events, consistent=self.guard is None)
        live = record_from_item(self.item).state
        return ProjectionRead(live, self.events, consistent=_derived_agree(self.item, self.guard, live))


def _derived_agree(item: dict[str, Any], guard: dict[str, Any] | None, live: CaseState) -> bool:
    """The index keys and the TERMINAL guard say what the CASE item's state says."""
    due = live.escalation_due_at_ms
    due_key = None if due is None else f"{ts(due)}#{live.case_id}"
    return (
        item.get("gsi1pk") == f"STATE#{live.current_state}"
        and item.get("gsi4sk") == due_key
        and (None if guard is None else guard.get("event_id")) == live.active_terminal_event_id
    )


class DynamoProjection(DynamoCaseWrites):
    def iter_case_ids(self) -> Iterator[str]:
        """The cases with a CASE item and the cases with a submitted event (a CASE item may be lost)."""
        with_item = {
            item["case_id"] for item in self._query_all("gsi3pk = :p", {":p": "CASES"}, index="GSI3")
        }
        with_events = {
            item["pk"].removeprefix("CASE#")
            for item in self._query_all("gsi1pk = :p", {":p": SUBMITTED}, index="GSI1")
        }
        return iter(sorted(with_item | with_events))

    def case_ids(self, *, limit: int, cursor: str | None = None) -> Page[str]:
        """The cases that have a submitted event, oldest first (the events-by-type index)."""
        page = self._query(
            "gsi1pk = :p", {":p": SUBMITTED}, index="GSI1", limit=limit, cursor=cursor, forward=True
        )
        return Page([item["pk"].removeprefix("CASE#") for item in page.items], page.next_cursor)

    def list_states(self) -> list[CaseState]:
        states = []
        for item in self._query_all("gsi3pk = :p", {":p": "CASES"}, index="GSI3"):
            record = self.get_case(item["case_id"])
            if record is not None:
                states.append(record.state)
        return sorted(states, key=lambda s: s.case_id)

    def read_projection(self, case_id: str) -> ProjectionRead:
        """One strongly consistent Query of the case's partition."""
        return self._partition(case_id).read()

    def _partition(self, case_id: str) -> _Partition:
        return _Partition(self._query_all("pk = :p", {":p": case_pk(case_id)}))

    def repair_projection(self, case_id: str, fold: Fold) -> Repair:
        for attempt in range(MAX_ATTEMPTS):
            part = self._partition(case_id)
            state = fold(part.events)
            read = part.read()
            if state is None:
                if part.item is None and part.guard is None:
                    raise CaseNotFound(case_id)
                return "unrepairable"  # a projection without events: a case is never deleted
            if read.live == state and read.consistent:
                return "clean"
            operations = self._repair_operations(part, state)
            if operations is None:
                return "unrepairable"
            if self._transact(operations) is None:
                return "repaired"
            self._backoff(attempt)
        raise ConcurrentModification(f"repair of {case_id} lost {MAX_ATTEMPTS} races")

    def _repair_operations(self, part: _Partition, state: CaseState) -> list[TransactWriteItemTypeDef] | None:
        """The CASE item rewritten from the fold (its envelope from the SUBMIT marker when the item is
        lost; None when the marker is lost too) and the guard put or deleted."""
        if part.item is None:
            case = self._lost_envelope(part.events[0])
            if case is None:
                return None
            version, condition, values = 1, "attribute_not_exists(pk)", None
        else:
            case = case_from_item(part.item)
            version = int(part.item["version"]) + 1
            condition, values = "version = :v", {":v": version - 1}
        item = case_item(
            case,
            state,
            version=version,
            event_count=len(part.events),
            open_question=_open_question(part, state),
        )
        operations: list[TransactWriteItemTypeDef] = [{"Put": self._put(item, condition, values)}]
        winner = next((e for e in part.events if e.event_id == state.active_terminal_event_id), None)
        if state.current_state in TERMINAL_STATES and winner is not None:
            if part.guard is None or part.guard.get("event_id") != winner.event_id:
                operations.append({"Put": self._put(terminal_guard(winner))})
        elif part.guard is not None:
            key = serialize({"pk": case_pk(case.case_id), "sk": "TERMINAL"})
            operations.append({"Delete": {"TableName": self.table_name, "Key": key}})
        return operations

    def _lost_envelope(self, submitted: Event) -> Case | None:
        marker = self._get(f"SUBMIT#{submitted.request_id}", "SUBMIT")
        if marker is None or marker.get("case_id") != submitted.case_id:
            return None
        return case_from_item(marker)

    def replace_states(self, states: list[CaseState]) -> None:
        for state in states:
            for attempt in range(MAX_ATTEMPTS):
                item = self._get(case_pk(state.case_id), "CASE")
                if item is None:
                    raise CaseNotFound(state.case_id)
                version = int(item["version"])
                part = self._partition(state.case_id)
                rewritten = case_item(
                    record_from_item(item).case,
                    state,
                    version=version + 1,
                    event_count=int(item["event_count"]),
                    open_question=_open_question(part, state),
                )
                if self._transact([{"Put": self._put(rewritten, "version = :v", {":v": version})}]) is None:
                    break
                self._backoff(attempt)
            else:
                raise ConcurrentModification(f"rebuild of {state.case_id} lost {MAX_ATTEMPTS} races")


def _open_question(part: _Partition, state: CaseState) -> str | None:
    if state.current_state != "needs_clarification":
        return None
    questions = [e.question for e in part.events if e.event_type == "needs_clarification"]
    return questions[-1] if questions else None
