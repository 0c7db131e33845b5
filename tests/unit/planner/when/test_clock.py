"""Times of day: clock times, hour words, parts of the day, and which half of the day an hour is."""

from __future__ import annotations

import pytest

from memo.planner.when.clock import (
    SaidTime,
    in_its_half,
    part_default,
    take_invalid_time,
    take_part,
    take_time,
)
from memo.planner.when.scan import Scan


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("call at 5pm", SaidTime(17, 0, True, False)),
        ("call at noon", SaidTime(12, 0, True, False)),
        ("call at 17:30", SaidTime(17, 30, True, True)),
        ("call at 8.30", SaidTime(8, 30, False, True)),
        ("call at half past six", SaidTime(6, 30, False, False)),
        ("call at a quarter to 5", SaidTime(4, 45, False, False)),
        ("call at five", SaidTime(5, 0, False, False)),
        ("להתקשר ב-5 וחצי", SaidTime(5, 30, False, False)),
        ("להתקשר רבע לשבע", SaidTime(6, 45, False, False)),
        ("להתקשר בשעה 17", SaidTime(17, 0, True, False)),
    ],
)
def test_a_time_of_day_is_read_and_taken_out(text: str, said: SaidTime) -> None:
    scan = Scan(text)
    assert take_time(scan) == said
    assert scan.fragments


def test_no_time_of_day() -> None:
    assert take_time(Scan("buy 2 tickets")) is None


def test_an_hour_is_put_in_the_half_of_the_day_its_words_say() -> None:
    bare = SaidTime(5, 0, False, False)
    assert in_its_half(bare, part=None, text="call dad") == 17  # 1 to 6: the afternoon
    assert in_its_half(SaidTime(5, 30, False, True), part=None, text="") == 17  # "5:30" too
    assert in_its_half(SaidTime(7, 30, False, True), part=None, text="") == 7  # its day decides
    assert in_its_half(SaidTime(8, 0, False, False), part=None, text="dinner") == 20
    assert in_its_half(SaidTime(8, 30, False, True), part=None, text="dinner") == 20
    assert in_its_half(SaidTime(8, 0, False, False), part="morning", text="") == 8
    assert in_its_half(SaidTime(5, 0, True, False), part="evening", text="") == 5  # am said
    assert in_its_half(SaidTime(5, 0, True, True), part=None, text="") == 5  # "05:00"


def test_parts_of_the_day_and_their_default_hours() -> None:
    scan = Scan("run 8 in the evening")
    found = take_part(scan, day_known=False)
    assert found is not None and found.part == "evening" and found.bare_hour is not None
    assert part_default("morning") == 9 and part_default("tonight") == 20
    assert take_part(Scan("good morning"), day_known=False) is None  # a bare "morning" needs a day


def test_a_time_that_does_not_exist_is_taken_out() -> None:
    scan = Scan("call the bank at 25:00")
    assert take_invalid_time(scan)
    assert scan.text.strip() == "call the bank"
