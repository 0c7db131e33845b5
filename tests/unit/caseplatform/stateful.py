"""A hypothesis rule-based state machine over the case service, generic in its store.

It drives random sequences of submit / request_clarification / provide_clarification /
record_decision / a reviewer's edit without a payload (changes requested) / the submitter's revision
(with reused request_ids, repeated questions and retries) and checks, after every
step, that the service agrees with a tiny model of the platform's rules:
- the transition matrix (allowed moves succeed, every other one is refused with its code),
- first-terminal-wins (at most one decision event; later attempts ALREADY_TERMINAL),
- request_id idempotency (same intent -> the first answer; different intent -> IDEMPOTENCY_CONFLICT),
- append-only history and projection == rebuild-from-events (no drift).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule

from caseplatform import answers
from caseplatform.errors import CasePlatformError
from caseplatform.model import Event
from caseplatform.ports import CaseStore
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import AGENT, OPERATOR, FakeClock, lgv_payload, submit_args

ACTIONS = ("ask", "reply", "approved", "rejected", "send_back", "revise")
TEXTS = ("which map?", "which dock?", "v12")
REQUEST_IDS = ("r1", "r2", "r3", "r4", "r5")


@dataclass
class ModelCase:
    state: str = "pending"
    question: str | None = None
    history: list[str] = field(default_factory=list)
    answers: dict[str, tuple[tuple[str, str], dict[str, Any]]] = field(default_factory=dict)


class CaseMachine(RuleBasedStateMachine):
    cases = Bundle("cases")

    def make_store(self) -> CaseStore:
        raise NotImplementedError

    def __init__(self) -> None:
        super().__init__()
        self.clock = FakeClock()
        self.service = CaseService(self.make_store(), clock=self.clock)
        self.service.ensure_default_adapters()
        self.model: dict[str, ModelCase] = {}

    @rule(target=cases, priority=st.sampled_from(["low", "normal", "high", "critical"]))
    def submit(self, priority: str) -> str:
        event, _ = self.service.submit_case(**submit_args(priority=priority))
        self.model[event.case_id] = ModelCase(history=[event.event_id])
        return event.case_id

    @rule(
        case_id=cases,
        action=st.sampled_from(ACTIONS),
        text=st.sampled_from(TEXTS),
        request_id=st.sampled_from(REQUEST_IDS),
        tick=st.integers(min_value=0, max_value=5),
    )
    def act(self, case_id: str, action: str, text: str, request_id: str, tick: int) -> None:
        self.clock.advance(tick)
        case = self.model[case_id]
        intent = (action, text)
        got = self._call(case_id, action, text, request_id)

        if request_id in case.answers:
            first_intent, first_answer = case.answers[request_id]
            if first_intent == intent:
                assert got == first_answer
            else:
                assert got["code"] == "IDEMPOTENCY_CONFLICT"
            return

        expected_state = self._expected(case, action, text)
        if isinstance(expected_state, str):
            assert got["status"] == "success", got
            assert got["current_state"] == expected_state
            case.state = expected_state
            if action == "ask":
                case.question = text
            case.history.append(got["event_id"])
            case.answers[request_id] = (intent, got)
        else:
            code, from_state = expected_state
            assert got["status"] == "error", got
            assert got["code"] == code
            if code == "INVALID_STATE_TRANSITION":
                assert got["from_state"] == from_state

    @staticmethod
    def _expected(case: ModelCase, action: str, text: str) -> str | tuple[str, str]:
        terminal = case.state in ("approved", "rejected")
        if terminal and action in ("approved", "rejected", "send_back", "revise"):
            return ("ALREADY_TERMINAL", case.state)
        if case.state == "changes_requested":  # only the submitter's revision, or a rejection
            return {"revise": "pending", "rejected": "rejected"}.get(
                action, ("INVALID_STATE_TRANSITION", case.state)
            )
        if action in ("approved", "rejected"):
            return action
        if action == "send_back":
            return "changes_requested"
        if action == "revise":
            return ("INVALID_STATE_TRANSITION", case.state)
        if action == "ask":
            if case.state == "pending" or (case.state == "needs_clarification" and case.question != text):
                return "needs_clarification"
            return ("INVALID_STATE_TRANSITION", case.state)
        if case.state == "needs_clarification":
            return "pending"
        return ("INVALID_STATE_TRANSITION", case.state)

    def _call(self, case_id: str, action: str, text: str, request_id: str) -> dict[str, Any]:
        try:
            if action == "ask":
                event = self.service.request_clarification(
                    case_id=case_id, question=text, notes="", actor=AGENT, request_id=request_id
                )
            elif action == "reply":
                event = self.service.provide_clarification(
                    case_id=case_id, answer=text, notes="", actor=OPERATOR, request_id=request_id
                )
            elif action == "send_back":
                sent = self.service.decide(
                    case_id=case_id, decision="edit", feedback=text, actor=OPERATOR, request_id=request_id
                )
                assert isinstance(sent, Event)
                event = sent
            elif action == "revise":
                payload = {**lgv_payload(), "evidence": [text]}
                event = self.service.resubmit_case(
                    case_id=case_id, payload=payload, notes="", actor=AGENT, request_id=request_id
                )
            else:
                event = self.service.record_decision(
                    case_id=case_id, decision=action, notes=text, actor=OPERATOR, request_id=request_id
                )
        except CasePlatformError as error:
            return answers.error_answer(error)
        return answers.transition_answer(event)

    @invariant()
    def service_agrees_with_the_model(self) -> None:
        for case_id, case in self.model.items():
            state = self.service.get_case(case_id).record.state
            assert state.current_state == case.state
            history = self.service.get_case_history(case_id)
            assert [e.event_id for e in history] == case.history  # append-only, nothing lost or added
            decisions = [e for e in history if e.event_type == "decision_recorded"]
            assert len(decisions) == (1 if case.state in ("approved", "rejected") else 0)

    @invariant()
    def projection_equals_rebuild(self) -> None:
        report = self.service.check_drift()
        assert not report.drifted, report.drifted_case_ids
