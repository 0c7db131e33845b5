"""`memo.packing`: what the turn path stores packed reads back exactly, in every format ever written."""

from __future__ import annotations

import base64
import json
import zlib
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.domain import PendingHITL, TurnInput, TurnState
from memo.packing import _DICTIONARY_V1, UnreadablePacked, pack, pack_text, unpack, unpack_text

# Packed by format 1 when it was released: it must read back forever (the dictionary never changes).
RELEASED_V1 = bytes.fromhex("0178f9f9347bb9c32c3023304a4b5303080016b000633b0d7a")


def _question_state(message: str, question: str) -> TurnState:
    now = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
    pending = PendingHITL.model_validate(
        {
            "hitlId": "2520f1b5-389d-4d01-aaab-daa877dd310b",
            "kind": "approval",
            "source": "planner",
            "reason": "high_risk",
            "originStepId": "s1",
            "returnTo": {"node": "resolver_router", "mode": "continue"},
            "expectedInput": "yes_no",
            "question": question,
            "options": [{"id": "approve", "label": "Approve"}, {"id": "reject", "label": "Reject"}],
            "policySource": "planner",
            "createdAt": now.isoformat(),
            "expiresAt": (now + timedelta(minutes=5)).isoformat(),
        }
    )
    return TurnState(
        trace_id="wamid.HBgL4705A60A1B26429DB6C3099B9A23E79C",
        thread_id="972500000098",
        input=TurnInput(message=message, timezone="Asia/Jerusalem"),
        pending_hitl=pending,
    )


def test_a_value_released_in_format_1_reads_back() -> None:
    assert unpack(RELEASED_V1) == '{"traceId":"wamid.X","threadId":"972500000001"}'
    assert RELEASED_V1[0] == 1


@pytest.mark.parametrize(
    ("message", "question"),
    [
        ("delete all my reminders", "Before I go ahead: I'm about to delete all your reminders (2)"),
        ("תמחק את כל התזכורות שלי", "לפני שאמשיך: אני עומד למחוק את כל התזכורות שלך (2)"),
    ],
)
def test_a_question_state_packs_smaller_than_zlib_alone_and_reads_back(message: str, question: str) -> None:
    state = _question_state(message, question)
    text = state.model_dump_json(exclude_none=True, exclude_defaults=True)

    packed = pack(text)

    assert TurnState.from_json(unpack(packed)) == state
    assert len(packed) < len(zlib.compress(text.encode(), 9)) < len(text.encode())


def test_plain_json_stored_before_packing_reads_as_it_is() -> None:
    stored = json.dumps({"traceId": "wamid.1"})
    assert unpack(stored) == stored
    assert unpack_text(stored) == stored
    assert unpack_text('[{"summary": "x"}]') == '[{"summary": "x"}]'


def test_packed_text_is_ascii_and_reads_back() -> None:
    document = json.dumps({"groups": [[{"action": "delete_all", "args": {"title": "לקנות חלב"}}]]})
    packed = pack_text(document)
    assert packed.isascii() and not packed.startswith(("{", "["))
    assert unpack_text(packed) == document


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (b"", "empty"),
        (b"\x07" + RELEASED_V1[1:], "unknown packing format 7"),
        (RELEASED_V1[:-3] + b"\x00\x00\x00", "corrupt"),
    ],
)
def test_an_unreadable_packed_value_is_a_clear_error(value: bytes, message: str) -> None:
    with pytest.raises(UnreadablePacked, match=message):
        unpack(value)


def test_text_that_is_neither_json_nor_packed_is_a_clear_error() -> None:
    with pytest.raises(UnreadablePacked, match="neither JSON nor a packed value"):
        unpack_text("not json, not base64!")


@given(st.text())
def test_any_text_reads_back(document: str) -> None:
    assert unpack(pack(document)) == document
    assert unpack_text(pack_text(document)) == document


def _format_1(document: str) -> bytes:
    """`document` packed as format 1 was: zlib's stream, with its header and checksum."""
    compressor = zlib.compressobj(
        9, zlib.DEFLATED, zlib.MAX_WBITS, 9, zlib.Z_DEFAULT_STRATEGY, _DICTIONARY_V1
    )
    return bytes([1]) + compressor.compress(document.encode()) + compressor.flush()


START = json.dumps(
    {
        "trace_id": "wamid.HBgL4705A60A1B26429DB6C3099B9A23E79C",
        "thread_id": "972500000098",
        "phone_number_id": "100000000000001",
        "timezone": "Asia/Jerusalem",
        "groups": [[{"trace_id": "wamid.HBgL4705A60A1B26429DB6C3099B9A23E79C", "step_id": "s1"}]],
    },
    separators=(",", ":"),
)


def test_values_are_packed_in_format_2_smaller_than_format_1_and_both_read_back() -> None:
    packed = pack(START)
    assert packed[0] == 2 and len(packed) < len(_format_1(START))
    assert unpack(packed) == START == unpack(_format_1(START))


@pytest.mark.parametrize("cut", [1, 5])
def test_a_format_2_value_cut_short_or_run_on_is_a_clear_error(cut: int) -> None:
    packed = pack(START)
    with pytest.raises(UnreadablePacked, match="corrupt"):
        unpack(packed[:-cut])
    with pytest.raises(UnreadablePacked, match="corrupt"):
        unpack(packed + b"\x00" * cut)


def test_packed_text_is_base85_and_base64_packed_before_reads_back() -> None:
    packed = pack_text(START)
    assert packed.startswith("0") and len(packed) < len(base64.b64encode(pack(START)))
    assert unpack_text(base64.b64encode(pack(START)).decode()) == START
    assert unpack_text(base64.b64encode(_format_1(START)).decode()) == START
