"""Who is calling, and what they may do.

Deployed, API Gateway's JWT authorizer (Cognito) has validated the token and the Lambda reads its
claims from `requestContext.authorizer.jwt.claims`. Locally there is no authorizer: when (and only
when) a dev secret is configured, the `Authorization: Bearer` token is verified here (HS256, issued
by `caseplatform.review.devtokens`), and the same claims shape goes through the same checks.

Authorization is per adapter, from group claims (`cognito:groups`, or `groups` for dev tokens):
`reviewers:<adapter_id>` may read and decide that adapter's cases; `agents:<adapter_id>` may submit
cases, read them and answer clarifications; `*` stands for every adapter. The actor of every
decision is the `Principal` built here, never a name the caller supplies.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import jwt

from caseplatform.model import Principal as Actor

DEV_ISSUER = "caseplatform-review-dev"
DEV_AUDIENCE = "caseplatform-review"
DEV_ALGORITHM = "HS256"
Role = Literal["reviewers", "agents", "viewers"]
REVIEWER: Role = "reviewers"
AGENT: Role = "agents"
# Reads an adapter's cases with its sensitive payload fields hidden (caseplatform.governance.access).
VIEWER: Role = "viewers"


class AuthError(Exception):
    """Base of the review API's own errors (the case platform's are `CasePlatformError`)."""

    code = "AUTH_ERROR"


class Unauthenticated(AuthError):
    code = "UNAUTHENTICATED"


class Forbidden(AuthError):
    code = "FORBIDDEN"


@dataclass(frozen=True)
class Principal:
    """The authenticated caller: `sub` is the authoritative id; name/email are display fields."""

    sub: str
    name: str
    email: str | None
    groups: frozenset[str]
    assurance: Literal["api_gateway_jwt", "dev_jwt"]

    def may(self, role: Role, adapter_id: str) -> bool:
        return f"{role}:{adapter_id}" in self.groups or f"{role}:*" in self.groups

    def adapters(self, role: Role) -> frozenset[str]:
        """The adapters named in this principal's groups for `role` (`*` when all)."""
        prefix = f"{role}:"
        return frozenset(g.removeprefix(prefix) for g in self.groups if g.startswith(prefix))

    def require(self, role: Role, adapter_id: str) -> None:
        if not self.may(role, adapter_id):
            raise Forbidden(f"{self.sub} is not in {role}:{adapter_id}")

    def actor(self, kind: Literal["operator", "agent"]) -> dict[str, Any]:
        """The case platform actor of this principal's actions."""
        role = "reviewer" if kind == "operator" else "agent"
        # Both a gateway-verified and a dev-verified token are checked JWTs: assurance `jwt`.
        return Actor(name=self.name, role=role, kind=kind, id=self.sub, assurance="jwt").to_dict() | {
            "team": None
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "sub": self.sub,
            "name": self.name,
            "email": self.email,
            "groups": sorted(self.groups),
            "reviewer_of": sorted(self.adapters(REVIEWER)),
            "agent_of": sorted(self.adapters(AGENT)),
            "assurance": self.assurance,
        }


def parse_groups(value: Any) -> frozenset[str]:
    """Group claims as API Gateway and Cognito deliver them: a JSON list, API Gateway's flattened
    `"[a b c]"` string, a JSON-encoded list string, or a comma/space separated string."""
    if value is None:
        return frozenset()
    if isinstance(value, list | tuple):
        return frozenset(str(v) for v in value if str(v).strip())
    text = str(value).strip()
    if text.startswith("[") and text.endswith("]"):
        try:
            decoded = json.loads(text)
        except json.JSONDecodeError:
            decoded = None
        if isinstance(decoded, list):
            return frozenset(str(v) for v in decoded if str(v).strip())
        text = text[1:-1]
    return frozenset(part for part in text.replace(",", " ").split() if part)


def principal_from_claims(
    claims: Mapping[str, Any], assurance: Literal["api_gateway_jwt", "dev_jwt"]
) -> Principal:
    sub = claims.get("sub")
    if not isinstance(sub, str) or not sub.strip():
        raise Unauthenticated("the token has no subject")
    email = claims.get("email")
    name = claims.get("name") or email or claims.get("cognito:username") or claims.get("username") or sub
    groups = parse_groups(claims.get("cognito:groups")) | parse_groups(claims.get("groups"))
    return Principal(
        sub=sub.strip()[:200],
        name=str(name).strip()[:200],
        email=str(email) if email else None,
        groups=groups,
        assurance=assurance,
    )


def bearer_token(headers: Mapping[str, str]) -> str | None:
    value = next((v for k, v in headers.items() if k.lower() == "authorization"), None)
    if value is None:
        return None
    scheme, _, token = value.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def verify_dev_token(token: str, secret: str) -> dict[str, Any]:
    """The claims of a dev token: signature, expiry, issuer and audience checked; else Unauthenticated."""
    try:
        claims: dict[str, Any] = jwt.decode(
            token,
            secret,
            algorithms=[DEV_ALGORITHM],
            audience=DEV_AUDIENCE,
            issuer=DEV_ISSUER,
            options={"require": ["exp", "iat", "sub", "iss", "aud"]},
        )
    except jwt.ExpiredSignatureError as exc:
        raise Unauthenticated("the token has expired") from exc
    except jwt.InvalidTokenError as exc:
        raise Unauthenticated(f"the token is not valid: {type(exc).__name__}") from exc
    return claims


def authenticate(event: Mapping[str, Any], dev_secret: str | None) -> Principal:
    """The principal of an API Gateway HTTP API (payload v2) event.

    The authorizer's claims win whenever present. Without them, a dev secret must be configured (the
    local server path) and the bearer token must verify against it; anything else is Unauthenticated.
    """
    context = event.get("requestContext") or {}
    jwt_context = (context.get("authorizer") or {}).get("jwt") or {}
    claims = jwt_context.get("claims")
    if isinstance(claims, Mapping) and claims:
        return principal_from_claims(claims, "api_gateway_jwt")
    if not dev_secret:
        raise Unauthenticated("no authorizer context on the request")
    token = bearer_token(event.get("headers") or {})
    if token is None:
        raise Unauthenticated("missing bearer token")
    return principal_from_claims(verify_dev_token(token, dev_secret), "dev_jwt")
