"""The same moto + Graph API sink fixture as the reminders integration tests."""

from tests.integration.reminders.conftest import local_aws

__all__ = ["local_aws"]
