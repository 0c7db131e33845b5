"""Operator review end to end in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright):
a WhatsApp user asks for an operation that the review policy sends to an operator, the case appears
in the reviewer page's queue, the operator approves in the page, the step runs once and the user is
told on WhatsApp (the local Graph API sink).

Everything runs on the local stack (moto, the executor state machine's ASL with `.waitForTaskToken`).
The review Lambda's own handler (`functions/review/handler.py`, with Memo's decision listeners) is
served by a small HTTP server that turns requests into API Gateway HTTP API (v2) events; sign-in uses
a dev token issued by `caseplatform.review.devtokens` for `REVIEW_DEV_JWT_SECRET`.
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest

from caseplatform.review import devtokens
from memo.local.functions import load_module
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.conversation import Conversation
from tests.support.lambda_http import api_gateway_server
from tests.support.webhook import post

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DEV_SECRET = "operator-review-page-dev-secret-0123456789"
REVIEW_ALL_REMINDER_DELETES = {"rules": [{"capability": "reminders", "action": "delete"}]}
SENT_TO_REVIEW = "needs a quick check by one of our operators"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")


class LambdaContext:
    function_name = "memo-review"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:memo-review"
    aws_request_id = "local-request"


@pytest.fixture
def local(monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    monkeypatch.setenv("MEMO_REVIEW_POLICY", json.dumps(REVIEW_ALL_REMINDER_DELETES))
    monkeypatch.setenv("REVIEW_DEV_JWT_SECRET", DEV_SECRET)
    with LocalStack(start_poller=False) as running:
        yield running


@pytest.fixture
def site(local: LocalStack) -> Iterator[str]:
    # The review Lambda's runtime is the one this test's stack installed (and forgets when it stops).
    review = load_module("review")
    with api_gateway_server(lambda event: review.handler(event, LambdaContext())) as url:
        yield url


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Any]:
    profile = tmp_path / "chromium-profile"
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield context.new_page()
        finally:
            context.close()
    shutil.rmtree(profile, ignore_errors=True)


def _reminders(thread: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = boto3.client("dynamodb", region_name="us-east-1").query(
        TableName="memo-items",
        KeyConditionExpression="pk = :pk AND begins_with(sk, :r)",
        ExpressionAttributeValues={":pk": {"S": f"USER#{thread}"}, ":r": {"S": "REMINDER#"}},
    )["Items"]
    return items


def _executor_deletes(local: LocalStack) -> list[Any]:
    assert local.stepfunctions is not None
    return [
        i
        for i in local.stepfunctions.invocations
        if i.function_name == "memo-executor" and i.event.get("action") == "delete"
    ]


def _wait_for_submitted_case(local: LocalStack, timeout: float = 30.0) -> None:
    """The review submit Lambda runs on the state machine's `.waitForTaskToken` task, asynchronously."""
    assert local.stepfunctions is not None
    dispatcher = local.stepfunctions.dispatcher
    expired = threading.Event()
    timer = threading.Timer(timeout, expired.set)
    timer.start()
    try:
        with dispatcher.changed:
            while not any(i.function_name == "memo-review-submit" for i in dispatcher.invocations):
                assert not expired.is_set(), "the case was never submitted"
                dispatcher.changed.wait(0.05)
    finally:
        timer.cancel()


def _case_id_in_queue(page: Any) -> str:
    row = page.locator("#queue tr")
    sync_api.expect(row).to_have_count(1)
    case_id = row.first.get_attribute("data-case-id")
    assert case_id
    return str(case_id)


def test_an_operator_approves_in_the_page_and_the_step_runs_once(
    local: LocalStack, site: str, page: Any
) -> None:
    dana = Conversation(stack=local, user=WhatsAppUser())
    dana.say("remind me to call mom tomorrow at 5pm")
    assert len(_reminders(dana.user.wa_id)) == 1
    dana.say("delete the call mom reminder")
    approve = dana.choices[0]
    assert approve.title == "Approve"
    # The user's approval starts the execution, whose step now waits for an operator.
    response = post(dana.user.payload(dana.user.button_reply(approve.id, approve.title)))
    assert response["statusCode"] == 200
    assert local.poller is not None and local.stepfunctions is not None
    local.poller.drain()
    (told,) = dana.replies()
    assert SENT_TO_REVIEW in told
    _wait_for_submitted_case(local)

    bearer = devtokens.issue(
        DEV_SECRET, sub="alice", name="Alice Reviewer", groups=["reviewers:memo_operation"], ttl_seconds=600
    )
    page.goto(f"{site}/review/")
    page.fill("#token-input", bearer)
    page.click("#sign-in")
    sync_api.expect(page.locator("#who")).to_have_text("Alice Reviewer")
    case_id = _case_id_in_queue(page)
    page.click(f"tr[data-case-id='{case_id}']")
    sync_api.expect(page.locator("#case")).to_have_attribute("data-case-id", case_id)
    sync_api.expect(page.locator("#payload")).to_contain_text('"action": "delete"')
    assert dana.user.wa_id not in page.content()  # the user's number is not shown to reviewers
    assert _executor_deletes(local) == []

    page.click("#approve")
    # A delete is irreversible: the page asks for a confirmation naming what will happen.
    sync_api.expect(page.locator("#confirm-text")).to_contain_text("Delete 1 reminder of +972")
    page.click("#confirm-yes")
    sync_api.expect(page.locator("#message")).to_have_text("Case approved.")
    sync_api.expect(page.locator("#case-state")).to_have_text("approved")

    (done,) = local.stepfunctions.wait_all(timeout=30)
    assert done["status"] == "SUCCEEDED"
    (result,) = dana.replies()
    assert result.startswith("Deleted the reminder “call mom”.")
    # Gone for the user (a deleted reminder may wait for an "Undo" with its undo_key).
    assert [r for r in _reminders(dana.user.wa_id) if "undo_key" not in r] == []
    (run,) = _executor_deletes(local)
    assert run.event["approval"]["approved_by"] == "operator:alice"
    assert run.event["approval"]["hitl_id"] == case_id
