"""The local dev identity provider: issues HS256 tokens with the claims shape of the deployed
Cognito tokens (`sub`, `name`, `email`, `cognito:groups`), signed with REVIEW_DEV_JWT_SECRET.

    REVIEW_DEV_JWT_SECRET=... python -m caseplatform.review.devtokens \\
        --sub alice --name Alice --groups reviewers:memo_operation [--ttl 3600]

prints the token. The review handler verifies such tokens only when the request carries no API
Gateway authorizer context and the same secret is configured, so deployed traffic never takes this path.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

import jwt

from caseplatform.review.auth import DEV_ALGORITHM, DEV_AUDIENCE, DEV_ISSUER

DEFAULT_TTL_SECONDS = 3600
MIN_SECRET_LENGTH = 32  # HS256 wants a key at least as long as its hash (RFC 7518 3.2)


def issue(
    secret: str,
    *,
    sub: str,
    name: str,
    groups: Sequence[str],
    email: str | None = None,
    ttl_seconds: int = DEFAULT_TTL_SECONDS,
    now: int | None = None,
) -> str:
    if len(secret) < MIN_SECRET_LENGTH:
        raise ValueError(f"the dev secret must be at least {MIN_SECRET_LENGTH} characters")
    issued = int(time.time()) if now is None else now
    claims = {
        "iss": DEV_ISSUER,
        "aud": DEV_AUDIENCE,
        "sub": sub,
        "name": name,
        "cognito:groups": list(groups),
        "iat": issued,
        "exp": issued + ttl_seconds,
        "token_use": "id",
    }
    if email:
        claims["email"] = email
    return jwt.encode(claims, secret, algorithm=DEV_ALGORITHM)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m caseplatform.review.devtokens", description="Issue a local dev reviewer token"
    )
    parser.add_argument("--sub", required=True, help="the principal id (subject)")
    parser.add_argument("--name", required=True, help="display name")
    parser.add_argument("--email")
    parser.add_argument(
        "--groups", default="", help="comma separated, e.g. reviewers:memo_operation,agents:human_input"
    )
    parser.add_argument("--ttl", type=int, default=DEFAULT_TTL_SECONDS, help="seconds until expiry")
    args = parser.parse_args(argv)
    secret = os.environ.get("REVIEW_DEV_JWT_SECRET", "")
    if len(secret) < MIN_SECRET_LENGTH:
        print(f"set REVIEW_DEV_JWT_SECRET (at least {MIN_SECRET_LENGTH} characters)", file=sys.stderr)
        return 2
    groups = [g.strip() for g in args.groups.split(",") if g.strip()]
    print(issue(secret, sub=args.sub, name=args.name, groups=groups, email=args.email, ttl_seconds=args.ttl))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
