"""Deletes that name no kind of thing: a reminder by its time, or what was just done."""

from __future__ import annotations

import pytest

from memo.planner.intents import nounless_deletes
from memo.planner.lexicon import has_hebrew
from tests.unit.planner.conftest import latest, pin


def test_stop_the_one_at_a_time() -> None:
    found = nounless_deletes.stop_by_time("stop the 8pm one", pin("x"))
    assert found is not None
    assert found.constraints == {"target": "8pm", "scope": "series"}
    assert nounless_deletes.stop_by_time("stop the music", pin("x")) is None


def test_delete_by_time_or_by_what_was_just_done() -> None:
    by_time = nounless_deletes.noun_less_delete("cancel the 8pm one", pin("x"))
    assert by_time is not None and by_time.pattern == "reminders:delete_by_time"
    just_done = nounless_deletes.noun_less_delete("delete call mom", pin("x", actions=(latest(),)))
    assert just_done is not None and just_done.pattern == "delete:latest_match"
    guess = nounless_deletes.noun_less_delete("delete the dentist", pin("x"))
    assert guess is not None and guess.pattern == "delete:guess"


def test_everything_on_a_day_is_every_reminder_of_that_day() -> None:
    days = ["tomorrow", "on friday", "for tomorrow", "on monday", "next tuesday", "on dec 3"]
    for lead in ("everything", "all", "all of it", "it all"):
        for verb in ("delete", "cancel", "remove"):
            for day in days:
                message = f"{verb} {lead} {day}"
                found = nounless_deletes.noun_less_delete(message, pin(message))
                assert found is not None and found.action == "delete_all", message
                assert found.constraints == {"only": day} and found.needs_approval, message
    for message in ("תמחק הכל מחר", "תמחק את הכול ביום שישי", "תבטל הכל מחר"):
        found = nounless_deletes.noun_less_delete(message, pin(message))
        assert found is not None and found.action == "delete_all", message
    # A name, a time with it, or "everything" alone is not a day's reminders.
    for message in ("delete everything", "delete call mom", "delete everything every day"):
        found = nounless_deletes.noun_less_delete(message, pin(message))
        assert found is None or found.action != "delete_all", message


def test_hebrew_x_and_y_without_a_kind_is_several_named() -> None:
    found = nounless_deletes.noun_less_delete("תמחק את הבנק ואת המתנה", pin("תמחק את הבנק ואת המתנה"))
    assert found is not None and (found.action, found.constraints) == ("delete_all", {"only": "הבנק והמתנה"})


def test_several_said_as_ones_are_each_named() -> None:
    cases = {
        "delete the plumber one and the cat one": "plumber and cat",
        "cancel the gym and dentist ones": "gym and dentist",
        "remove the gym, the bank and the cat ones": "gym and bank and cat",
        "delete my plumber one & my cat one": "plumber and cat",
    }
    for message, only in cases.items():
        found = nounless_deletes.noun_less_delete(message, pin(message))
        assert found is not None and found.action == "delete_all", message
        assert found.constraints == {"only": only} and found.needs_approval, message
    one = nounless_deletes.noun_less_delete("delete the plumber one", pin("x"))
    assert one is not None and one.action == "delete"  # one named: that one


def test_delete_an_item_just_put_on_a_list_removes_it_from_that_list() -> None:
    added = latest("lists", "added milk, eggs, bread to shopping")
    added = added.model_copy(update={"external_ids": {"listKey": "shopping"}})
    added_he = added.model_copy(update={"summary": "הוספתי חלב, ביצים, לחם לרשימת הקניות"})
    for said, item in (("delete eggs", "eggs"), ("delete the eggs", "eggs"), ("תמחק את הביצים", "ביצים")):
        actions = (added_he if "ב" in said else added,)
        found = nounless_deletes.noun_less_delete(said, pin(said, actions=actions))
        assert found is not None, said
        assert (found.capability, found.action, found.constraints, found.changes) == (
            "lists",
            "remove",
            {"listName": "shopping"},
            {"items": [item]},
        )


_THINGS = {"en": ["milk", "bread", "apples", "eggs", "paper towels"], "he": ["חלב", "לחם", "תפוחים", "ביצים"]}


@pytest.mark.parametrize("verb", ["delete", "cancel", "erase", "תמחק", "תמחקי", "מחק"])
def test_several_things_people_buy_deleted_are_taken_off_a_list(verb: str) -> None:
    # "delete milk and bread" looked for a reminder called “milk and bread”.
    language = "he" if has_hebrew(verb) else "en"
    things = _THINGS[language]
    for n in (2, 3):
        for start in range(len(things) - n + 1):
            named = things[start : start + n]
            if language == "en":
                said = f"{verb} {', '.join(named[:-1])} and the {named[-1]}"
            else:
                said = f"{verb} את ה{' ואת ה'.join(named)}"
            found = nounless_deletes.noun_less_delete(said, pin(said))
            assert found is not None and (found.capability, found.action) == ("lists", "remove"), said
            assert found.changes == {"items": named}, said


@pytest.mark.parametrize("said", ["delete call mom and dad", "delete the gym and the dentist", "delete milk"])
def test_a_thing_alone_or_things_nobody_buys_stay_with_the_reminders(said: str) -> None:
    found = nounless_deletes.noun_less_delete(said, pin(said))
    assert found is not None and found.capability == "reminders", said
