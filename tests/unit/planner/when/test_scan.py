"""The message as the time parser reads it: fragments taken out, the title left tidy."""

from __future__ import annotations

import re

from memo.planner.when.scan import Scan, tidy


def test_a_fragment_taken_leaves_spaces_so_later_positions_still_hold() -> None:
    scan = Scan("call mom at 5 tomorrow")
    later = re.search("tomorrow", scan.text)
    scan.take_span(9, 13)
    assert scan.fragments == ["at 5"]
    assert scan.text == "call mom      tomorrow"
    assert later is not None and scan.text[later.start() : later.end()] == "tomorrow"


def test_tidy_drops_the_prepositions_the_time_left_behind() -> None:
    assert tidy("call mom  at ") == "call mom"
    assert tidy("להתקשר לאמא ב ") == "להתקשר לאמא"
    assert tidy("buy milk , ") == "buy milk"
