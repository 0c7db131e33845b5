"""The simulated WhatsApp user builds webhook bodies as Meta sends them: one entry, the user's contact
and metadata, increasing timestamps; and statuses with the tag Meta echoes."""

from __future__ import annotations

from memo.ingress.messages import parse_webhook
from memo.ingress.wire import parse_payload
from memo.local.whatsapp_user import DEFAULT_PHONE_NUMBER_ID, WhatsAppUser, status_payload


def test_a_payload_reads_back_as_the_users_messages() -> None:
    user = WhatsAppUser(wa_id="15550000009", name="Noa", user_id="US.42")
    body = user.payload(user.text("hi"), user.button_reply("yes", "Yes"), user.list_reply("r2", "Second"))
    parsed = parse_webhook(parse_payload(body)).messages
    assert [(m.text, m.reply_id) for m in parsed] == [("hi", None), ("Yes", "yes"), ("Second", "r2")]
    assert {(m.thread_id, m.user_id, m.profile_name, m.phone_number_id) for m in parsed} == {
        ("15550000009", "US.42", "Noa", DEFAULT_PHONE_NUMBER_ID)
    }
    assert parsed[0].timestamp < parsed[1].timestamp < parsed[2].timestamp
    assert len({m.wamid for m in parsed}) == 3


def test_a_given_wamid_is_kept() -> None:
    user = WhatsAppUser()
    assert user.text("hi", wamid="wamid.SAME")["id"] == "wamid.SAME"


def test_a_status_carries_its_tag_and_errors_only_when_given() -> None:
    plain = status_payload("wamid.A", "delivered", "972501234567", timestamp=5)
    [status] = plain["entry"][0]["changes"][0]["value"]["statuses"]
    assert status == {
        "id": "wamid.A",
        "status": "delivered",
        "timestamp": "5",
        "recipient_id": "972501234567",
    }
    failed = status_payload("wamid.A", "failed", "972501234567", tag="r:1", errors=[{"code": 131047}])
    [status] = failed["entry"][0]["changes"][0]["value"]["statuses"]
    assert (status["biz_opaque_callback_data"], status["errors"]) == ("r:1", [{"code": 131047}])
