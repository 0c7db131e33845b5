"""The tracking tag in `biz_opaque_callback_data`: compact, under Meta's 512 characters, and read
back only when it is Memo's."""

from __future__ import annotations

import json
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.whatsapp.tags import TAG_LIMIT, OutboundKind, OutboundTag, SendMode, send_token


def test_a_reminder_tag_round_trips_compactly() -> None:
    tag = OutboundTag.new("reminder", "972501234567", seed="claim-1", reminder_id="r-42", mode="template")
    encoded = tag.encode()
    assert len(encoded) < 120
    assert OutboundTag.decode(encoded) == tag


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
        '{"memo":1,"k":"r","s":"x","t":"1","p":true}',
        '{"memo":1,"k":"r","s":"x","t":""}',
        '{"memo":1,"k":"d","s":"x","t":"1","r":7}',
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


def test_a_part_is_the_same_send_with_its_index() -> None:
    tag = OutboundTag.new("reply", "972501234567", seed="wamid.IN")
    assert tag.for_part(0) is tag
    second = tag.for_part(2)
    assert (second.token, second.part) == (tag.token, 2)
    assert OutboundTag.decode(second.encode()) == second


tags = st.builds(
    OutboundTag,
    kind=st.sampled_from(get_args(OutboundKind)),
    thread_id=st.text(min_size=1, max_size=700),
    token=st.text(min_size=1, max_size=12),
    reminder_id=st.none() | st.text(max_size=600),
    mode=st.none() | st.sampled_from(get_args(SendMode)),
    part=st.integers(min_value=0, max_value=20),
)


@given(tags)
def test_every_tag_fits_metas_limit_and_reads_back_what_it_kept(tag: OutboundTag) -> None:
    encoded = tag.encode()
    assert len(encoded) <= TAG_LIMIT
    decoded = OutboundTag.decode(encoded, recipient="972501234567")
    assert decoded is not None
    assert (decoded.kind, decoded.token, decoded.mode, decoded.part) == (
        tag.kind,
        tag.token,
        tag.mode,
        tag.part,
    )
    assert decoded.thread_id in (tag.thread_id, "972501234567")
    assert decoded.reminder_id in (tag.reminder_id, None)
    if len(json.dumps([tag.thread_id, tag.reminder_id], ensure_ascii=False)) < 400:
        assert decoded == tag  # what fits is kept whole
