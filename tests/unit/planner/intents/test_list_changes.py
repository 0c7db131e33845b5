"""Changing one thing on a list: the words that say it (a grid of verbs, things and lists, English
and Hebrew), "make it ..." right after things went on a list, and what stays with reminders and notes
(a time, a reminder's or a note's words, a thing no list is known to hold)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import LatestAction
from memo.planner.intents import list_changes
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import latest, pin


def _step(message: str, actions: tuple[object, ...] = ()) -> tuple[dict[str, object], dict[str, object]]:
    (step,) = RulePlanner().plan(pin(message, actions=actions)).output.plan  # type: ignore[arg-type]
    assert (step.capability, step.action) == ("lists", "update"), (message, step)
    return dict(step.constraints), dict(step.changes or {})


VERBS = ["change {old} to {new}", "replace {old} with {new}", "swap {old} for {new}", "switch {old} to {new}"]
#: (old, new): the new words keep the old ones, or both are things people buy.
THINGS = [("eggs", "12 eggs"), ("milk", "oat milk"), ("bread", "sourdough bread"), ("bread", "rolls")]
LISTS = ["", " on my shopping list", " in the groceries list", " on the todo list"]


@settings(max_examples=150, deadline=None)
@given(
    verb=st.sampled_from(VERBS),
    thing=st.sampled_from(THINGS),
    where=st.sampled_from(LISTS),
    the=st.booleans(),
)
def test_a_change_of_a_thing_names_it_its_new_words_and_its_list(
    verb: str, thing: tuple[str, str], where: str, the: bool
) -> None:
    old, new = thing
    message = verb.format(old=f"the {old}" if the else old, new=new) + where
    constraints, changes = _step(message)
    assert constraints["target"] == old and changes == {"text": new}
    named = where.split()[-2] if where else None
    assert constraints["listName"] == (named if named else UNNAMED_LIST)


@pytest.mark.parametrize(
    ("message", "old", "new", "listed"),
    [
        ("תשנה ביצים ל-12 ביצים", "ביצים", "12 ביצים", UNNAMED_LIST),
        ("תשנה ביצים ל12 ביצים", "ביצים", "12 ביצים", UNNAMED_LIST),
        ("תחליף את הלחם בלחם מחמצת", "לחם", "לחם מחמצת", UNNAMED_LIST),
        ("תחליף חלב בחלב סויה ברשימת הקניות", "חלב", "חלב סויה", "קניות"),
        ("תשנה את החלב לחלב שקדים", "חלב", "חלב שקדים", UNNAMED_LIST),
    ],
)
def test_hebrew_a_change_of_a_thing(message: str, old: str, new: str, listed: str) -> None:
    constraints, changes = _step(message)
    assert constraints == {"listName": listed, "target": old} and changes == {"text": new}


ADDED = latest("lists", "added eggs, bread to the shopping list").model_copy(
    update={"external_ids": {"listKey": "shopping"}}
)


@pytest.mark.parametrize(
    ("message", "old", "new"),
    [
        ("actually make it 12 eggs", "eggs", "12 eggs"),
        ("make that sourdough bread", "bread", "sourdough bread"),
        ("oh wait, make it a dozen eggs", "eggs", "a dozen eggs"),
        ("actually 12 eggs", "eggs", "12 eggs"),
        ("actually sourdough bread", "bread", "sourdough bread"),
        ("actually not the bread", None, None),  # a thing taken off: `list_removals.not_after_all`
        ("actually tomatoes", None, None),  # no thing added said more precisely
        ("תעשה את זה 12 ביצים", None, None),  # Hebrew words for English things: which one is not said
    ],
)
def test_make_it_right_after_an_add_changes_the_thing_its_words_hold(
    message: str, old: str | None, new: str | None
) -> None:
    found = list_changes.make_it(message, pin(message, actions=(ADDED,)))
    if old is None:
        assert found is None
        return
    assert found is not None and found.constraints == {"listName": "shopping", "target": old}
    assert found.changes == {"text": new}


def test_make_it_after_one_thing_added_is_that_thing_and_after_nothing_is_not_a_list_change() -> None:
    one = latest("lists", "הוספתי חלב לרשימת קניות").model_copy(update={"external_ids": {"listKey": "קניות"}})
    found = list_changes.make_it("תעשה את זה חלב סויה", pin("תעשה את זה חלב סויה", actions=(one,)))
    assert (
        found is not None and found.constraints["target"] == "חלב" and found.changes == {"text": "חלב סויה"}
    )
    assert list_changes.make_it("make it 12 eggs", pin("make it 12 eggs")) is None
    assert list_changes.make_it("make it 6pm", pin("make it 6pm", actions=(ADDED,))) is None  # a time
    reminder = latest()
    assert list_changes.make_it("make it 12 eggs", pin("make it 12 eggs", actions=(reminder,))) is None


@pytest.mark.parametrize(
    "message",
    [
        "change the dentist to 5pm",
        "change gym to yoga",
        "change my wifi note to abc123",
        "change the title of the gym reminder to yoga",
        "switch to hebrew",
        "change the time to 6pm",
        "replace my reminder with a new one",
        "תשנה את השם של התזכורת לחדר כושר",
        "change call mom to call mom and dad",  # more after the words: a reminder's title
        "change it to saturdays",
    ],
)
def test_what_is_no_list_change(message: str) -> None:
    assert list_changes.change(message, pin(message)) is None


def test_hebrew_the_new_words_alone_after_adding() -> None:
    added = latest("lists", "הוספתי חלב, ביצים, לחם לרשימת קניות").model_copy(
        update={"external_ids": {"listKey": "קניות"}}
    )
    for said, old, new in [("בעצם 12 ביצים", "ביצים", "12 ביצים"), ("רגע, חלב סויה", "חלב", "חלב סויה")]:
        found = list_changes.make_it(said, pin(said, actions=(added,)))
        assert found is not None and found.constraints["target"] == old and found.changes == {"text": new}
    assert list_changes.make_it("בעצם בלי הלחם", pin("בעצם בלי הלחם", actions=(added,))) is None


def _added(summary: str, key: str) -> LatestAction:
    return latest("lists", summary).model_copy(update={"external_ids": {"listKey": key}})


_EARLIER_THEN_LATER = [
    ("added olive oil to the shopping list", "added paper towels to the shopping list", "olive oil"),
    ("added milk to the shopping list", "added eggs, bread to the shopping list", "milk"),
    ("added nails to the hardware list", "added paper towels to the shopping list", "nails"),
    ("הוספתי שמן זית לרשימת קניות", "הוספתי נייר סופג לרשימת קניות", "שמן זית"),
    ("הוספתי חלב לרשימת קניות", "הוספתי ביצים, לחם לרשימת קניות", "חלב"),
]
_MORE_PRECISELY = {
    "olive oil": ["actually make it 2 bottles of olive oil", "make that extra virgin olive oil"],
    "milk": ["make it oat milk", "actually make it 2 liters of milk"],
    "nails": ["make it 50 nails", "make that steel nails"],
    "שמן זית": ["בעצם תעשה את זה 2 בקבוקי שמן זית", "תעשה את זה שמן זית כתית"],
    "חלב": ["תעשה את זה 2 חלב", "בעצם תעשה את זה חלב סויה"],
}


@pytest.mark.parametrize(("earlier", "later", "thing"), _EARLIER_THEN_LATER)
def test_make_it_holding_a_thing_added_before_the_latest_add_changes_that_thing(
    earlier: str, later: str, thing: str
) -> None:
    # "make it 2 bottles of olive oil" after olive oil, then paper towels renamed the paper towels.
    key = "hardware" if "hardware" in earlier else "קניות" if "קניות" in earlier else "shopping"
    actions = (_added(later, "shopping" if "shopping" in later else "קניות"), _added(earlier, key))
    for said in _MORE_PRECISELY[thing]:
        found = list_changes.make_it(said, pin(said, actions=actions))
        assert found is not None, said
        assert found.constraints == {"listName": key, "target": thing}, said
    # Held by two earlier adds: which one is not guessed.
    twice = (actions[0], actions[1], _added(earlier, key))
    said = _MORE_PRECISELY[thing][0]
    assert list_changes.make_it(said, pin(said, actions=twice)) is None


_TWO_ADDED = latest("lists", "added tomatos, cucumbers to the shopping list").model_copy(
    update={"external_ids": {"listKey": "shopping"}}
)


@pytest.mark.parametrize(
    "lead", ["actually make it", "make that", "oh wait, make it", "actually", "i meant", "sorry, i meant"]
)
@pytest.mark.parametrize(
    ("new", "old"), [("3 tomatoes", "tomatos"), ("2 cucumber", "cucumbers"), ("cherry tomatoes", "tomatos")]
)
def test_the_thing_said_again_in_another_spelling_or_number_is_still_that_thing(
    lead: str, new: str, old: str
) -> None:
    # "actually make it 3 tomatoes" after "tomatos" was not understood (the words did not hold the
    # thing as written); "i meant almond milk" neither.
    message = f"{lead} {new}"
    found = list_changes.make_it(message, pin(message, actions=(_TWO_ADDED,)))
    assert found is not None, message
    assert found.constraints == {"listName": "shopping", "target": old} and found.changes == {"text": new}


def test_i_meant_after_one_thing_added() -> None:
    one = latest("lists", "added milk to the shopping list").model_copy(
        update={"external_ids": {"listKey": "shopping"}}
    )
    for message in ("i meant almond milk", "I mean oat milk", "no, i meant soy milk"):
        found = list_changes.make_it(message, pin(message, actions=(one,)))
        assert found is not None and found.constraints["target"] == "milk", message
    assert list_changes.make_it("i meant tomorrow", pin("i meant tomorrow", actions=(one,))) is None
    he = latest("lists", "הוספתי חלב לרשימת קניות").model_copy(update={"external_ids": {"listKey": "קניות"}})
    found = list_changes.make_it("התכוונתי חלב סויה", pin("התכוונתי חלב סויה", actions=(he,)))
    assert found is not None and found.changes == {"text": "חלב סויה"}
