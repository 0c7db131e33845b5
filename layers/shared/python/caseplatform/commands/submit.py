"""Opening a case: `submit_case`, idempotent by request_id across all cases."""

from __future__ import annotations

from typing import Any

from caseplatform import decisions
from caseplatform.commands.pipeline import CommandPipeline
from caseplatform.decisions import Stamp
from caseplatform.errors import (
    ActiveSchemaChanged,
    AdapterNotFound,
    CaseNotFound,
    EnvelopeInvalid,
    IdempotencyConflict,
    PayloadInvalid,
)
from caseplatform.model import Case, Event, NewCase, Recorded, SchemaRecord, canonical_json
from caseplatform.redaction import no_redaction, redact_tree
from caseplatform.validation import check_submit

# How many times a submission is validated again because another schema version became active
# between its validation and its write (each time: nothing was written).
MAX_SCHEMA_CHANGES = 3


class SubmitCommand(CommandPipeline):
    def submit_case(
        self,
        *,
        adapter_id: str,
        case_type: str,
        title: str,
        summary: str,
        payload: dict[str, Any],
        submitter: dict[str, Any],
        request_id: str,
        priority: str = "normal",
        confidence: str | None = None,
        refs: list[dict[str, Any]] | None = None,
    ) -> tuple[Event, Case]:
        """Open a case. Idempotent by request_id across all cases (the same intent again answers
        with the case it opened)."""
        arguments: dict[str, Any] = {
            "adapter_id": adapter_id,
            "case_type": case_type,
            "title": title,
            "summary": summary,
            "payload": payload,
            "submitter": submitter,
            "request_id": request_id,
            "priority": priority,
            "confidence": confidence,
            "refs": refs if refs is not None else [],
        }
        # The payload is serialized once: for its size, the intent's hash and (when nothing is
        # redacted) the stored payload_json.
        payload_json = canonical_json(payload) if isinstance(payload, dict) else None
        _check_envelope(arguments, payload_json)
        request_hash = decisions.intent_hash(arguments, "submit_case", payload_json=payload_json)
        recorded, new = self._create(arguments, payload_json, request_hash)
        if recorded.replayed:
            return self._replayed(recorded, request_hash, request_id)
        return recorded.event, new.case

    def _create(
        self, arguments: dict[str, Any], payload_json: str | None, request_hash: str
    ) -> tuple[Recorded, NewCase]:
        """Validate the (redacted) payload on the active schema and write the case; validated again
        when another version became active before the write."""
        adapter_id, payload = arguments["adapter_id"], arguments["payload"]
        if self._redact is no_redaction:
            clean_payload, clean_json = payload, payload_json
        else:
            clean_payload, clean_json = redact_tree(payload, self._redact), None
        active, live = self._store.decision_schema(adapter_id), False
        for attempt in range(MAX_SCHEMA_CHANGES + 1):
            active = self._valid_for(adapter_id, active, clean_payload, live=live)
            now = self._clock()
            new = decisions.new_case(
                arguments,
                schema_version=active.schema_version,
                payload=clean_payload,
                title=self._redact(arguments["title"]),
                summary=self._redact(arguments["summary"]),
                case_id=f"HITL-{self._new_id()}",
                stamp=Stamp(f"HEV-{self._new_id()}", now),
                request_hash=request_hash,
                payload_json=clean_json,
            )
            try:
                return self._store.create_case(new), new
            except ActiveSchemaChanged:
                # Validated on a version no longer active, nothing written: validate on the new one.
                if attempt == MAX_SCHEMA_CHANGES:
                    raise
                active, live = self._store.active_schema(adapter_id), True
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _replayed(self, recorded: Recorded, request_hash: str, request_id: str) -> tuple[Event, Case]:
        """The answer to a retry: the case the first submission opened, if it had the same intent."""
        if recorded.event.request_hash != request_hash:
            raise IdempotencyConflict(request_id)
        if recorded.case is not None:
            return recorded.event, recorded.case
        stored = self._store.get_case(recorded.event.case_id)
        if stored is None:  # the store returned its event, so the envelope exists
            raise CaseNotFound(recorded.event.case_id)
        return recorded.event, stored.case

    def _valid_for(
        self, adapter_id: str, active: SchemaRecord | None, payload: dict[str, Any], *, live: bool
    ) -> SchemaRecord:
        """`active` (as the store gave it for a decision; `live`: read just now) once the payload is
        valid for it. A payload refused by a schema the store may have served from its cache is
        checked again on the schema read now, so a refusal is always decided on the live version."""
        if active is None:
            raise AdapterNotFound(adapter_id)
        try:
            self._registry.validator(active).validate(payload)
        except PayloadInvalid:
            if live:
                raise
            current = self._store.active_schema(adapter_id)
            if current is None:
                raise AdapterNotFound(adapter_id) from None
            if current.schema_version == active.schema_version:
                raise
            self._registry.validator(current).validate(payload)
            return current
        return active


def _check_envelope(arguments: dict[str, Any], payload_json: str | None) -> None:
    """PAYLOAD_INVALID when only the payload is wrong, else ENVELOPE_INVALID with every detail."""
    details = check_submit(arguments, payload_json)
    if details:
        payload_details = [d for d in details if d["path"].startswith("$.payload")]
        if payload_details == details:
            raise PayloadInvalid(details)
        raise EnvelopeInvalid(details)
