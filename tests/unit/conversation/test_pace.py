"""A sender's pace: the burst, the refill, the one notice per run of messages, and the sending time."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from memo.conversation.pace import LATEST_SENDING, Admission, Pace, PaceLimits, admit, sent_at, slow_down
from tests.support.clock import TEST_NOW

LIMITS = PaceLimits(burst=3, per_minute=30)  # three at once, then one every 2 seconds


def run(times: list[datetime], limits: PaceLimits = LIMITS) -> list[Admission]:
    """Each message's admission, the pace kept from one to the next as the turn keeps it."""
    pace: Pace | None = None
    admissions = []
    for at in times:
        admission = admit(pace, at, limits)
        pace = admission.pace or pace
        admissions.append(admission)
    return admissions


def test_the_burst_is_turned_and_the_next_one_is_told_once() -> None:
    admissions = run([TEST_NOW] * 6)
    assert [a.turned for a in admissions] == [True, True, True, False, False, False]
    assert [a.notice for a in admissions] == [False, False, False, True, False, False]
    # Dropped messages change nothing: nothing to write.
    assert admissions[4].pace is None and admissions[5].pace is None


def test_at_the_limit_and_past_it() -> None:
    at_limit = run([TEST_NOW] * LIMITS.burst)
    assert all(a.turned for a in at_limit)
    past = run([TEST_NOW] * (LIMITS.burst + 1))
    assert not past[-1].turned and past[-1].notice


def test_one_message_per_interval_comes_back_after_the_burst() -> None:
    times = [TEST_NOW] * 4 + [TEST_NOW + timedelta(seconds=2), TEST_NOW + timedelta(seconds=3)]
    admissions = run(times)
    assert [a.turned for a in admissions] == [True, True, True, False, True, False]
    # Still the same run of messages: no second notice.
    assert [a.notice for a in admissions].count(True) == 1


def test_a_quiet_sender_is_whole_again_and_a_new_flood_is_told_again() -> None:
    flood = [TEST_NOW] * 5
    rested = TEST_NOW + LIMITS.interval * LIMITS.burst
    admissions = run([*flood, *[rested] * 5])
    assert [a.notice for a in admissions].count(True) == 2
    assert [a.turned for a in admissions[5:]] == [True, True, True, False, False]


def test_a_flood_of_300_in_30_seconds_turns_the_burst_and_the_refill() -> None:
    limits = PaceLimits()  # the defaults: 20 at once, then 30 a minute
    times = [TEST_NOW + timedelta(seconds=i // 10) for i in range(300)]
    admissions = run(times, limits)
    turned = sum(a.turned for a in admissions)
    assert turned == limits.burst + 29 // 2  # 20 at once, then one every 2 s of the 29 that follow
    assert sum(a.notice for a in admissions) == 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=5000), min_size=1, max_size=80))
def test_no_window_turns_more_than_the_burst_and_its_refill(gaps_ms: list[int]) -> None:
    """Over any stretch of time, at most `burst` + its length / interval messages are turned, and
    each run of messages past the pace is told at most once."""
    times, at = [], TEST_NOW
    for gap in gaps_ms:
        at += timedelta(milliseconds=gap)
        times.append(at)
    admissions = run(times)
    turned = [t for t, a in zip(times, admissions, strict=True) if a.turned]
    for i, first in enumerate(turned):
        for j in range(i, len(turned)):
            allowed = LIMITS.burst + (turned[j] - first) / LIMITS.interval
            assert j - i + 1 <= allowed + 1e-9
    notices = [t for t, a in zip(times, admissions, strict=True) if a.notice]
    for earlier, later in itertools.pairwise(notices):
        assert later - earlier >= LIMITS.interval  # a new run only after the sender rested


def test_a_message_counts_at_its_sending_time() -> None:
    sent = TEST_NOW - timedelta(seconds=40)
    assert sent_at(int(sent.timestamp()), TEST_NOW) == sent.replace(microsecond=0)
    # No time, a time ahead of the clock, or one older than a delivery retried long after: now.
    assert sent_at(0, TEST_NOW) == TEST_NOW
    assert sent_at(int((TEST_NOW + timedelta(minutes=5)).timestamp()), TEST_NOW) == TEST_NOW
    old = TEST_NOW - LATEST_SENDING - timedelta(seconds=1)
    assert sent_at(int(old.timestamp()), TEST_NOW) == TEST_NOW


def test_the_notice_speaks_the_sender_s_language() -> None:
    assert "give me a moment" in slow_down("en")
    assert "רק רגע" in slow_down("he")


def test_a_stored_pace_reads_back() -> None:
    pace = Pace(full_at=TEST_NOW, warned=True)
    assert Pace.model_validate(pace.model_dump(mode="json")) == pace


def test_the_thread_s_pace_is_its_newest_user_message_s() -> None:
    from memo.conversation.model import MemoryMessage, ThreadSnapshot

    kept = Pace(full_at=TEST_NOW)
    said = MemoryMessage(role="user", text="hi", at=TEST_NOW, pace=kept)
    answered = MemoryMessage(role="assistant", text="hello", at=TEST_NOW)
    assert ThreadSnapshot(thread_id="t", recent=[said, answered]).pace == kept
    # The furthest of those kept (messages of one instant have no order), the notice's over the
    # message before it; a message stored without one (an earlier release's) changes nothing.
    later = MemoryMessage(
        role="user", text="hey", at=TEST_NOW, pace=Pace(full_at=TEST_NOW + timedelta(seconds=2))
    )
    notice = MemoryMessage(
        role="user", text="hey!", at=TEST_NOW, pace=later.pace.model_copy(update={"warned": True})
    )  # type: ignore[union-attr]
    unkept = MemoryMessage(role="user", text="hm", at=TEST_NOW)
    assert ThreadSnapshot(thread_id="t", recent=[notice, later, said, unkept]).pace == notice.pace
    assert ThreadSnapshot(thread_id="t", recent=[unkept]).pace is None
    assert ThreadSnapshot(thread_id="t").pace is None
