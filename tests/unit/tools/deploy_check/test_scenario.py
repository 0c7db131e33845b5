"""Each invocation's answer is read the way its trigger reads it."""

from __future__ import annotations

import json

import pytest

from tools.deploy_check.containers import Invocation
from tools.deploy_check.scenario import field_is, has_field, http_status, lists_items, no_batch_failures


def _ok(response: object) -> Invocation:
    return Invocation(True, response, None, 1.0)


def test_an_http_answer_must_have_the_status_and_body_api_gateway_would_return() -> None:
    assert http_status(200, "42")(_ok({"statusCode": 200, "body": "42"})) is None
    assert http_status(200, "42")(_ok({"statusCode": 200, "body": "41"})) == "answered '41', not '42'"
    assert "answered 403, not 200" in str(http_status(200)(_ok({"statusCode": 403, "body": ""})))


@pytest.mark.parametrize(
    ("response", "problem"),
    [
        ({"batchItemFailures": []}, None),
        (
            {"batchItemFailures": [{"itemIdentifier": "m-1"}]},
            "batchItemFailures: [{'itemIdentifier': 'm-1'}]",
        ),
        ({}, "batchItemFailures: None"),  # an answer without the key would make Lambda delete the batch
    ],
)
def test_an_sqs_batch_must_report_no_failed_message(response: dict[str, object], problem: str | None) -> None:
    assert no_batch_failures(_ok(response)) == problem


def test_fields_of_a_task_answer() -> None:
    assert field_is("outcome", "sent")(_ok({"outcome": "sent"})) is None
    assert field_is("outcome", "sent")(_ok({"outcome": "not_due"})) == (
        "outcome is 'not_due', not 'sent': {'outcome': 'not_due'}"
    )
    assert has_field("case_id")(_ok({"case_id": "c-1"})) is None
    assert has_field("case_id")(_ok({})) == "no case_id in {}"


def test_the_case_list_must_hold_the_submitted_case() -> None:
    assert lists_items(_ok({"statusCode": 200, "body": json.dumps({"items": [{"case_id": "c"}]})})) is None
    assert lists_items(_ok({"statusCode": 200, "body": json.dumps({"items": []})})) == (
        'the case list is empty: {"items": []}'
    )
