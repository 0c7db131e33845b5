"""`request_human_input`: an agent's questions for a human, as a question case of the `human_input`
adapter answered with a structured decision (approve / edit / reject). Both MCP surfaces (stdio and
HTTP) open it through here; the agent is told of the answer by a notification or `wait_for_case`."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from caseplatform.service import CaseService

HUMAN_INPUT_ADAPTER = "human_input"
# The decisions a question case offers unless the agent names fewer (the adapter's schema allows
# exactly these).
HUMAN_INPUT_DECISIONS = ("approve", "edit", "reject")
REQUEST_HUMAN_INPUT_DESCRIPTION = (
    "Ask a human: opens a question case (adapter human_input) with structured decisions "
    "approve/edit/reject. Wait with wait_for_case(case_id) (or register a callback) until "
    "current_state is approved, rejected or changes_requested; the answer is in `decision` "
    "(feedback, answers; approved_payload = edited answers)."
)


def ensure_human_input_adapter(cases: CaseService) -> list[str]:
    """Register and activate version 1 of `human_input` when it has no active schema yet; returns
    the adapters it added."""
    if cases.store.active_schema(HUMAN_INPUT_ADAPTER) is not None:
        return []
    if cases.store.get_schema(HUMAN_INPUT_ADAPTER, 1) is None:
        text = resources.files("caseplatform.review").joinpath(f"{HUMAN_INPUT_ADAPTER}.v1.json").read_text()
        cases.register_adapter_schema(HUMAN_INPUT_ADAPTER, 1, json.loads(text))
    cases.activate_adapter_schema(HUMAN_INPUT_ADAPTER, 1)
    return [HUMAN_INPUT_ADAPTER]


def human_input_case(
    *,
    questions: list[str],
    allowed_decisions: list[str] | None = None,
    title: str | None = None,
    prompt: str | None = None,
    context: dict[str, Any] | None = None,
    priority: str = "normal",
) -> dict[str, Any]:
    """The `submit_case` arguments of a question case (all but the submitter and the request_id);
    the adapter's schema checks the questions and the decisions."""
    payload: dict[str, Any] = {
        "questions": questions,
        "allowed_decisions": list(allowed_decisions or HUMAN_INPUT_DECISIONS),
    }
    if prompt:
        payload["prompt"] = prompt
    if context is not None:
        payload["context"] = context
    first = questions[0] if questions and isinstance(questions[0], str) else "input"
    return {
        "adapter_id": HUMAN_INPUT_ADAPTER,
        "case_type": "question",
        "title": (title or first)[:200] or "input",
        "summary": prompt or "The agent needs your input on the following questions.",
        "payload": payload,
        "priority": priority,
    }
