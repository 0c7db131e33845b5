"""Agents are told when their case changes, without polling: every decision, question, vote, request
for changes and feedback is a `CaseNotice` sent to each configured channel.

Channels (`NoticeSink`): an EventBridge event (deployed, on DynamoDB), a signed HTTP callback the agent
registered for its case (`caseplatform.callbacks.CallbackSink`, the one module here that does HTTP),
and, for an agent that would rather wait on a call,
`wait_for_case` (the MCP tool of the same name), which returns as soon as the case's projection moves
on or after a bounded timeout.

`NotifyingListener` is a `CaseListener`: it runs after the write, and a channel's failure is logged
and counted, never raised (the decision stands; the reviewer is not told that a callback failed).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from caseplatform.model import Case, Event

log = logging.getLogger("caseplatform.notifications")

# The events an agent is told about: a decision (and an approver's vote), a question, a request for
# changes, feedback left through the feedback tool.
NOTIFIED_EVENTS = frozenset(
    {"decision_recorded", "approval_vote", "needs_clarification", "changes_requested", "feedback_added"}
)
SIGNATURE_HEADER = "X-Hitl-Signature-256"
EVENT_SOURCE = "hitl.caseplatform"
MAX_WAIT_SECONDS = 300.0
WAIT_POLL_SECONDS = 0.5


@dataclass(frozen=True)
class CaseNotice:
    """What a channel sends: the case, the event and where the case stands after it."""

    case_id: str
    adapter_id: str
    event_id: str
    event_type: str
    state: str
    created_at_ms: int
    decision: str | None = None
    decision_outcome: str | None = None
    feedback: str | None = None
    answers: Any = None
    question: str | None = None

    @classmethod
    def of(cls, case: Case, event: Event) -> CaseNotice:
        return cls(
            case_id=case.case_id,
            adapter_id=case.adapter_id,
            event_id=event.event_id,
            event_type=event.event_type,
            state=event.state_after,
            created_at_ms=event.created_at_ms,
            decision=event.decision,
            decision_outcome=event.decision_outcome,
            feedback=event.feedback,
            answers=event.answers,
            question=event.question,
        )

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}

    def body(self) -> bytes:
        """The JSON body a callback receives (and signs), keys sorted."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":")).encode("utf-8")


class NoticeSink(Protocol):
    def send(self, notice: CaseNotice) -> None: ...


@dataclass
class NotifyingListener:
    """Sends every notified event to each sink; `failures` counts what a sink raised."""

    sinks: list[NoticeSink]
    failures: int = 0

    def on_event(self, case: Case, event: Event) -> None:
        if event.event_type not in NOTIFIED_EVENTS:
            return
        notice = CaseNotice.of(case, event)
        for sink in self.sinks:
            try:
                sink.send(notice)
            except Exception:  # a channel's failure never undoes nor fails the written decision
                self.failures += 1
                log.exception(
                    "HITL_NOTIFY_FAILED",
                    extra={
                        "case_id": notice.case_id,
                        "event_type": notice.event_type,
                        "sink": type(sink).__name__,
                    },
                )


# ------------------------------------------------------------------ EventBridge
class EventBridgeSink:
    """One `PutEvents` entry per notice on `bus_name` (source `hitl.caseplatform`, detail-type
    `HITL case <event_type>`): rules route them to the agent's target."""

    def __init__(self, client: Any, bus_name: str) -> None:
        self._client = client
        self._bus = bus_name

    def send(self, notice: CaseNotice) -> None:
        entry = {
            "Source": EVENT_SOURCE,
            "DetailType": f"HITL case {notice.event_type}",
            "Detail": json.dumps(notice.to_dict(), sort_keys=True),
            "EventBusName": self._bus,
            "Resources": [notice.case_id],
        }
        answer = self._client.put_events(Entries=[entry])
        if answer.get("FailedEntryCount"):
            raise RuntimeError(f"EventBridge refused the notice: {answer.get('Entries')}")


# ------------------------------------------------------------------ signed HTTP callbacks
@dataclass(frozen=True)
class Callback:
    """An agent's registration: where to POST the notices of one case and the secret that signs them."""

    registration_id: str
    case_id: str
    url: str
    secret: str


class CallbackRegistry(Protocol):
    def add(self, callback: Callback) -> None: ...

    def for_case(self, case_id: str) -> list[Callback]: ...


@dataclass
class MemoryCallbacks:
    """Registrations kept in the process (tests, one-process setups)."""

    items: list[Callback] = field(default_factory=list)

    def add(self, callback: Callback) -> None:
        self.items.append(callback)

    def for_case(self, case_id: str) -> list[Callback]:
        return [c for c in self.items if c.case_id == case_id]


def sign(body: bytes, secret: str) -> str:
    """The signature header's value: `sha256=` and the HMAC-SHA256 of the body, hex."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


# ------------------------------------------------------------------ waiting on a case
def wait_for_change(
    read_version: Callable[[], Any],
    *,
    since: Any,
    timeout_s: float,
    monotonic: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    poll_s: float = WAIT_POLL_SECONDS,
) -> tuple[bool, Any]:
    """Reads the case's version (`read_version`) until it differs from `since` or `timeout_s`
    (at most MAX_WAIT_SECONDS) has passed; (changed, the version last read)."""
    deadline = monotonic() + min(max(timeout_s, 0.0), MAX_WAIT_SECONDS)
    while True:
        version = read_version()
        if version != since:
            return True, version
        left = deadline - monotonic()
        if left <= 0:
            return False, version
        sleep(min(poll_s, left))


def notified(events: Iterable[Event]) -> list[Event]:
    """The events of a history an agent is told about."""
    return [e for e in events if e.event_type in NOTIFIED_EVENTS]
