"""Where a scheduled job resumes, on the DynamoDB case table (moto): an item no case query sees."""

from __future__ import annotations

import boto3
from moto import mock_aws

from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from caseplatform.stores.dynamodb_jobs import DynamoJobCursors
from tests.integration.caseplatform.conftest import TABLE, create_cases_table
from tests.unit.caseplatform.factories import FakeClock, submit


def test_a_job_cursor_is_kept_until_a_complete_run_clears_it() -> None:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        create_cases_table(client)
        jobs = DynamoJobCursors(TABLE, client)
        assert jobs.job_cursor("retention") is None
        jobs.save_job_cursor("retention", "approved:abc", 1)
        assert (jobs.job_cursor("retention"), jobs.job_cursor("drift")) == ("approved:abc", None)
        jobs.save_job_cursor("retention", None, 2)
        assert jobs.job_cursor("retention") is None


def test_no_case_query_sees_the_cursor_item() -> None:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        create_cases_table(client)
        service = CaseService(DynamoCaseStore(TABLE, client), clock=FakeClock())
        service.ensure_default_adapters()
        case_id = submit(service)
        DynamoJobCursors(TABLE, client).save_job_cursor("retention", "approved:abc", 1)
        assert [c.case.case_id for c in service.list_cases(limit=10).items] == [case_id]
        assert list(service.store.iter_case_ids()) == [case_id]
