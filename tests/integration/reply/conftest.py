"""The same moto + Graph API sink fixture as the reminders integration tests, with the ledger table
the responder deletes the steps' full results from."""

import pytest

from memo import tables
from tests.integration.reminders.conftest import local_aws

__all__ = ["local_aws"]


@pytest.fixture(autouse=True)
def _ledger_table(request: pytest.FixtureRequest) -> None:
    if "local_aws" in request.fixturenames:
        aws = request.getfixturevalue("local_aws")
        aws.dynamodb.create_table(**tables.LEDGER.create_table_kwargs())
