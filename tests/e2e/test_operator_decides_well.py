"""Operators decide well, in a real headless Chromium (Debian's /usr/bin/chromium, Playwright) on
the local stack: a Memo delete case shows the affected reminders' titles and times (resolved from
the items table at read time), approving asks for a confirmation naming what will happen, and the
WhatsApp user gets the result; an operator who narrows a delete sees the diff and the final payload,
and the user is told the request was changed and what ran. Screenshots go to build/operator-review/
so a person can look at them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from caseplatform.review import devtokens
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.e2e import test_operator_review_page as base
from tests.e2e.test_operator_review_page import (
    DEV_SECRET,
    SENT_TO_REVIEW,
    _case_id_in_queue,
    _reminders,
    _wait_for_submitted_case,
    sync_api,
)
from tests.support.conversation import Conversation
from tests.support.webhook import post

# Every reminder delete, one by one or all at once, goes to an operator.
REVIEW_REMINDER_DELETES = {
    "rules": [
        {"capability": "reminders", "action": "delete"},
        {"capability": "reminders", "action": "delete_all"},
    ]
}


@pytest.fixture
def local(monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    monkeypatch.setenv("MEMO_REVIEW_POLICY", json.dumps(REVIEW_REMINDER_DELETES))
    monkeypatch.setenv("REVIEW_DEV_JWT_SECRET", DEV_SECRET)
    with LocalStack(start_poller=False) as running:
        yield running


# The review handler's HTTP server and the browser, as the issue-6 page test has them.
site = base.site
page = base.page
SHOTS = Path(__file__).resolve().parents[2] / "build" / "operator-review"

pytestmark = [pytest.mark.slow]


def _to_review(dana: Conversation, local: LocalStack) -> None:
    approve = dana.choices[0]
    assert approve.title == "Approve"
    response = post(dana.user.payload(dana.user.button_reply(approve.id, approve.title)))
    assert response["statusCode"] == 200
    assert local.poller is not None
    local.poller.drain()
    (told,) = dana.replies()
    assert SENT_TO_REVIEW in told
    _wait_for_submitted_case(local)


def _sign_in(page: Any, site: str, sub: str, name: str) -> None:
    bearer = devtokens.issue(
        DEV_SECRET, sub=sub, name=name, groups=["reviewers:memo_operation"], ttl_seconds=600
    )
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(f"{site}/review/")
    page.fill("#token-input", bearer)
    page.click("#sign-in")
    sync_api.expect(page.locator("#who")).to_have_text(name)


def _open_only_case(page: Any) -> str:
    case_id = _case_id_in_queue(page)
    page.click(f"tr[data-case-id='{case_id}']")
    sync_api.expect(page.locator("#case")).to_have_attribute("data-case-id", case_id)
    return case_id


def test_a_delete_case_reads_with_titles_and_times_and_asks_for_confirmation(
    local: LocalStack, site: str, page: Any
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    dana = Conversation(stack=local, user=WhatsAppUser())
    dana.say("remind me to call mom tomorrow at 5pm")
    dana.say("delete the call mom reminder")
    _to_review(dana, local)

    _sign_in(page, site, "alice", "Alice Reviewer")
    _open_only_case(page)
    items = page.locator("#view-items")
    sync_api.expect(items).to_contain_text("call mom")
    sync_api.expect(items).to_contain_text("17:00 (Asia/Jerusalem)")  # 5pm in the user's timezone
    sync_api.expect(page.locator("#view-sections")).to_contain_text("Delete 1 reminder of +972…567")
    # The user's own request and the turns before it, behind the same sign-in.
    sync_api.expect(page.locator("#view-request")).to_contain_text("delete the call mom reminder")
    sync_api.expect(page.locator("#view-turns")).to_contain_text("remind me to call mom tomorrow at 5pm")
    assert dana.user.wa_id not in page.content()  # the number only masked
    sync_api.expect(page.locator("#raw-box")).not_to_have_attribute("open", "")  # raw JSON one click away

    page.click("#approve")
    confirm = page.locator("#confirm-box")
    sync_api.expect(confirm).to_be_visible()
    sync_api.expect(page.locator("#confirm-text")).to_have_text("Delete 1 reminder of +972…567")
    page.screenshot(path=str(SHOTS / "delete-case-confirm.png"), full_page=True)
    page.click("#confirm-no")  # cancelling decides nothing
    sync_api.expect(page.locator("#case-state")).to_have_text("pending")
    page.click("#approve")
    page.click("#confirm-yes")
    sync_api.expect(page.locator("#message")).to_have_text("Case approved.")
    sync_api.expect(page.locator("#final-box")).to_be_visible()
    page.screenshot(path=str(SHOTS / "delete-case-approved.png"), full_page=True)

    assert local.stepfunctions is not None
    (done,) = local.stepfunctions.wait_all(timeout=30)
    assert done["status"] == "SUCCEEDED", done
    (result,) = dana.replies()
    assert result.startswith("Deleted the reminder “call mom”.")
    assert [r for r in _reminders(dana.user.wa_id) if "undo_key" not in r] == []


def test_an_edit_shows_the_diff_and_the_final_payload_and_the_user_is_told(
    local: LocalStack, site: str, page: Any
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    dana = Conversation(stack=local, user=WhatsAppUser())
    dana.say("remind me to call mom tomorrow at 5pm")
    dana.say("remind me to pay rent tomorrow at 9am")
    asked = dana.say("delete all my reminders")
    assert [c.title for c in dana.choices][:1] == ["Approve"], (asked, dana.choices)
    _to_review(dana, local)

    _sign_in(page, site, "bob", "Bob Reviewer")
    _open_only_case(page)
    sync_api.expect(page.locator("#view-items tr")).to_have_count(2)
    page.click("#edit")
    payload = json.loads(page.locator("#edit-payload").input_value())
    ids = payload["args"]["reminderIds"]
    assert len(ids) == 2
    titles = page.locator("#view-items tr").all_inner_texts()
    keep = 0 if "call mom" in titles[0] else 1  # the operator keeps only "call mom" in the delete
    payload["args"]["reminderIds"] = [ids[keep]]
    page.click("#edit-json-box summary")  # the JSON is one click away from the choices
    page.fill("#edit-payload", json.dumps(payload, indent=2))
    sync_api.expect(page.locator("#edit-errors li")).to_have_count(0)
    sync_api.expect(page.locator("#edit-diff")).to_contain_text("args.reminderIds")
    page.screenshot(path=str(SHOTS / "edit-diff.png"), full_page=True)
    page.click("#save-edit")
    sync_api.expect(page.locator("#confirm-text")).to_contain_text("Approve with your changes")
    page.click("#confirm-yes")
    sync_api.expect(page.locator("#message")).to_have_text("Case approved.")
    sync_api.expect(page.locator("#final-note")).to_have_text("(edited by Bob Reviewer)")
    sync_api.expect(page.locator("#final-diff")).to_contain_text("args.reminderIds")
    sync_api.expect(page.locator("#final-payload")).to_contain_text(ids[keep])
    assert ids[1 - keep] not in page.locator("#final-payload").inner_text()
    page.screenshot(path=str(SHOTS / "edit-final-payload.png"), full_page=True)

    assert local.stepfunctions is not None
    (done,) = local.stepfunctions.wait_all(timeout=30)
    assert done["status"] == "SUCCEEDED", done
    replies = dana.replies()
    assert replies[0] == (
        "An operator changed your request before it ran: I'll delete 1 of the 2 reminders you asked about."
    ), replies
    assert replies[-1].startswith("Deleted 1 reminder"), replies
    left = [r["title"]["S"] for r in _reminders(dana.user.wa_id) if "undo_key" not in r]
    assert left == ["pay rent"]


def test_an_operator_narrows_by_choosing_items_and_sees_the_series_and_the_users_own_narrowing(
    local: LocalStack, site: str, page: Any
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    dana = Conversation(stack=local, user=WhatsAppUser())
    dana.say("remind me to call mom tomorrow at 5pm")
    dana.say("remind me to go to the gym every tuesday at 7pm")
    dana.say("remind me to pay rent tomorrow at 9am")
    dana.say("remind me to water the plants tomorrow at 8am")
    dana.say("delete all my reminders")
    # the user's own narrowing, before any operator; the step then waits for one
    assert post(dana.user.payload(dana.user.text("yes but keep the plants")))["statusCode"] == 200
    assert local.poller is not None
    local.poller.drain()
    (told,) = dana.replies()
    assert SENT_TO_REVIEW in told, told
    _wait_for_submitted_case(local)

    _sign_in(page, site, "carol", "Carol Reviewer")
    _open_only_case(page)
    rows = page.locator("#view-items tr")
    sync_api.expect(rows).to_have_count(3)
    sync_api.expect(page.locator("#view-items")).to_contain_text("every Tuesday at 19:00, the whole series")
    sync_api.expect(page.locator("#view-sections")).to_contain_text("Whole series (every occurrence ends)")
    sync_api.expect(page.locator("#view-turns")).to_contain_text("then user: yes but keep the plants")

    page.click("#edit")
    sync_api.expect(page.locator("#edit-choose")).to_be_visible()
    sync_api.expect(page.locator("#edit-json-box")).not_to_have_attribute("open", "")  # JSON one click away
    choices = page.locator("#edit-choices li")
    sync_api.expect(choices).to_have_count(3)
    choices.filter(has_text="pay rent").locator("input").uncheck()  # the operator keeps the rent too
    sync_api.expect(page.locator("#edit-errors li")).to_have_count(0)
    sync_api.expect(page.locator("#edit-diff")).to_contain_text("args.reminderIds")
    page.screenshot(path=str(SHOTS / "edit-by-choosing.png"), full_page=True)
    page.click("#save-edit")
    page.click("#confirm-yes")
    sync_api.expect(page.locator("#message")).to_have_text("Case approved.")

    assert local.stepfunctions is not None
    (done,) = local.stepfunctions.wait_all(timeout=30)
    assert done["status"] == "SUCCEEDED", done
    left = sorted(r["title"]["S"] for r in _reminders(dana.user.wa_id) if "undo_key" not in r)
    assert left == ["pay rent", "water the plants"]
