"""`memo.hitl.skip_instead`: a skip said to the delete of a repeating reminder is the skip, planned
afresh; one that names no reminder is the listed series'; nothing else is."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memo.domain import DisambiguationCandidate, HITLReturnTo, PendingHITL, PendingHITLContext
from memo.hitl.complete_request import default_rules
from memo.hitl.skip_instead import skip_instead
from tests.unit.hitl.conftest import NOW, make_state

RULES = default_rules()
VITAMINS = DisambiguationCandidate(id="v", label="take vitamins", data={"day": "2024-05-02", "goesOn": True})
STRETCH = DisambiguationCandidate(id="s", label="stretch", data={"day": "2024-05-02", "goesOn": True})
MOM = DisambiguationCandidate(id="m", label="call mom", data={"day": "2024-05-02"})


def _approval(*shown: DisambiguationCandidate, kind: str = "approval") -> PendingHITL:
    return PendingHITL(
        hitl_id="q-1",
        kind=kind,  # type: ignore[arg-type]
        source="planner",
        reason="high_risk",
        origin_step_id="s1",
        return_to=HITLReturnTo(node="resolver_router", mode="continue"),
        expected_input="yes_no",
        question="Before I go ahead: …",
        expires_at=NOW + timedelta(hours=1),
        created_at=NOW,
        context=PendingHITLContext(candidates=list(shown)),
    )


@pytest.mark.parametrize(
    ("answer", "planned"),
    [
        ("skip tomorrow", "skip take vitamins tomorrow"),
        ("no, skip tomorrow", "skip take vitamins tomorrow"),
        ("skip it on friday", "skip take vitamins on friday"),  # "it": the series listed
        ("skip the vitamins tomorrow", "skip the vitamins tomorrow"),
        ("just skip friday", "skip take vitamins friday"),
        ("skip the milk", "skip the milk"),  # a skip of another reminder: its own request
        ("תדלג על מחר", "תדלג על take vitamins מחר"),
    ],
)
def test_a_skip_to_a_series_delete_is_that_skip(answer: str, planned: str | None) -> None:
    assert skip_instead(answer, make_state(), _approval(VITAMINS), NOW, RULES) == planned


@pytest.mark.parametrize(
    ("answer", "shown"),
    [
        ("skip tomorrow", (MOM,)),  # no series that goes on: nothing to skip instead
        ("skip tomorrow", (VITAMINS, STRETCH)),  # which series is not guessed
        ("yes", (VITAMINS,)),
        ("only tomorrow", (VITAMINS,)),
        ("skip", (VITAMINS,)),
    ],
)
def test_anything_else_is_no_skip(answer: str, shown: tuple[DisambiguationCandidate, ...]) -> None:
    assert skip_instead(answer, make_state(), _approval(*shown), NOW, RULES) is None


def test_only_an_approval_takes_a_skip_instead() -> None:
    assert (
        skip_instead("skip tomorrow", make_state(), _approval(VITAMINS, kind="clarification"), NOW, RULES)
        is None
    )
