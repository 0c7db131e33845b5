"""What a tracked message carried: the record a failed status's tag becomes."""

from __future__ import annotations

from memo.whatsapp.tracking import OutboundRecord, OutboundTag
from tests.support.clock import TEST_NOW as NOW


def test_a_reminder_tag_becomes_the_failed_messages_record() -> None:
    tag = OutboundTag.new("reminder", "972501234567", seed="claim-1", reminder_id="r-42", mode="template")
    decoded = OutboundTag.decode(tag.encode())
    assert decoded is not None
    record = OutboundRecord.of_tag(decoded, "wamid.OUT", at=NOW, phone_number_id="555")
    assert record == OutboundRecord(
        message_id="wamid.OUT",
        thread_id="972501234567",
        kind="reminder",
        at=NOW,
        phone_number_id="555",
        reminder_id="r-42",
        mode="template",
        token=tag.token,
    )


def test_a_replys_record_names_no_reminder() -> None:
    record = OutboundRecord.of_tag(
        OutboundTag.new("reply", "972501234567", seed="wamid.IN"), "wamid.OUT", at=NOW
    )
    assert (record.kind, record.reminder_id, record.mode, record.phone_number_id) == (
        "reply",
        None,
        None,
        None,
    )
