"""The secrets: no secret value in the template, retained on delete."""

from __future__ import annotations

import json

from .conftest import Synthesized


def test_secrets_hold_no_secret_in_the_template_and_are_retained(synthesized: Synthesized) -> None:
    stack = synthesized.stack
    resources = synthesized.template_json["Resources"]
    whatsapp = resources[synthesized.logical_id(stack.secrets.whatsapp)]
    openai = resources[synthesized.logical_id(stack.secrets.openai)]
    generated = whatsapp["Properties"]["GenerateSecretString"]
    assert generated["GenerateStringKey"] == "verify_token"
    assert json.loads(generated["SecretStringTemplate"]) == {"app_secret": "", "access_token": ""}
    assert json.loads(openai["Properties"]["SecretString"]) == {"api_key": ""}
    for secret in (whatsapp, openai):
        assert secret["DeletionPolicy"] == "Retain"
