"""A note changed without "change the note": told that a value changed, a named note updated with
what it should say, and something added to a note (never a list item)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memo.domain import LatestAction
from memo.planner.intents import notes_changes
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import NOW, pin

PLANNER = RulePlanner()


def _steps(message: str, **kwargs: object) -> list[tuple[str, str, dict[str, object], dict[str, object]]]:
    output = PLANNER.plan(pin(message, **kwargs)).output  # type: ignore[arg-type]
    return [(s.capability, s.action, dict(s.constraints), dict(s.changes)) for s in output.plan]


@pytest.mark.parametrize(
    ("message", "target", "value"),
    [
        ("they changed the gate code to 5678", "gate code", "5678"),
        ("we reset the alarm code to 1122", "alarm code", "1122"),
        ("the building just changed the door code to 3344", "door code", "3344"),
        ("the wifi password is now blue42", "wifi password", "blue42"),
        ("the new locker number is 17", "locker number", "17"),
        ("שינו את הקוד ל-9911", "הקוד", "9911"),
        ("החליפו את הסיסמה של הוויפי לgreen7", "הסיסמה של הוויפי", "green7"),
        ("הקוד של השער השתנה ל-4455", "הקוד של השער", "4455"),
    ],
)
def test_told_that_a_kept_value_changed_updates_its_note(message: str, target: str, value: str) -> None:
    assert _steps(message) == [("notes", "update", {"target": target}, {"text": value})]


@pytest.mark.parametrize(
    "message",
    [
        "they changed the meeting to 5",  # a time: a reminder or the calendar, never a note
        "they moved the dentist to 4pm",
        "they changed the menu to something nicer",  # nothing kept (no code, number, password)
        "שינו את הפגישה לחמש",
    ],
)
def test_a_change_of_a_time_or_of_nothing_kept_is_no_note_update(message: str) -> None:
    assert notes_changes.told_changed(message, pin(message)) is None


@pytest.mark.parametrize(
    ("message", "target", "value"),
    [
        ("update the wifi note, new password is blue42", "wifi", "blue42"),
        ("update the wifi note, new password blue42", "wifi", "blue42"),
        ("תעדכן את הפתק של חברת החשמל, המספר החדש 778899", "חברת החשמל", "778899"),
        ("תעדכן את הפתק של הוויפי, הסיסמה החדשה היא 5555", "הוויפי", "5555"),
        ("update my wifi note with blue42", "wifi", "blue42"),
        ("edit the alarm note: 7788", "alarm", "7788"),
        ("תעדכן בפתק של הוויפי שהסיסמה היא 1234", "הוויפי", "1234"),
        ("תעדכן את הפתק של האזעקה: 7788", "האזעקה", "7788"),
    ],
)
def test_a_named_note_updated_with_its_new_value(message: str, target: str, value: str) -> None:
    assert _steps(message) == [("notes", "update", {"target": target}, {"text": value})]


@pytest.mark.parametrize(
    ("message", "target", "item"),
    [
        ("edit my party note and add candles", "party", "candles"),
        ("update the packing note and add sunscreen", "packing", "sunscreen"),
        ("add balloons to my party note", "party", "balloons"),
        ("תוסיף לפתק של המסיבה נרות", "המסיבה", "נרות"),
    ],
)
def test_something_added_to_a_note_is_that_note_never_a_list(message: str, target: str, item: str) -> None:
    (step,) = _steps(message)
    assert step[:3] == ("notes", "update", {"target": target})
    # Added at the note's end, never "candles" alone in place of the note.
    assert step[3] == {"text": item, "append": True}


def test_actually_its_a_value_updates_the_note_just_saved_and_is_asked_without_one() -> None:
    saved = LatestAction(
        created_at=NOW - timedelta(minutes=1),
        capability="notes",
        action="save",
        summary="note “gate code is 1234”",
    )
    assert _steps("actually it's 241", actions=(saved,)) == [
        ("notes", "update", {"targetRef": "latest_action", "target": "gate code is 1234"}, {"text": "241"})
    ]
    output = PLANNER.plan(pin("actually it's 241")).output
    assert output.plan == [] and output.missing_fields == ["intent_unclear"]


def test_a_thing_named_in_the_construct_state_changed() -> None:
    (step,) = _steps("מספר הלקוח בחברת החשמל השתנה ל-99900")
    assert step[:2] == ("notes", "update") and step[3]["text"] == "99900"
    assert step[2]["target"] == "מספר הלקוח בחברת החשמל"


@pytest.mark.parametrize(
    ("text", "named", "added"),
    [
        ("append to my wifi note: router in the closet", "wifi", "router in the closet"),
        ("add to the party note - candles", "party", "candles"),
        ("write in my packing note: passport", "packing", "passport"),
    ],
)
def test_the_note_named_before_what_to_add(text: str, named: str, added: str) -> None:
    # "append to my wifi note: router in the closet" saved a new note "router in the closet".
    found = notes_changes.add_to_note(text, pin(text))
    assert found is not None and found.constraints["target"] == named
    assert found.changes == {"text": added, "append": True}


def test_a_note_not_named_is_no_note_to_add_to() -> None:
    assert notes_changes.add_to_note("append to my note: hello", pin("append to my note: hello")) is None


@pytest.mark.parametrize(
    "phrasing",
    [
        "add to the {note} note that {item}",
        "add to my {note} note: {item}",
        "append to the {note} note saying {item}",
        "add {item} to the {note} note",
        "write {item} in my {note} note",
    ],
)
def test_words_added_to_a_note_go_to_its_end(phrasing: str) -> None:
    # "add to the wifi note that the router is in the closet" saved a new note; "add router in
    # closet to the wifi note" looked for a note “closet to the wifi”.
    for note in ("wifi", "party", "car"):
        for item in (
            "the router is in the closet",
            "router in closet",
            "bring candles",
            "code 1234 on the gate",
        ):
            said = phrasing.format(note=note, item=item)
            found = notes_changes.add_to_note(said, pin(said))
            assert found is not None, said
            assert found.constraints == {"target": note} and found.changes == {
                "text": item,
                "append": True,
            }, said
