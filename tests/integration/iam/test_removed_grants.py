"""Removing any one grant from a role's policy makes the cheapest flow that needs it fail, refused
by IAM on exactly that action and resource (`grants.PROVEN_BY` names the flow; the rest of the role's
policy, and every other role's, is the synthesized template's)."""

from __future__ import annotations

import fnmatch

import pytest

from tests.infra.conftest import Synthesized
from tests.integration.iam.flows import FLOWS, environ
from tests.integration.iam.grants import PROVEN_BY
from tests.integration.iam.harness import IamStack
from tests.integration.iam.template import alias
from tests.support.clock import FakeClock

CASES = [
    (role, grant, flow) for role, table in sorted(PROVEN_BY.items()) for grant, flow in sorted(table.items())
]


@pytest.mark.parametrize(
    ("role", "grant", "flow"), CASES, ids=[f"{role}:{grant}" for role, grant, _ in CASES]
)
def test_without_the_grant_its_flow_is_refused(
    synthesized: Synthesized, clock: FakeClock, role: str, grant: str, flow: str
) -> None:
    action, resource = grant.split(" ", 1)
    with IamStack(synthesized, clock=clock, environ=environ(flow), without={role: {grant}}) as iam:
        with pytest.raises(Exception):  # noqa: B017, PT011 - whatever the user sees go wrong first
            FLOWS[flow](iam)
        refused = [
            access
            for who, access in iam.ledger.denied
            if who == role
            and access.action == action
            and fnmatch.fnmatchcase(alias(access.resource), resource)
        ]
    assert refused, f"{flow} failed, but not on {grant}: {iam.denied()}"
