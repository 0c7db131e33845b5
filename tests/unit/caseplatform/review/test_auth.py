"""Claims parsing, dev token verification and per-adapter authorization."""

from __future__ import annotations

import pytest

from caseplatform.review import devtokens
from caseplatform.review.auth import (
    AGENT,
    REVIEWER,
    Forbidden,
    Unauthenticated,
    authenticate,
    parse_groups,
    principal_from_claims,
)

SECRET = "unit-test-secret-0123456789abcdefghij"


def _event(claims: dict | None = None, authorization: str | None = None) -> dict:
    event: dict = {"headers": {}, "requestContext": {}}
    if authorization is not None:
        event["headers"]["authorization"] = authorization
    if claims is not None:
        event["requestContext"]["authorizer"] = {"jwt": {"claims": claims}}
    return event


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (["reviewers:a", "agents:b"], {"reviewers:a", "agents:b"}),
        ("[reviewers:a agents:b]", {"reviewers:a", "agents:b"}),  # API Gateway's flattened array
        ('["reviewers:a", "agents:b"]', {"reviewers:a", "agents:b"}),
        ("reviewers:a, agents:b", {"reviewers:a", "agents:b"}),
        ("reviewers:a", {"reviewers:a"}),
        (None, set()),
        ("[]", set()),
    ],
)
def test_group_claims_in_every_shape(value: object, expected: set[str]) -> None:
    assert parse_groups(value) == expected


def test_display_name_falls_back_to_email_then_username() -> None:
    assert principal_from_claims({"sub": "1", "name": "Ann", "email": "a@x"}, "dev_jwt").name == "Ann"
    assert principal_from_claims({"sub": "1", "email": "a@x"}, "dev_jwt").name == "a@x"
    assert principal_from_claims({"sub": "1", "cognito:username": "ann"}, "dev_jwt").name == "ann"
    with pytest.raises(Unauthenticated):
        principal_from_claims({"name": "no subject"}, "dev_jwt")


def test_authorizer_claims_win_over_any_bearer_token() -> None:
    forged = devtokens.issue(SECRET, sub="mallory", name="Mallory", groups=["reviewers:*"])
    who = authenticate(
        _event({"sub": "a1", "cognito:groups": "[reviewers:x]"}, f"Bearer {forged}"), dev_secret=SECRET
    )
    assert (who.sub, who.assurance, who.groups) == ("a1", "api_gateway_jwt", frozenset({"reviewers:x"}))


def test_dev_tokens_verify_only_with_the_configured_secret() -> None:
    issued = devtokens.issue(SECRET, sub="alice", name="Alice", groups=["reviewers:memo_operation"])
    who = authenticate(_event(authorization=f"Bearer {issued}"), dev_secret=SECRET)
    assert (who.sub, who.name, who.assurance) == ("alice", "Alice", "dev_jwt")
    with pytest.raises(Unauthenticated, match="no authorizer"):
        authenticate(_event(authorization=f"Bearer {issued}"), dev_secret=None)
    with pytest.raises(Unauthenticated):
        authenticate(_event(authorization=f"Bearer {issued}"), dev_secret=SECRET + "x")


@pytest.mark.parametrize("authorization", [None, "", "Basic abc", "Bearer ", "Bearer not.a.token"], ids=str)
def test_missing_or_malformed_token(authorization: str | None) -> None:
    with pytest.raises(Unauthenticated):
        authenticate(_event(authorization=authorization), dev_secret=SECRET)


def test_authorization_is_per_adapter_and_role() -> None:
    who = principal_from_claims({"sub": "s", "cognito:groups": ["reviewers:a", "agents:*"]}, "dev_jwt")
    assert who.may(REVIEWER, "a") and not who.may(REVIEWER, "b")
    assert who.may(AGENT, "anything")
    who.require(REVIEWER, "a")
    with pytest.raises(Forbidden):
        who.require(REVIEWER, "b")
    assert who.actor("operator") == {
        "kind": "operator",
        "name": "s",
        "role": "reviewer",
        "id": "s",
        "team": None,
        "assurance": "jwt",
    }
