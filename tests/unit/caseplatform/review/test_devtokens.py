"""The local dev identity provider: tokens with the deployed Cognito claims shape, signed with the dev
secret, that the review handler's dev path accepts until they expire; a short secret is refused."""

from __future__ import annotations

import time
from typing import Any

import jwt
import pytest

from caseplatform.review import devtokens
from caseplatform.review.auth import (
    DEV_ALGORITHM,
    DEV_AUDIENCE,
    DEV_ISSUER,
    REVIEWER,
    Unauthenticated,
    authenticate,
)

SECRET = "unit-test-secret-0123456789abcdefghij"


def _bearer(token: str) -> dict[str, Any]:
    return {"headers": {"authorization": f"Bearer {token}"}, "requestContext": {}}


def test_the_claims_are_the_cognito_shape() -> None:
    token = devtokens.issue(
        SECRET,
        sub="alice",
        name="Alice",
        groups=["reviewers:a", "agents:b"],
        email="a@x",
        ttl_seconds=60,
        now=1000,
    )
    claims = jwt.decode(
        token, SECRET, algorithms=[DEV_ALGORITHM], audience=DEV_AUDIENCE, options={"verify_exp": False}
    )
    assert claims == {
        "iss": DEV_ISSUER,
        "aud": DEV_AUDIENCE,
        "sub": "alice",
        "name": "Alice",
        "email": "a@x",
        "cognito:groups": ["reviewers:a", "agents:b"],
        "iat": 1000,
        "exp": 1060,
        "token_use": "id",
    }
    without_email = devtokens.issue(SECRET, sub="bob", name="Bob", groups=[], now=1000)
    assert "email" not in jwt.decode(
        without_email,
        SECRET,
        algorithms=[DEV_ALGORITHM],
        audience=DEV_AUDIENCE,
        options={"verify_exp": False},
    )


def test_expired_token() -> None:
    issued = devtokens.issue(SECRET, sub="alice", name="Alice", groups=[], now=1_000, ttl_seconds=60)
    with pytest.raises(Unauthenticated, match="expired"):
        authenticate(_bearer(issued), dev_secret=SECRET)


def test_a_token_lives_for_its_ttl() -> None:
    now = int(time.time())
    still = devtokens.issue(SECRET, sub="alice", name="Alice", groups=[], now=now - 100, ttl_seconds=3600)
    assert authenticate(_bearer(still), dev_secret=SECRET).sub == "alice"
    gone = devtokens.issue(SECRET, sub="alice", name="Alice", groups=[], now=now - 3700, ttl_seconds=3600)
    with pytest.raises(Unauthenticated, match="expired"):
        authenticate(_bearer(gone), dev_secret=SECRET)


def test_short_dev_secret_is_refused() -> None:
    with pytest.raises(ValueError, match="at least"):
        devtokens.issue("short", sub="a", name="A", groups=[])
    assert devtokens.issue("s" * devtokens.MIN_SECRET_LENGTH, sub="a", name="A", groups=[])


def test_devtokens_cli_prints_a_verifiable_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REVIEW_DEV_JWT_SECRET", SECRET)
    assert devtokens.main(["--sub", "alice", "--name", "Alice", "--groups", "reviewers:memo_operation"]) == 0
    printed = capsys.readouterr().out.strip()
    who = authenticate(_bearer(printed), dev_secret=SECRET)
    assert who.may(REVIEWER, "memo_operation") and not who.may(REVIEWER, "lgv_troubleshooting")
    monkeypatch.setenv("REVIEW_DEV_JWT_SECRET", "")
    assert devtokens.main(["--sub", "a", "--name", "A"]) == 2
    assert "REVIEW_DEV_JWT_SECRET" in capsys.readouterr().err
