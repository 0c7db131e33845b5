"""The reviewer web page in a real headless Chromium (Debian's /usr/bin/chromium, driven by
Playwright), served by the review resolver behind a local HTTP server on SQLite: sign in with a dev
token, the queue and its filters, the case view, approve / edit / reject / ask, the two-approver
policy, and the lost race (another reviewer decided first)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from caseplatform.review.approvals import ReviewService
from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.integration.caseplatform.review.harness import ReviewClient, local_server, seed_adapters, token

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

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

ALICE = token("alice", "reviewers:ops_change", "reviewers:two_person", name="Alice Reviewer")
BOB = token("bob", "reviewers:ops_change", "reviewers:two_person", name="Bob Reviewer")
AGENT = {"name": "memo", "role": "agent", "id": "agent:memo"}


@pytest.fixture
def cases(tmp_path: Path) -> Iterator[CaseService]:
    store = SqliteCaseStore(tmp_path / "hitl.db")
    service = CaseService(store)
    seed_adapters(service)
    yield service
    store.close()


@pytest.fixture
def site(cases: CaseService) -> Iterator[tuple[str, ReviewClient]]:
    client = ReviewClient(ReviewService(cases))
    with local_server(client) as url:
        yield url, client


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


def submit(cases: CaseService, title: str, adapter: str = "ops_change", priority: str = "normal") -> str:
    event, _ = cases.submit_case(
        adapter_id=adapter,
        case_type="operation",
        title=title,
        summary=f"{title}: the user asked for it",
        payload={"action": "delete_notes", "count": 12},
        submitter=AGENT,
        request_id=f"submit-{title}",
        priority=priority,
    )
    return event.case_id


def sign_in(page: Any, url: str, bearer: str) -> None:
    page.goto(f"{url}/review/")
    page.fill("#token-input", bearer)
    page.click("#sign-in")
    sync_api.expect(page.locator("#who")).to_have_text("Alice Reviewer")


def open_case(page: Any, case_id: str) -> None:
    page.click(f"tr[data-case-id='{case_id}']")
    sync_api.expect(page.locator("#case")).to_have_attribute("data-case-id", case_id)
    # The last decision's message is cleared, so the next "Case approved." is about this case.
    sync_api.expect(page.locator("#message")).to_be_hidden()


def message(page: Any) -> Any:
    return sync_api.expect(page.locator("#message"))


def test_review_a_queue_in_the_browser(page: Any, site: tuple[str, ReviewClient], cases: CaseService) -> None:
    url, _ = site
    plain = submit(cases, "Delete 12 notes")
    edited = submit(cases, "Delete all reminders", priority="high")
    rejected = submit(cases, "Delete the shopping list", priority="low")
    asked = submit(cases, "Delete old notes")
    sign_in(page, url, ALICE)

    rows = page.locator("#queue tr")
    sync_api.expect(rows).to_have_count(4)
    assert rows.first.get_attribute("data-case-id") == edited  # high priority first
    page.select_option("#f-priority", "low")
    sync_api.expect(rows).to_have_count(1)
    page.select_option("#f-priority", "")
    sync_api.expect(rows).to_have_count(4)

    open_case(page, plain)
    sync_api.expect(page.locator("#payload")).to_contain_text('"count": 12')
    sync_api.expect(page.locator("#history li")).to_have_count(1)
    page.click("#approve")
    message(page).to_have_text("Case approved.")
    sync_api.expect(page.locator("#case-state")).to_have_text("approved")
    sync_api.expect(page.locator("#actions")).to_be_hidden()
    sync_api.expect(rows).to_have_count(3)

    open_case(page, edited)
    page.click("#edit")
    page.fill("#edit-payload", '{"action": "delete_notes", "count": 0}')
    # Validated live against the adapter's schema: the error is shown and nothing can be sent.
    sync_api.expect(page.locator("#edit-errors")).to_contain_text("$.count must be at least 1")
    sync_api.expect(page.locator("#save-edit")).to_be_disabled()
    sync_api.expect(page.locator("#edit-diff")).to_contain_text("count: 12 → 0")
    sync_api.expect(page.locator("#case-state")).to_have_text("pending")
    page.fill("#edit-payload", '{"action": "delete_notes", "count": 2}')
    page.click("#save-edit")
    message(page).to_have_text("Case approved.")
    assert cases.get_case_history(edited)[-1].approved_payload == {"action": "delete_notes", "count": 2}

    open_case(page, rejected)
    page.click("#reject")
    page.click("#confirm-reject")
    message(page).to_have_text("A rejection needs a reason.")
    page.fill("#reason", "Lists are shared with the family")
    page.click("#confirm-reject")
    message(page).to_have_text("Case rejected.")
    sync_api.expect(page.locator("#case-decision")).to_contain_text("rejected by Alice Reviewer")

    open_case(page, asked)
    page.click("#ask")
    page.fill("#question", "Older than what date?")
    page.click("#confirm-ask")
    message(page).to_contain_text("Question sent")
    sync_api.expect(page.locator("#case-state")).to_have_text("needs_clarification")
    sync_api.expect(page.locator("#history li").last).to_contain_text("Older than what date?")

    decided = cases.get_case_history(plain)[-1]
    assert (decided.actor.id, decided.actor.name) == ("alice", "Alice Reviewer")


def test_lost_race_and_two_approvers(page: Any, site: tuple[str, ReviewClient], cases: CaseService) -> None:
    url, client = site
    raced = submit(cases, "Delete 40 reminders")
    two = submit(cases, "Delete every note", adapter="two_person")
    sign_in(page, url, ALICE)

    open_case(page, raced)
    behind = client.call(
        "POST", f"/review/cases/{raced}/reject", bearer=BOB, body={"request_id": "b", "reason": "no"}
    )
    assert behind.status == 200
    page.click("#approve")
    message(page).to_contain_text("Already decided: This case was already rejected by Bob Reviewer")
    sync_api.expect(page.locator("#case-state")).to_have_text("rejected")

    open_case(page, two)
    page.click("#approve")
    message(page).to_contain_text("another reviewer must approve")
    sync_api.expect(page.locator("#case-approvals")).to_contain_text("approvals 1 of 2: Alice Reviewer")
    page.click("#approve")
    message(page).to_contain_text("Your approval is already counted")
    sync_api.expect(page.locator("#case-state")).to_have_text("pending")


def test_a_bad_token_is_refused(page: Any, site: tuple[str, ReviewClient]) -> None:
    url, _ = site
    page.goto(f"{url}/review/")
    page.fill("#token-input", token("alice", "reviewers:ops_change", ttl=-5))
    page.click("#sign-in")
    message(page).to_contain_text("sign in again")
    sync_api.expect(page.locator("#signin")).to_be_visible()
    sync_api.expect(page.locator("#signed-in")).to_be_hidden()  # no "Signed in as nobody" beside "Sign out"
