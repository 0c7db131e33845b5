"""The wiring tests' fixture: a runtime's AWS clients and secrets recorded, never reaching AWS."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from memo.aws import clients, secrets
from memo.wiring import reset_runtime

# Enough for every Lambda's settings; the secrets would come from Secrets Manager when first needed.
ENV = {
    "CASES_TABLE_NAME": "t-cases",
    "WHATSAPP_SECRET_ID": "memo/whatsapp",
    "OPENAI_SECRET_ID": "memo/openai",
}


class Calls:
    def __init__(self) -> None:
        self.made: list[str] = []


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Calls]:
    """Every AWS client or secret a runtime builds is recorded (and none reaches AWS)."""
    seen = Calls()

    def client(service: str, region: str, endpoint_url: str | None) -> Any:
        seen.made.append(f"client:{service}")
        return object()

    def secret_json(secret_id: str) -> dict[str, str]:
        seen.made.append(f"secret:{secret_id}")
        return {}

    monkeypatch.setattr(clients, "client", client)
    monkeypatch.setattr(secrets, "secret_json", secret_json)
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    reset_runtime()
    yield seen
    reset_runtime()
