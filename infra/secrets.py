"""Secrets Manager secrets: WhatsApp Cloud API credentials and the OpenAI API key.

Both are JSON objects, read by the functions through Powertools parameters (cached), see
`memo.settings`. Nothing secret is in the template:
- WhatsApp `{"app_secret", "verify_token", "access_token"}`: `verify_token` is generated here (it is
  ours; ops give it to Meta), `app_secret` and `access_token` start empty and are filled by ops.
- OpenAI `{"api_key"}` starts empty, which means "no LLM": Memo runs its rule planner until ops set it.

A function that reads a secret gets `secretsmanager:GetSecretValue` on it (`grant_secret_value`), the
one call Powertools' secrets provider makes; not `grant_read`'s DescribeSecret, which nothing calls.
"""

from __future__ import annotations

import json

from aws_cdk import Acknowledgment, RemovalPolicy, SecretValue, Validations
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_secretsmanager as secretsmanager
from constructs import Construct

# Names of environment variables (read by memo.settings), not secrets.
WHATSAPP_SECRET_ENV_VAR = "WHATSAPP_SECRET_ID"  # noqa: S105
OPENAI_SECRET_ENV_VAR = "OPENAI_SECRET_ID"  # noqa: S105

_ROTATION_REASON = (
    "The value is issued by a third party ({issuer}) and is rotated there by ops, then written here "
    "with put-secret-value; Secrets Manager cannot rotate it."
)


def grant_secret_value(secret: secretsmanager.ISecret, grantee: iam.IGrantable) -> iam.Grant:
    """GetSecretValue on `secret` only (the secrets are encrypted with the AWS-managed key: no KMS grant)."""
    return iam.Grant.add_to_principal(
        grantee=grantee, actions=["secretsmanager:GetSecretValue"], resource_arns=[secret.secret_arn]
    )


class AppSecrets(Construct):
    """The two secrets and the way a function gets them (environment variable + read grant)."""

    def __init__(self, scope: Construct, construct_id: str) -> None:
        super().__init__(scope, construct_id)
        self.whatsapp = secretsmanager.Secret(
            self,
            "WhatsApp",
            description="Memo WhatsApp Cloud API: app_secret, verify_token (generated), access_token",
            generate_secret_string=secretsmanager.SecretStringGenerator(
                secret_string_template=json.dumps({"app_secret": "", "access_token": ""}),
                generate_string_key="verify_token",
                exclude_punctuation=True,
                password_length=40,
            ),
            removal_policy=RemovalPolicy.RETAIN,
        )
        self.openai = secretsmanager.Secret(
            self,
            "OpenAI",
            description="Memo OpenAI API key: api_key (empty = rule planner only)",
            # An empty placeholder, not a secret: ops write the real key after the first deploy.
            secret_string_value=SecretValue.unsafe_plain_text(json.dumps({"api_key": ""})),
            removal_policy=RemovalPolicy.RETAIN,
        )
        for secret, issuer in ((self.whatsapp, "Meta"), (self.openai, "OpenAI")):
            Validations.of(secret).acknowledge(
                Acknowledgment(id="AwsSolutions-SMG4", reason=_ROTATION_REASON.format(issuer=issuer))
            )

    def environment(self) -> dict[str, str]:
        return {
            WHATSAPP_SECRET_ENV_VAR: self.whatsapp.secret_arn,
            OPENAI_SECRET_ENV_VAR: self.openai.secret_arn,
        }

    def grant_read(self, function: lambda_.Function) -> None:
        """Let `function` read both secrets and tell it where they are."""
        for name, value in self.environment().items():
            function.add_environment(name, value)
        grant_secret_value(self.whatsapp, function)
        grant_secret_value(self.openai, function)
