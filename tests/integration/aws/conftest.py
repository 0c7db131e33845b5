"""The adapters' tests reuse the moto fixtures of the stages that use those adapters."""

from tests.integration.executor.conftest import aws, dynamodb, ledger
from tests.integration.reminders.conftest import local_aws

__all__ = ["aws", "dynamodb", "ledger", "local_aws"]
