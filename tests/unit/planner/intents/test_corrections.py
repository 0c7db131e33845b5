"""Corrections right after something was done: a new time, a new title, a note's new value."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.domain import LatestAction
from memo.planner.intents import corrections
from memo.planner.intents.corrections import in_its_place
from memo.planner.match import GUESS
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import NOW, latest, pin

PLANNER = RulePlanner()


def test_a_new_time_for_the_reminder_just_set() -> None:
    inp = pin("oops i meant tomorrow", actions=(latest(),))
    assert corrections.correction("oops i meant tomorrow", inp) == "move it tomorrow"


def test_a_new_title_for_the_reminder_just_set() -> None:
    inp = pin("no, call dad instead", actions=(latest(),))
    assert corrections.correction("no, call dad instead", inp) == "change it to call dad"


def test_replacement_title_tells_a_title_from_a_time() -> None:
    assert corrections.replacement_title("i meant call dad", now=NOW) == "call dad"
    assert corrections.replacement_title("i meant tomorrow", now=NOW) is None
    assert corrections.replacement_title("i meant call dad tomorrow", with_time=True) == "call dad tomorrow"


def test_names_a_time() -> None:
    assert corrections.names_a_time("the evening", NOW)
    assert corrections.names_a_time("בשש", NOW)
    assert not corrections.names_a_time("call dad", NOW)


def test_a_note_said_again_replaces_its_value() -> None:
    saved = LatestAction(
        created_at=NOW,
        capability="notes",
        action="save",
        summary="wifi password is sunshine42",
        external_ids={"noteId": "n-1"},
    )
    inp = pin("actually it's sunshine43", actions=(saved,))
    found = corrections.note_said_again("actually it's sunshine43", inp)
    assert found is not None and found.changes == {"text": "sunshine43"}


def _saved(text: str) -> LatestAction:
    return LatestAction(
        created_at=NOW, capability="notes", action="save", summary=text, external_ids={"noteId": "n-1"}
    )


def test_a_note_said_again_by_its_subject_is_offered_as_its_new_text() -> None:
    # Was a second note: only "actually it's X" read as a correction of the note just saved.
    for saved, said, new in [
        (
            "the school play is on the 20th",
            "actually the school play is on the 21st",
            "the school play is on the 21st",
        ),
        (
            "the school play is on the 20th",
            "actually school play on the 21st",
            "the school play is on the 21st",
        ),
        ("ההצגה ב-20", "בעצם ההצגה ב-21", "ההצגה ב-21"),
        ("ההצגה בעשרים", "בעצם ההצגה בעשרים ואחד", "ההצגה בעשרים ואחד"),
    ]:
        inp = pin(said, actions=(_saved(saved),))
        output = PLANNER.plan(inp).output
        assert [(p.capability, p.action, p.changes) for p in output.plan] == [
            ("notes", "update", {"text": new, "whole": True})
        ], said
        assert output.confidence <= GUESS  # offered, never written unasked


def test_another_subject_or_no_correction_word_is_no_revision() -> None:
    saved = _saved("the school play is on the 20th")
    for said in ("actually the dentist is on monday", "the school play is on the 21st"):
        assert corrections.note_said_again(said, pin(said, actions=(saved,))) is None, said
    # Another thing that only starts with the note's first word is no revision of it.
    plumber = _saved("call the plumber about the leak in the kitchen")
    said = "actually call mom at 5"
    assert corrections.note_said_again(said, pin(said, actions=(plumber,))) is None


_CHANGE_VERBS = (
    "make it",
    "change it to",
    "move it to",
    "set it to",
    "push it to",
    "תעשה את זה",
    "תזיז את זה ל",
)
_NEW_TIMES = ("6pm", "at 6pm", "18:00", "saturday", "tomorrow at 9", "in the evening", "בשש", "מחר ב-9")
_LEADS = ("", "no, ", "actually ", "oops ", "sorry, ")


@given(
    verb=st.sampled_from(("", *_CHANGE_VERBS)),
    when=st.sampled_from(_NEW_TIMES),
    lead=st.sampled_from(_LEADS),
    instead=st.sampled_from(("", " instead", " במקום")),
)
def test_a_new_time_said_with_instead_never_renames_the_reminder(
    verb: str, when: str, lead: str, instead: str
) -> None:
    # "make it 6pm instead" renamed the reminder to "make it".
    message = f"{lead}{verb} {when}{instead}".strip()
    planned = RulePlanner().plan(pin(message, actions=(latest(),))).output
    for step in planned.plan:
        assert "title" not in step.changes, (message, step.changes)


@given(
    leads=st.lists(st.sampled_from(["no", "no wait", "no no", "nope", "sorry", "oops", "no, wait"]), min_size=1, max_size=1),
    punctuation=st.sampled_from([", ", "! ", "... "]),
    said=st.sampled_from([("9pm", {"time": "21:00"}), ("tomorrow", {"when": "2024-05-02T17:00:00+03:00"}),
                          ("friday", {"when": "2024-05-03T17:00:00+03:00"}), ("at 6", {"time": "18:00"})]),
)  # fmt: skip
def test_a_correction_led_in_by_several_words_moves_the_reminder_just_set(
    leads: list[str], punctuation: str, said: tuple[str, dict[str, str]]
) -> None:
    # "no wait, 9pm" was asked as a new reminder titled “no wait”; "no wait, tomorrow" as a skip of
    # a reminder called “wait”.
    message = f"{leads[0]}{punctuation}{said[0]}"
    (step,) = PLANNER.plan(pin(message, actions=(latest(hours=7),))).output.plan
    assert (step.action, step.constraints.get("targetRef"), step.changes) == (
        "update",
        "latest_action",
        said[1],
    )


def test_hebrew_a_correction_led_in_by_two_words() -> None:
    (step,) = PLANNER.plan(pin("no wait 9pm", actions=(latest(),))).output.plan
    assert step.action == "update" and step.changes == {"time": "21:00"}
    (step,) = PLANNER.plan(pin("לא רגע, ב-9 בערב", actions=(latest(),))).output.plan
    assert step.action == "update" and step.changes == {"time": "21:00"}


_EN_DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_HE_DAYS = ["שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת", "ראשון"]


@pytest.mark.parametrize(
    "phrasing",
    [
        "{new} not {old}",
        "oops, {new} not {old}",
        "sorry {new}, not {old}",
        "not {old}, {new}",
        "no wait, {new} not {old}",
    ],
)
def test_a_day_not_another_moves_the_reminder_just_set(phrasing: str) -> None:
    # "oops, tuesday not monday" was not understood.
    just_set = (latest(),)
    for new in _EN_DAYS:
        for old in _EN_DAYS:
            if new == old:
                continue
            said = phrasing.format(new=new, old=old)
            assert corrections.correction(said, pin(said, actions=just_set)) == f"move it {new}", said


@pytest.mark.parametrize("phrasing", ["{new} ולא {old}", "אופס, {new} ולא {old}", "לא ב{old}, ב{new}"])
def test_hebrew_a_day_not_another(phrasing: str) -> None:
    just_set = (latest(),)
    for n, new in enumerate(_HE_DAYS):
        old = _HE_DAYS[(n + 1) % 7]
        said = phrasing.format(new=new, old=old)
        moved = corrections.correction(said, pin(said, actions=just_set))
        assert moved is not None and moved.startswith("move it") and new in moved, said


@pytest.mark.parametrize("said", ["milk not bread", "call dad not mom", "tuesday not the gym"])
def test_things_not_times_are_no_such_correction(said: str) -> None:
    moved = corrections.correction(said, pin(said, actions=(latest(),)))
    assert moved is None or not moved.startswith("move it")


_TITLES_WITH_A_THING = [
    ("call the plumber", "the", "the electrician", "call the electrician"),
    ("pick up my daughter from school", "my", "my son", "pick up my son from school"),
    ("book a haircut for friday", "a", "a massage", "book a massage for friday"),
    ("drive her mother to the airport", "her", "her sister", "drive her sister to the airport"),
]


@pytest.mark.parametrize(("title", "det", "new", "renamed"), _TITLES_WITH_A_THING)
@pytest.mark.parametrize(
    "said", ["no wait, make it {new}", "make it {new}", "I meant {new}", "oops i meant {new}"]
)
def test_a_thing_said_to_replace_one_takes_its_place_in_the_title(
    title: str, det: str, new: str, renamed: str, said: str
) -> None:
    # "no wait, make it the electrician" after “call the plumber” was not understood, and "I meant
    # the electrician" renamed it “the electrician”.
    just_set = LatestAction(
        created_at=NOW - timedelta(minutes=1),
        capability="reminders",
        action="create",
        summary=f"reminder “{title}” for Tue 24 Nov, 09:00",
        when=NOW + timedelta(hours=7),
        external_ids={"reminderId": "r-1"},
    )
    step = RulePlanner().plan(pin(said.format(new=new), actions=(just_set,))).output.plan[0]
    assert (step.action, step.changes) == ("update", {"title": renamed})


def test_a_thing_the_title_has_no_place_for_is_the_whole_title_or_asked() -> None:
    just_set = LatestAction(
        created_at=NOW - timedelta(minutes=1),
        capability="reminders",
        action="create",
        summary="reminder “call mom” for Tue 24 Nov, 09:00",
        external_ids={"reminderId": "r-1"},
    )
    assert in_its_place(just_set, "the electrician") == "the electrician"
    assert in_its_place(just_set, "call dad") == "call dad"
    result = RulePlanner().plan(pin("make it the gym", actions=(just_set,)))
    assert result.output.missing_fields  # nothing in “call mom” is a "the ...": asked, never guessed


@pytest.mark.parametrize("said", ["התכוונתי לבן שלי", "לא, התכוונתי את הבן שלי", "אופס, התכוונתי הבן שלי"])
@pytest.mark.parametrize(
    ("title", "renamed"),
    [("לאסוף את הבת שלי", "לאסוף את הבן שלי"), ("להסיע את הבת שלי לחוג", "להסיע את הבן שלי לחוג")],
)
def test_hebrew_a_thing_of_ones_own_said_instead_takes_its_place(said: str, title: str, renamed: str) -> None:
    # "התכוונתי לבן שלי" renamed „לאסוף את הבת שלי” to „לבן שלי”.
    just_set = LatestAction(
        created_at=NOW - timedelta(minutes=1),
        capability="reminders",
        action="create",
        summary=f"תזכורת „{title}” ליום ב׳ 23.11 בשעה 16:00",
        when=NOW + timedelta(hours=7),
        external_ids={"reminderId": "r-1"},
    )
    step = RulePlanner().plan(pin(said, actions=(just_set,))).output.plan[0]
    assert (step.action, step.changes) == ("update", {"title": renamed})


@pytest.mark.parametrize(
    ("words", "read"),
    [
        ("nine", "at nine"),
        ("to nine thirty", "at nine thirty"),
        ("at eleven fifteen", "at eleven fifteen"),
        ("seven o'clock", "at seven o'clock"),
        ("seven apples", None),
        ("buy milk", None),
        ("the dentist", None),
        ("תשע", None),
    ],
)
def test_a_clock_time_in_words_is_all_the_words_say(words: str, read: str | None) -> None:
    assert corrections.spoken_clock(words, NOW) == read
    assert corrections.names_a_time(words, NOW) is (read is not None)


def _reminder_just_set(summary: str, *, when: datetime | None = None) -> LatestAction:
    """A reminder set a minute ago, as the latest actions hold it."""
    return LatestAction(
        created_at=NOW - timedelta(minutes=1),
        capability="reminders",
        action="create",
        summary=summary,
        when=when,
        external_ids={"reminderId": "r-1"},
    )


@pytest.mark.parametrize(
    ("title", "new", "renamed"),
    [
        ("call mom", "dad", "call dad"),
        ("buy flowers", "roses", "buy roses"),
        ("text dana", "Noa", "text Noa"),
        ("להתקשר לאמא", "לאבא", "להתקשר לאבא"),
        ("להתקשר לאמא", "אבא", "להתקשר לאבא"),
    ],
)
@pytest.mark.parametrize(
    "said", ["i meant {new}", "sorry i meant {new}", "oops, i meant {new}", "התכוונתי {new}"]
)
def test_one_word_meant_for_a_verb_and_its_word_takes_that_word_s_place(
    title: str, new: str, renamed: str, said: str
) -> None:
    # "sorry i meant dad" after “call mom” renamed the reminder “dad”.
    just_set = _reminder_just_set(f"reminder “{title}” for Tue 24 Nov, 09:00", when=NOW + timedelta(hours=7))
    step = RulePlanner().plan(pin(said.format(new=new), actions=(just_set,))).output.plan[0]
    assert (step.action, step.changes) == ("update", {"title": renamed}), said.format(new=new)


@pytest.mark.parametrize(
    ("title", "new"), [("pick up the kids", "dad"), ("call mom", "call dad"), ("call mom", "call")]
)
def test_one_word_for_a_longer_title_or_a_whole_title_is_the_whole_new_title(title: str, new: str) -> None:
    just_set = _reminder_just_set(f"reminder “{title}” for Tue 24 Nov, 09:00")
    assert in_its_place(just_set, new) == new


@pytest.mark.parametrize("looked", [("notes", "search"), ("notes", "find"), ("notes", "list")])
def test_a_note_said_again_after_only_looking_at_notes_still_corrects_it(looked: tuple[str, str]) -> None:
    # "where did i park?" -> the note -> "actually it's level 3" was not understood.
    read = LatestAction(created_at=NOW, capability=looked[0], action=looked[1], summary="Found 1 note")
    said = "actually it's level 3"
    found = corrections.note_said_again(said, pin(said, actions=(read, _saved("parking spot is B4 level 2"))))
    assert found is not None and found.constraints["target"] == "parking spot is B4 level 2"


@pytest.mark.parametrize("since", [("lists", "show"), ("reminders", "list"), ("reminders", "create")])
def test_anything_else_done_or_looked_at_since_the_note_is_no_correction_of_it(
    since: tuple[str, str],
) -> None:
    other = LatestAction(created_at=NOW, capability=since[0], action=since[1], summary="x")
    said = "actually it's level 3"
    assert (
        corrections.note_said_again(said, pin(said, actions=(other, _saved("parking spot is B4 level 2"))))
        is None
    )


@pytest.mark.parametrize(
    "said",
    [
        "no, the one after",
        "the one after that",
        "no the week after",
        "i meant the one after",
        "לא, בשבוע שאחרי",
        "התכוונתי לזה שאחרי",
    ],
)
@pytest.mark.parametrize("hours", [2, 30, 150])
def test_the_one_after_moves_the_reminder_just_set_a_week_later(said: str, hours: int) -> None:
    # "next tuesday" said on a Monday is tomorrow, the date shown; "no, the one after" said after it
    # was set was not understood.
    when = NOW + timedelta(hours=hours)
    just_set = _reminder_just_set("reminder “pay the gardener” for Tue 24 Nov, 16:00", when=when)
    step = RulePlanner().plan(pin(said, actions=(just_set,))).output.plan[0]
    assert (step.capability, step.action) == ("reminders", "update"), said
    assert step.changes["when"] == (when + timedelta(weeks=1)).isoformat(), said


def test_the_one_after_of_a_series_or_of_a_delete_is_no_week_later() -> None:
    series = _reminder_just_set("reminder “stretch” every day at 08:00", when=NOW + timedelta(hours=3))
    deleted = series.model_copy(update={"action": "delete", "summary": "deleted “call mom”"})
    for latest_ in (series, deleted):
        assert (
            corrections.correction("no, the one after", pin("no, the one after", actions=(latest_,))) is None
        )
    # "every" in a one-time reminder's title is no series: it moves a week on.
    titled = _reminder_just_set(
        "reminder “read every chapter” for Tue 24 Nov, 16:00", when=NOW + timedelta(hours=3)
    )
    assert (
        corrections.correction("no, the one after", pin("no, the one after", actions=(titled,))) is not None
    )
