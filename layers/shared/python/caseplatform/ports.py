"""The interfaces the case service depends on: a store and a clock.

Two stores implement `CaseStore` (SQLite, DynamoDB) and one conformance suite runs on both. A store
owns atomicity: `create_case` and `append` write the event, the projection and the idempotency
record together or not at all, and give the same guarantees on both backends.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from caseplatform.model import (
    Case,
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

Clock = Callable[[], int]


def system_clock() -> int:
    """Epoch milliseconds, UTC."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class CaseSnapshot:
    """What a transition is decided on: the envelope, the live projection and the open question."""

    case: Case
    state: CaseState
    open_question: str | None
    # Read with the case by stores that can (one statement / one request), else None and read on
    # demand: the case's approval votes (oldest first) and, on a decided case, its terminal event.
    votes: tuple[Event, ...] | None = None
    winner: Event | None = None


@dataclass(frozen=True)
class Transition:
    """The event to append and the projection after it (always `statemachine.apply(state, event)`)."""

    event: Event
    state: CaseState
    # A `redacted` event's payload after it: the store rewrites the stored payload with it (on
    # DynamoDB also the copy the submit marker carries). None: the payload stays as it is.
    payload: dict[str, Any] | None = None


Decide = Callable[[CaseSnapshot], Transition]
# The projection as a fold of a case's ordered events (`statemachine.project`).
Fold = Callable[[list[Event]], CaseState | None]


@dataclass(frozen=True)
class ProjectionRead:
    """One case's stored projection (None when it has none) and its ordered events, read together.
    `consistent`: what the store derives from the projection (DynamoDB: the index keys of the case
    item and the TERMINAL guard) says what the projection says."""

    live: CaseState | None
    events: list[Event]
    consistent: bool = True


# What `CaseStore.repair_projection` found: the stored projection was the fold of the events
# ("clean"), was replaced by it ("repaired"), or cannot be (the case's envelope is lost, or it has no
# events on a store that never deletes a case: "unrepairable").
Repair = Literal["clean", "repaired", "unrepairable"]


class CaseListener(Protocol):
    """Told about every event a command of `CaseService` wrote, after the write (the extension point
    for integrations: e.g. resuming the workflow that submitted the case). Also told again when a
    command is replayed by its request_id, so a caller's retry re-delivers a notification that failed.
    What it raises propagates to the caller; the event stays written."""

    def on_event(self, case: Case, event: Event) -> None: ...


#: An adapter's own rule for an operator's edit (the extension point `build_case_service(edit_checks=
#: {adapter_id: check})`): called with the payload as submitted and the edited one (valid for the
#: adapter's schema, redacted), it returns the edit's problems, one `{path, message}` each (paths
#: under `$.payload`); none: the edit may be recorded. E.g. an edit may only narrow what the case
#: asked for. Called inside the store's write, so it must be pure: no I/O.
EditCheck = Callable[[dict[str, Any], dict[str, Any]], list[dict[str, str]]]


class CaseStore(Protocol):
    # --- adapter schema registry -------------------------------------------------------------
    def put_schema(self, record: SchemaRecord) -> SchemaRecord:
        """Store a new (inactive) version; the identical document again returns the stored record;
        a different document under an existing version raises SchemaVersionExists."""
        ...

    def get_schema(self, adapter_id: str, schema_version: int) -> SchemaRecord | None: ...

    def active_schema(self, adapter_id: str) -> SchemaRecord | None: ...

    def decision_schema(self, adapter_id: str) -> SchemaRecord | None:
        """The active schema a command decides on inside `append` / before `create_case`. Read now,
        or from the store's cache when its write verifies atomically that this version is still the
        active one (and re-reads and decides again when it is not)."""
        ...

    def list_schemas(self, adapter_id: str | None = None) -> list[SchemaRecord]: ...

    def activate_schema(self, adapter_id: str, schema_version: int, now_ms: int) -> int | None:
        """Make the version the only active one; returns the previously active version.
        Raises AdapterNotFound (no version at all) or SchemaVersionNotFound."""
        ...

    # --- writes ---------------------------------------------------------------------------------
    def create_case(self, new: NewCase) -> Recorded:
        """Write envelope, submitted event, projection and refs atomically. A submitted event with the
        same request_id (global scope) is returned instead, as `replayed`."""
        ...

    def append(
        self, case_id: str, request_id: str, decide: Decide, *, seen: CaseRecord | None = None
    ) -> Recorded:
        """Atomically: if (case_id, request_id) already has an event, return it as `replayed`; else
        call `decide` on the current snapshot and write its transition. Domain errors raised by
        `decide` propagate and nothing is written. Raises CaseNotFound.

        `seen` is the case as this store's `get_case` read it earlier in the same request: a store
        may decide a first attempt on it instead of reading again, but only writes if the case is
        still unchanged (else it reads and decides again), and only lets a domain error of `decide`
        propagate when it was decided on the live case."""
        ...

    # --- reads ----------------------------------------------------------------------------------
    def get_case(self, case_id: str) -> CaseRecord | None: ...

    def list_events(self, case_id: str) -> list[Event]:
        """The case's events in append order."""
        ...

    def list_refs(self, case_id: str) -> list[Ref]: ...

    def list_cases(
        self,
        *,
        state: str | None = None,
        adapter_id: str | None = None,
        priority: str | None = None,
        limit: int,
        cursor: str | None = None,
    ) -> Page[CaseRecord]:
        """Newest first (created_at_ms, then case_id, descending)."""
        ...

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
        """Events of a type with from_ms <= created_at_ms < to_ms, newest first."""
        ...

    def list_events_by_principal(
        self, principal: str, *, from_ms: int, to_ms: int, limit: int, cursor: str | None = None
    ) -> Page[Event]:
        """Events whose actor's principal (id, else name) is `principal`, newest first."""
        ...

    def cases_by_ref(self, ref: Ref, *, limit: int, cursor: str | None = None) -> Page[str]: ...

    def escalation_due(self, before_ms: int, *, limit: int, cursor: str | None = None) -> Page[CaseState]:
        """Projections with escalation_due_at_ms <= before_ms, soonest first."""
        ...

    # --- projection maintenance -----------------------------------------------------------------
    def iter_case_ids(self) -> Iterator[str]:
        """Every case: those with events and those with a stored projection."""
        ...

    def case_ids(self, *, limit: int, cursor: str | None = None) -> Page[str]:
        """The cases that have events (the authority), a page at a time in a stable order."""
        ...

    def list_states(self) -> list[CaseState]: ...

    def read_projection(self, case_id: str) -> ProjectionRead:
        """The case's stored projection and its events, read together."""
        ...

    def repair_projection(self, case_id: str, fold: Fold) -> Repair:
        """Atomically: fold the case's events and, when the stored projection differs, write the fold
        in its place (restoring a lost projection item), guarded so that an event appended meanwhile
        makes it read and fold again."""
        ...

    def replace_states(self, states: list[CaseState]) -> None:
        """Write these projections as given, unchecked (SQLite: every other case loses its
        projection; DynamoDB: the other cases are left as they are). The rebuild does not use it
        (`repair_projection` does); tests tamper with a projection through it."""
        ...
