"""The pipeline every command on an existing case goes through (see `caseplatform.commands`):
accept the request, decide on the store's snapshot and append, notify the listeners."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from caseplatform import decisions, schemas
from caseplatform.decisions import Intent, Stamp
from caseplatform.errors import AlreadyTerminal, CaseNotFound, EnvelopeInvalid, IdempotencyConflict
from caseplatform.model import Case, CaseRecord, Event, Recorded
from caseplatform.ports import CaseListener, CaseSnapshot, CaseStore, Clock, EditCheck, Transition
from caseplatform.queries import CaseQueries
from caseplatform.redaction import Redactor
from caseplatform.registry import SchemaRegistry
from caseplatform.validation import check_action

Decide = Callable[[CaseSnapshot, Stamp], Transition]


class CommandPipeline:
    """What every command shares: the store, the registry, the queries, the clock, the redactor,
    the id source, the listeners and the adapters' edit checks."""

    def __init__(
        self,
        store: CaseStore,
        registry: SchemaRegistry,
        queries: CaseQueries,
        *,
        clock: Clock,
        redactor: Redactor,
        new_id: Callable[[], str],
        listeners: Sequence[CaseListener],
        edit_checks: Mapping[str, EditCheck] | None = None,
    ) -> None:
        self._store = store
        self._registry = registry
        self._queries = queries
        self._clock = clock
        self._redact = redactor
        self._new_id = new_id
        self._listeners = tuple(listeners)
        self._edit_checks: Mapping[str, EditCheck] = dict(edit_checks or {})

    def allowed_decisions(self, record: CaseRecord) -> tuple[str, ...]:
        """The structured decisions a reviewer may take on this case."""
        return self._policy(record.case).allowed_for(record.case.payload)

    def _accept(
        self, args: dict[str, Any], action: str, *, default_kind: str, hashed: dict[str, Any] | None = None
    ) -> Intent:
        """The prologue: `args` checked against the action envelope, the actor, the intent's hash
        (of `hashed` when the intent carries more than the envelope), the notes redacted."""
        details = check_action(args)
        if details:
            raise EnvelopeInvalid(details)
        return Intent(
            case_id=args["case_id"],
            actor=decisions.principal_of(args["actor"], default_kind),
            notes=self._redact(args["notes"]),
            request_id=args["request_id"],
            request_hash=decisions.intent_hash(args if hashed is None else hashed, action),
        )

    def _run(
        self, intent: Intent, decide: Decide, seen: CaseRecord | None = None, *, clock: Clock | None = None
    ) -> Recorded:
        """Decide on the case snapshot and append, as one atomic step of the store; then notify.
        `seen`: the case as read earlier in the same request (the store still guards the write on
        the live case). `clock`: the time the decision is taken at, when not the service's."""
        case_id = intent.case_id
        tick = self._clock if clock is None else clock
        if seen is not None and seen.case.case_id != case_id:
            seen = None

        envelope: list[Case] = [] if seen is None else [seen.case]

        def attempt(snap: CaseSnapshot) -> Transition:
            envelope[:] = [snap.case]
            return decide(snap, Stamp(f"HEV-{self._new_id()}", tick()))

        try:
            recorded = self._store.append(case_id, intent.request_id, attempt, seen=seen)
        except AlreadyTerminal as exc:
            # The first terminal decision wins: answer with its full event (who, what, when).
            winner = self._winner(case_id, exc)
            if winner is None:
                raise
            raise AlreadyTerminal(case_id, decisions.decision_summary(winner)) from exc
        if recorded.replayed and recorded.event.request_hash != intent.request_hash:
            raise IdempotencyConflict(intent.request_id)
        if recorded.case is not None:
            envelope[:] = [recorded.case]
        self._notify(recorded.event, envelope[0] if envelope else None)
        return recorded

    def _winner(self, case_id: str, refused: AlreadyTerminal) -> Event | None:
        """The winning event of a refused decision, read now; None when the refusal carries it
        already (the store read it with the case) or it cannot be found."""
        if "actor" in refused.existing:
            return None
        return next(
            (e for e in self._store.list_events(case_id) if e.event_id == refused.existing["event_id"]), None
        )

    def _notify(self, event: Event, case: Case | None = None) -> None:
        """`case`: the envelope as read earlier in the request (an append never changes it)."""
        if not self._listeners:
            return
        if case is None:
            record = self._store.get_case(event.case_id)
            if record is None:  # the event was just written, so its case exists
                raise CaseNotFound(event.case_id)
            case = record.case
        for listener in self._listeners:
            listener.on_event(case, event)

    def _policy(self, case: Case) -> schemas.AdapterPolicy:
        return self._registry.policy(case.adapter_id, case.schema_version)

    def _decision_policy(self, case: Case) -> schemas.AdapterPolicy:
        """The policy a command decides on inside the store's write (see `CaseStore.decision_schema`)."""
        return self._registry.policy_of(
            self._store.decision_schema(case.adapter_id), case.adapter_id, case.schema_version
        )
