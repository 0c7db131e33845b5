"""Each function, the state machine and the Scheduler run what people and operators do with Memo
with exactly the policy the synthesized template gives their role, under moto's IAM enforcement
(`tests/integration/iam/harness.py`): a missing grant makes a flow fail here, and a grant no flow
needs fails `test_every_grant_of_every_role_is_proven_by_a_flow` (`test_removed_grants.py` drops each
in turn)."""

from __future__ import annotations

import pytest

from tests.infra.conftest import Synthesized
from tests.integration.iam.flows import FLOWS, environ
from tests.integration.iam.grants import OUTSIDE_THE_CODE, PROVEN_BY
from tests.integration.iam.harness import (
    OPENAI_SECRET,
    WHATSAPP_SECRET,
    IamStack,
    local_names,
    role_constructs,
)
from tests.integration.iam.template import Grant, role_grants
from tests.support.clock import FakeClock

# The secrets' ARNs end with six random characters; `Grant.key` leaves them out.
SECRETS = {
    name: f"arn:aws:secretsmanager:us-east-1:123456789012:secret:{name}-AbCdEf"
    for name in (WHATSAPP_SECRET, OPENAI_SECRET)
}


def _grants(synthesized: Synthesized) -> dict[str, frozenset[Grant]]:
    return role_grants(synthesized, role_constructs(synthesized), local_names(synthesized, SECRETS))


def test_the_harness_runs_every_role_of_the_stack(synthesized: Synthesized) -> None:
    resources = synthesized.template_json["Resources"]
    roles = {logical_id for logical_id, r in resources.items() if r["Type"] == "AWS::IAM::Role"}
    assert {synthesized.logical_id(role) for role in role_constructs(synthesized).values()} == roles


def test_every_grant_of_every_role_is_proven_by_a_flow(synthesized: Synthesized) -> None:
    granted = {
        role: {g.key for g in grants if g.action not in OUTSIDE_THE_CODE}
        for role, grants in _grants(synthesized).items()
    }
    for role, keys in granted.items():
        proven = set(PROVEN_BY.get(role, {}))
        assert keys - proven == set(), f"{role}: granted, but no flow proves it is needed"
        assert proven - keys == set(), f"{role}: a flow proves it, but the template no longer grants it"
    assert set(PROVEN_BY) == set(granted)
    assert {flow for table in PROVEN_BY.values() for flow in table.values()} <= set(FLOWS)


def test_only_the_review_function_answers_task_tokens(synthesized: Synthesized) -> None:
    answering = {
        role: sorted(g.key for g in grants if g.action.startswith("states:SendTask"))
        for role, grants in _grants(synthesized).items()
    }
    assert {role: keys for role, keys in answering.items() if keys} == {
        "review": ["states:SendTaskFailure *", "states:SendTaskSuccess *"]
    }


@pytest.mark.parametrize("flow", sorted(FLOWS))
def test_the_flow_runs_under_the_templates_policies(
    synthesized: Synthesized, clock: FakeClock, flow: str
) -> None:
    with IamStack(synthesized, clock=clock, environ=environ(flow)) as iam:
        FLOWS[flow](iam)
        assert iam.denied() == []
        used = {(role, grant.key) for role, grants in iam.used().items() for grant in grants}
    named = {
        (role, key) for role, table in PROVEN_BY.items() for key, proof in table.items() if proof == flow
    }
    assert named - used == set(), "the flow no longer makes the calls it is named for"
