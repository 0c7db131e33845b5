"""A webhook batch's statuses: only a `failed` one becomes a follow-up for the turn path, with Meta's
codes, the failed message's id and its tracking tag as Meta echoed it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memo.ingress.events import row
from memo.ingress.statuses import report
from memo.ingress.wire import parse_payload
from memo.local.whatsapp_user import DEFAULT_PHONE_NUMBER_ID, WhatsAppUser, status_payload
from memo.whatsapp.tags import TAG_LIMIT
from tests.integration.ingress.fixtures import status_fixtures
from tests.support.conversation import LogEvents
from tests.support.whatsapp_fixtures import recorded_body

USER = WhatsAppUser()


def test_only_failed_statuses_are_followed_up() -> None:
    fixtures = status_fixtures(USER.wa_id)
    for key in ("status.sent", "status.delivered", "status.read", "account.errors", "account.other_field"):
        assert report(parse_payload(fixtures[key])) == []
    [follow_up] = report(parse_payload(fixtures["status.failed"]))
    assert (follow_up.wamid, follow_up.error_codes, follow_up.handling) == (
        "status.failed.wamid.OUT2",
        (131047,),
        "delivery_failed",
    )
    assert row("status.failed").handling == "delivery_failed"


def _failed(recipient: str, *, tag: str | None = None, codes: tuple[int, ...] = (131047,)) -> dict:
    errors = [{"code": code, "title": f"error {code}"} for code in codes]
    return status_payload("wamid.OUT9", "failed", recipient, tag=tag, errors=errors, timestamp=1_700_000_000)


def test_a_failed_status_follows_up_on_the_recipients_thread_with_every_code() -> None:
    [follow_up] = report(parse_payload(_failed(USER.wa_id, tag="r:abc", codes=(131047, 131026))))
    assert follow_up == follow_up._replace(
        wamid="status.failed.wamid.OUT9",
        thread_id=USER.wa_id,
        wa_id=USER.wa_id,
        phone_number_id=DEFAULT_PHONE_NUMBER_ID,
        timestamp=1_700_000_000,
        type="status",
        event="status.failed",
        target_id="wamid.OUT9",
        error_codes=(131047, 131026),
        outbound_tag="r:abc",
        reply_unsupported=False,
    )


def test_a_business_scoped_recipient_has_no_phone_number() -> None:
    [follow_up] = report(parse_payload(_failed("US.13491208655302741918")))
    assert (follow_up.thread_id, follow_up.wa_id) == ("US.13491208655302741918", None)


def test_a_failed_status_without_a_recipient_has_nobody_to_follow_up() -> None:
    assert report(parse_payload(_failed(""))) == []


@given(tag=st.text(min_size=1, max_size=2 * TAG_LIMIT))
def test_a_tag_is_kept_only_within_the_limit(tag: str) -> None:
    [follow_up] = report(parse_payload(_failed(USER.wa_id, tag=tag)))
    assert follow_up.outbound_tag == (tag if len(tag) <= TAG_LIMIT else None)


def test_a_calls_errors_and_statuses_are_neither_the_accounts_nor_a_messages(log_events: LogEvents) -> None:
    # Were read as the account's errors (a warning and an `AccountError_` metric for a call that ended)
    # and as a message's status: a failed call became a delivery follow-up on the turn path.
    terminated = recorded_body("pywa/call_terminate.json#call_terminate")
    ringing = recorded_body("pywa/call_status.json#call_status")
    failed = recorded_body("pywa/call_status.json#call_status")
    failed["entry"][0]["changes"][0]["value"]["statuses"][0].update(
        status="failed", errors=[{"code": 131047}]
    )
    for body in (terminated, ringing, failed):
        assert report(parse_payload(body)) == []
    assert log_events.named("WHATSAPP_ACCOUNT_ERROR") == [] and log_events.named("WHATSAPP_STATUS") == []
    assert log_events.named("WHATSAPP_DELIVERY_FAILED") == []
    assert [e["field"] for e in log_events.named("WEBHOOK_FIELD_IGNORED")] == ["calls"] * 3


def test_the_documented_account_error_and_played_status_are_read(log_events: LogEvents) -> None:
    assert report(parse_payload(recorded_body("meta/errors.json"))) == []
    [error] = log_events.named("WHATSAPP_ACCOUNT_ERROR")
    assert (error["metaErrorCode"], error["title"]) == (130429, "Rate limit hit")
    assert report(parse_payload(recorded_body("pywa/message_status.json#played"))) == []
    [played] = log_events.named("WHATSAPP_STATUS")
    assert (played["status"], played["tracked"]) == ("played", False)
