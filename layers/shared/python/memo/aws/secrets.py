"""Secrets Manager: the deployed WhatsApp and OpenAI secrets, read through Powertools parameters.

A secret is a JSON object; it is fetched on first use (never at import) and cached for
`SECRET_CACHE_SECONDS`, so a rotated secret is picked up without a cold start.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from memo.aws import clients
from memo.errors import ConfigurationError

if TYPE_CHECKING:  # the webhook's ingress reads its secret without the pydantic settings
    import boto3
    from aws_lambda_powertools.utilities.parameters import SecretsProvider

    from memo.settings import LlmSettings, WhatsAppSettings

SECRET_CACHE_SECONDS = 300


@lru_cache(maxsize=1)
def _provider(session: boto3.session.Session) -> SecretsProvider:
    """Powertools' secrets provider on the process's boto3 session (`memo.aws.clients.session`), not
    on a session of its own, which would load botocore's endpoint data once more."""
    from aws_lambda_powertools.utilities import parameters

    with clients.SESSION_LOCK:  # the provider makes its client now
        return parameters.SecretsProvider(boto3_session=session)


def secret_json(secret_id: str) -> dict[str, str]:
    """The secret's JSON object, its values as strings."""
    value = _provider(clients.session()).get(secret_id, transform="json", max_age=SECRET_CACHE_SECONDS)
    if not isinstance(value, dict):
        raise ConfigurationError(f"secret {secret_id} is not a JSON object")
    return {str(k): str(v) for k, v in value.items()}


def resolve_whatsapp(settings: WhatsAppSettings) -> WhatsAppSettings:
    """The WhatsApp settings with the secrets of WHATSAPP_SECRET_ID filled in (when deployed)."""
    if not settings.secret_id:
        return settings
    return settings.with_secrets(secret_json(settings.secret_id))


def resolve_llm(settings: LlmSettings) -> LlmSettings:
    """The LLM settings with the key of OPENAI_SECRET_ID, unless OPENAI_API_KEY is given."""
    if not settings.secret_id or settings.enabled:
        return settings
    return settings.with_secrets(secret_json(settings.secret_id))
