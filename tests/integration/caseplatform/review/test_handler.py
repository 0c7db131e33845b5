"""The review Lambda's real entry point (`functions/review/handler.py`) on moto's DynamoDB, with
settings from the environment: an API Gateway authorizer's claims decide; a dev token without a
configured dev secret does not."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import boto3
import pytest
from moto import mock_aws

from memo.aws.clients import reset_clients
from memo.settings import ConfigurationError, ReviewSettings
from memo.wiring import reset_runtime
from memo.wiring.review import ReviewRuntime
from tests.integration.caseplatform.conftest import create_cases_table
from tests.integration.caseplatform.review.harness import LambdaContext, ReviewClient, token

HANDLER = Path(__file__).resolve().parents[4] / "functions" / "review" / "handler.py"


@pytest.fixture
def handler_module(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    with mock_aws():
        monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
        monkeypatch.setenv("CASES_TABLE_NAME", "hitl-cases-review")
        monkeypatch.delenv("REVIEW_DEV_JWT_SECRET", raising=False)
        create_cases_table(boto3.client("dynamodb"), "hitl-cases-review")
        spec = importlib.util.spec_from_file_location("review_handler", HANDLER)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        reset_clients()
        reset_runtime(ReviewRuntime)
        yield module
        reset_runtime(ReviewRuntime)
        reset_clients()


def test_submit_and_decide_through_the_handler(handler_module: ModuleType) -> None:
    review = ReviewRuntime.current().review
    event, _ = review.cases.submit_case(
        adapter_id="human_input",
        case_type="question",
        title="Which framework?",
        summary="s",
        payload={"questions": ["Which framework?"], "allowed_decisions": ["approve", "reject"]},
        submitter={"name": "bot", "role": "agent"},
        request_id="s",
    )
    events = ReviewClient(review, dev_secret=None)
    claims = {"sub": "u-1", "name": "Dana", "cognito:groups": "[reviewers:human_input]"}
    approve = events.event(
        "POST", f"/review/cases/{event.case_id}/approve", body={"request_id": "r"}, claims=claims
    )
    result = handler_module.handler(approve, LambdaContext())
    assert result["statusCode"] == 200
    assert review.cases.get_case(event.case_id).record.state.current_state == "approved"

    dev = token("u-2", "reviewers:human_input")
    refused = handler_module.handler(events.event("GET", "/review/me", bearer=dev), LambdaContext())
    assert refused["statusCode"] == 401


def test_settings_need_a_table_for_dynamodb_and_a_long_dev_secret() -> None:
    with pytest.raises(ConfigurationError, match="CASES_TABLE_NAME"):
        ReviewSettings.from_env({})
    with pytest.raises(ConfigurationError, match="REVIEW_DEV_JWT_SECRET"):
        ReviewSettings.from_env({"REVIEW_STORE": "sqlite", "REVIEW_DEV_JWT_SECRET": "short"})
    local = ReviewSettings.from_env({"REVIEW_STORE": "sqlite", "HITL_DB_PATH": "/tmp/x.db"})
    assert (local.store, local.dev_jwt_secret) == ("sqlite", None)


@pytest.mark.parametrize(("query", "location"), [("", "/review/"), ("case=c-1", "/review/?case=c-1")])
def test_the_page_without_its_slash_redirects_to_it(
    handler_module: ModuleType, query: str, location: str
) -> None:
    """API Gateway's public route is `GET /review`; the page lives at `/review/` (its sign-in returns
    there). A reviewer who types the address without the slash is sent on, query kept; the page at
    `/review/` itself is unchanged."""
    events = ReviewClient(ReviewRuntime.current().review, dev_secret=None)
    moved = handler_module.handler(events.event("GET", "/review", query=query), LambdaContext())
    assert moved["statusCode"] == 308
    assert moved["headers"]["Location"] == location
    page = handler_module.handler(events.event("GET", "/review/"), LambdaContext())
    assert page["statusCode"] == 200 and "text/html" in page["headers"]["Content-Type"]
