"""What a note reads after "actually it's ..." or "change the wifi note to ..." (`revised_text`), and
after "add candles to my party note" (`appended`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.capabilities.notes import appended, has_a_value, revised_text


@pytest.mark.parametrize(
    ("old", "said", "new"),
    [
        ("wifi password is sunshine42", "sunshine43", "wifi password is sunshine43"),
        ("gate code: 4321", "4312", "gate code: 4312"),
        ("the kids' shoe sizes are 31 and 34", "32 and 34", "the kids' shoe sizes are 32 and 34"),
        ("הקוד של השער הוא 1234", "1243", "הקוד של השער הוא 1243"),
        # Said as a whole note: the whole note.
        ("wifi password is sunshine42", "wifi password is moon7", "wifi password is moon7"),
        ("wifi password is sunshine42", "the router password: moon7", "the router password: moon7"),
        # Nothing to keep: the words said are the note.
        ("buy a gift for dana", "buy flowers for noa", "buy flowers for noa"),
        # Words said of a part (their first word is one of the note's): that part, the rest kept.
        ("the car is parked on level 3", "level 4", "the car is parked on level 4"),
        ("the meeting is at 5pm in room 3", "at 6pm", "the meeting is at 6pm in room 3"),
        ("the meeting is at 5pm in room 3", "room 4", "the meeting is at 5pm in room 4"),
        ("car parked on level 3", "level 4", "car parked on level 4"),
        ("החניה בקומה 3", "קומה 4", "החניה בקומה 4"),
        # No "is" or ":", one word with a digit: that word is the value.
        ("מספר הלקוח בחברת החשמל 445566", "778899", "מספר הלקוח בחברת החשמל 778899"),
        ("locker 118 at the gym", "204", "locker 204 at the gym"),
        # Two words with digits: which one is not said, so the words said are the note.
        ("flight LY315 seat 14C", "16A", "16A"),
    ],
)
def test_a_value_alone_replaces_the_value(old: str, said: str, new: str) -> None:
    assert revised_text(old, said) == new


def test_revising_a_revised_note_again_changes_nothing() -> None:
    once = revised_text("gate code is 4321", "4312")
    assert revised_text(once, "4312") == once


def test_which_notes_have_a_value() -> None:
    assert has_a_value("wifi password is sunshine42")
    assert has_a_value("locker: 118")
    assert not has_a_value("buy a gift for dana")


@pytest.mark.parametrize(
    ("old", "added", "new"),
    [
        ("party: balloons", "candles", "party: balloons, candles"),
        ("packing:", "sunscreen", "packing: sunscreen"),
        ("groceries\nmilk\neggs", "bread", "groceries\nmilk\neggs\nbread"),
        ("מסיבה: בלונים", "נרות", "מסיבה: בלונים, נרות"),
        ("party: balloons, candles", "Candles", "party: balloons, candles"),  # there already
    ],
)
def test_what_is_added_goes_at_the_end(old: str, added: str, new: str) -> None:
    assert appended(old, added) == new


_WORDS = st.text(st.characters(categories=("L", "N"), include_characters=" :,"), min_size=1, max_size=40)


@given(old=_WORDS.filter(str.strip), added=_WORDS.filter(str.strip))
def test_adding_keeps_the_note_and_adds_once(old: str, added: str) -> None:
    once = appended(old, added)
    assert once.startswith(old.rstrip())  # nothing of the note is lost
    assert once.casefold().endswith(added.strip().casefold())
    assert appended(once, added) == once  # a re-run after a crash adds nothing twice
