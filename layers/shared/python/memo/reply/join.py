"""Join: read the executor's step outcomes and decide what the turn achieved.

The state machine hands the responder its outcomes either flat (`[outcome, ...]`) or nested per
dependency group (`[[outcome, ...], [outcome]]`, the output of one Map per group); an outcome may
also still be wrapped in a Lambda invoke result (`{"Payload": outcome}`). `responder_input` accepts
all of these and returns a `ResponderInput` with a flat list, in plan order.

`join` never raises for a failed step: complete, partial and total failure are all answers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from memo.executor.contracts import ResponderInput, StepOutcome

JoinStatus = Literal["complete", "partial", "failed", "empty"]


def _flatten(value: Any) -> Iterable[Any]:
    if isinstance(value, list | tuple):
        for item in value:
            yield from _flatten(item)
    elif isinstance(value, dict) and set(value) >= {"Payload"} and "step_id" not in value:
        yield from _flatten(value["Payload"])
    elif value is not None:
        yield value


def flatten_outcomes(outcomes: Any) -> list[Any]:
    """Outcomes of any nesting depth (per group, per step, Lambda `Payload` wrappers) as one list."""
    return list(_flatten(outcomes))


def responder_input(event: dict[str, Any]) -> ResponderInput:
    """The responder's input from the state machine's event (flat or nested outcomes)."""
    body = event.get("Payload", event) if "outcomes" not in event else event
    if not isinstance(body, dict):
        raise ValueError("the responder event is not a JSON object")
    return ResponderInput.model_validate({**body, "outcomes": flatten_outcomes(body.get("outcomes", []))})


@dataclass(frozen=True)
class Joined:
    status: JoinStatus
    outcomes: tuple[StepOutcome, ...]  # plan order, one per step

    @property
    def failed(self) -> list[StepOutcome]:
        return [o for o in self.outcomes if not o.result.success]


def join(outcomes: Iterable[StepOutcome]) -> Joined:
    """One outcome per step (a step delivered twice counts once: its last outcome), then the status."""
    by_step: dict[str, StepOutcome] = {}
    for outcome in outcomes:
        by_step[outcome.step_id] = outcome  # dict keeps the first position, takes the last value
    ordered = tuple(by_step.values())
    ok = sum(1 for o in ordered if o.result.success)
    status: JoinStatus
    if not ordered:
        status = "empty"
    elif ok == len(ordered):
        status = "complete"
    elif ok == 0:
        status = "failed"
    else:
        status = "partial"
    return Joined(status=status, outcomes=ordered)
