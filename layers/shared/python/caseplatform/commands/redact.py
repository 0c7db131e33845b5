"""Redaction: named payload fields blanked in the stored payload (and on DynamoDB in the copy of the
envelope the submit marker carries), recorded as a `redacted` event with the fields, the reason, the
actor and the payload's hash after. The case does not move; its earlier events stay as written
(`caseplatform.redaction`). An operator or agent redacts (`redact_case`); retention purges as the
platform itself (`purge_case`, `caseplatform.governance.retention`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from caseplatform import redaction
from caseplatform.commands.pipeline import CommandPipeline
from caseplatform.decisions import Intent, Stamp, intent_hash
from caseplatform.errors import EnvelopeInvalid
from caseplatform.model import Event, Principal
from caseplatform.ports import CaseSnapshot, Transition
from caseplatform.statemachine import apply, target_state

RETENTION_ACTOR = Principal(
    kind="system", name="hitl-retention", role="system", id="system:retention", assurance="system"
)


class RedactionCommand(CommandPipeline):
    def redact_case(
        self, *, case_id: str, fields: Sequence[str], reason: str, actor: dict[str, Any], request_id: str
    ) -> Event:
        """Blank `fields` (dotted paths) of the case's payload, in any state. A field that the case's
        payload, its revisions and its approved edits all lack, a malformed path or a blank reason is
        ENVELOPE_INVALID (nothing written)."""
        paths = _checked(fields, reason)
        args = {"case_id": case_id, "notes": reason, "actor": actor, "request_id": request_id}
        intent = self._accept(args, "redact", default_kind="operator", hashed={**args, "fields": list(paths)})
        self._require_present(case_id, paths)
        return self._redact_fields(intent, paths)

    def purge_case(self, *, case_id: str, fields: Sequence[str], reason: str, request_id: str) -> Event:
        """Retention's purge, as the platform's retention actor: the fields present are blanked (an
        absent one is skipped)."""
        paths = _checked(fields, reason)
        hashed = {"case_id": case_id, "fields": list(paths), "notes": reason}
        intent = Intent(case_id, RETENTION_ACTOR, reason, request_id, intent_hash(hashed, "redact"))
        return self._redact_fields(intent, paths)

    def _redact_fields(self, intent: Intent, paths: tuple[str, ...]) -> Event:
        def decide(snap: CaseSnapshot, stamp: Stamp) -> Transition:
            blanked = redaction.blank_fields(snap.case.payload, paths)
            event = Event(
                event_id=stamp.event_id,
                case_id=snap.case.case_id,
                event_type="redacted",
                notes=intent.notes,
                actor=intent.actor,
                # Events of a case never go back in time.
                created_at_ms=max(stamp.clock_ms, snap.state.updated_at_ms),
                state_after=target_state(snap.state.current_state, "redact"),
                request_id=intent.request_id,
                request_hash=intent.request_hash,
                redacted_fields=paths,
                payload_hash_after=redaction.payload_hash(blanked),
            )
            return Transition(event, apply(snap.state, event), payload=blanked)

        return self._run(intent, decide).event

    def _require_present(self, case_id: str, paths: tuple[str, ...]) -> None:
        record = self._queries.get_record(case_id)
        payloads: list[Any] = [record.case.payload]
        for event in self._store.list_events(case_id):
            payloads.extend(p for p in (event.revised_payload, event.approved_payload) if p is not None)
        missing = [
            {"path": f"$.fields[{i}]", "message": f"the case's payload has no field `{path}`"}
            for i, path in enumerate(paths)
            if not any(redaction.present(payload, path) for payload in payloads)
        ]
        if missing:
            raise EnvelopeInvalid(missing)


def _checked(fields: Sequence[str], reason: str) -> tuple[str, ...]:
    """The fields without repeats; ENVELOPE_INVALID for malformed paths or a blank reason."""
    problems = redaction.path_problems(fields)
    if not isinstance(reason, str) or not reason.strip():
        problems.append({"path": "$.reason", "message": "say why the fields are redacted"})
    if problems:
        raise EnvelopeInvalid(problems)
    return tuple(dict.fromkeys(fields))
