"""The tracking tag in `biz_opaque_callback_data`: compact, under Meta's 512 characters, and read
back only when it is Memo's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memo.whatsapp.tracking import TAG_LIMIT, OutboundTag, send_token

NOW = datetime(2026, 11, 24, 8, 0, tzinfo=UTC)


def test_a_reminder_tag_round_trips_and_becomes_the_failed_messages_record() -> None:
    tag = OutboundTag.new("reminder", "972501234567", seed="claim-1", reminder_id="r-42", mode="template")
    encoded = tag.encode()
    assert len(encoded) < 120
    assert OutboundTag.decode(encoded) == tag
    record = tag.record("wamid.OUT", at=NOW, phone_number_id="555")
    assert (record.kind, record.thread_id, record.reminder_id, record.mode, record.token) == (
        "reminder",
        "972501234567",
        "r-42",
        "template",
        tag.token,
    )


def test_the_same_seed_gives_the_same_token_and_no_seed_a_random_one() -> None:
    assert send_token("wamid.A") == send_token("wamid.A") != send_token("wamid.B")
    assert send_token() != send_token()


@pytest.mark.parametrize(
    "raw",
    [
        None,
        "",
        "campaign-7",  # another tool's tag
        '{"source":"api"}',
        '{"memo":2,"k":"r","s":"x","t":"1"}',  # a later version
        '{"memo":1,"k":"z","s":"x","t":"1"}',  # unknown kind
        '{"memo":1,"k":"d","s":"x","t":"1","m":"fax"}',  # unknown mode
        '{"memo":1,"k":"r","t":"1"}',  # no token
        '{"memo":1,"k":"r","s":"x","t":"1","p":-1}',
        "[" * 400,
        "x" * (TAG_LIMIT + 1),
    ],
)
def test_anything_that_is_not_memos_tag_is_no_tag(raw: str | None) -> None:
    assert OutboundTag.decode(raw) is None


def test_a_thread_too_long_for_metas_limit_is_left_out_and_the_recipient_names_it() -> None:
    tag = OutboundTag.new("reply", "U" * 600)
    encoded = tag.encode()
    assert len(encoded) <= TAG_LIMIT
    decoded = OutboundTag.decode(encoded, recipient="972501234567")
    assert decoded is not None and decoded.thread_id == "972501234567"
