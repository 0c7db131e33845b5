"""A list started or named with nothing to put on it: an add whose items are asked, by the list's
name; every way of saying it, in English and Hebrew, and what is not one."""

from __future__ import annotations

import itertools

import pytest

from memo.domain import LIST_ITEMS_REQUIRED
from memo.planner.intents.list_starts import start, started_with_items
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import pin

PLANNER = RulePlanner()
NAMES = ["packing", "books", "gift ideas", "to-do", "Trip"]
EN_STARTS = [
    "{verb} a {name} list",
    "{verb} a new {name} list",
    "{verb} me a {name} list",
    "{verb} a {name} list for me",
    "can you {verb} a new {name} list",
    "{verb} a new list called {name}",
    "{verb} a list named {name}",
]
EN_VERBS = ["create", "make", "start", "set up", "begin"]
EN_EMPTY_ADDS = [
    "add to my {name} list",
    "put something on the {name} list",
    "add stuff to our {name} list",
    "write something in my {name} list",
]
HE_NAMES = ["טיול", "ספרים", "מתנות"]
HE_STARTS = [
    "{verb} רשימה חדשה ל{name}",
    "{verb} לי רשימה בשם {name}",
    "{verb} רשימה של {name}",
    "{verb} רשימת {name}",
    "{verb} לי רשימת {name} חדשה",
]
HE_VERBS = ["תפתח", "תפתחי", "תיצור", "צור", "תעשה", "תכין"]
HE_EMPTY_ADDS = ["תוסיף לרשימת {name}", "תוסיפי משהו לרשימה של {name}", "תרשום לי לרשימת {name}"]


def _asks_for_items(message: str) -> str:
    found = start(message, pin(message))
    assert found is not None, message
    assert (found.capability, found.action) == ("lists", "add"), message
    assert found.missing == (LIST_ITEMS_REQUIRED,) and found.changes == {"items": []}, message
    name = found.constraints["listName"]
    assert isinstance(name, str)
    return name


@pytest.mark.parametrize(("form", "verb", "name"), list(itertools.product(EN_STARTS, EN_VERBS, NAMES)))
def test_every_english_start_asks_what_goes_on_that_list(form: str, verb: str, name: str) -> None:
    assert _asks_for_items(form.format(verb=verb, name=name)) == name.lower()


@pytest.mark.parametrize(("form", "name"), list(itertools.product(EN_EMPTY_ADDS, NAMES)))
def test_an_english_add_with_nothing_to_add_asks_what(form: str, name: str) -> None:
    assert _asks_for_items(form.format(name=name)) == name.lower()


@pytest.mark.parametrize(("form", "verb", "name"), list(itertools.product(HE_STARTS, HE_VERBS, HE_NAMES)))
def test_every_hebrew_start_asks_what_goes_on_that_list(form: str, verb: str, name: str) -> None:
    assert _asks_for_items(form.format(verb=verb, name=name)) == name


@pytest.mark.parametrize(("form", "name"), list(itertools.product(HE_EMPTY_ADDS, HE_NAMES)))
def test_a_hebrew_add_with_nothing_to_add_asks_what(form: str, name: str) -> None:
    assert _asks_for_items(form.format(name=name)) == name


@pytest.mark.parametrize(
    "message",
    [
        "make a list",  # no name
        "start the",
        "open the shopping list",  # shows it
        "open my todo list",
        "create a reminder",
        "start the timer",
        "add milk to my shopping list",  # things to add: an add of its own
        "make a list of everything i need to pack for a two week trip to italy",  # no list name
        "תפתח את רשימת הקניות",  # the list as it is
    ],
)
def test_what_starts_no_list(message: str) -> None:
    assert start(message, pin(message)) is None


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("open the shopping list", ("lists", "show")),
        ("add milk to my shopping list", ("lists", "add")),
        ("create a packing list", ("lists", "add")),
    ],
)
def test_the_planner_reads_a_start_before_any_other_list_command(
    message: str, expected: tuple[str, str]
) -> None:
    plan = RulePlanner().plan(pin(message)).output.plan
    assert [(step.capability, step.action) for step in plan] == [expected]


@pytest.mark.parametrize("lead", ["let's", "lets", "let us"])
@pytest.mark.parametrize("name", NAMES)
def test_lets_make_a_list(lead: str, name: str) -> None:
    assert _asks_for_items(f"{lead} make a {name} list") == name.lower()
    assert _asks_for_items(f"{lead} start a new list called {name}") == name.lower()


EN_STARTED_WITH = [
    "{verb} a {name} list with {items}",
    "{verb} a new {name} list: {items}",
    "{verb} me a {name} list containing {items}",
    "can you {verb} a {name} list with {items}",
    "{verb} a new list called {name} with {items}",
]
HE_STARTED_WITH = [
    "{verb} רשימת {name} עם {items}",
    "{verb} לי רשימת {name} חדשה: {items}",
    "{verb} רשימה חדשה בשם {name} עם {items}",
]


@pytest.mark.parametrize(
    ("form", "verb", "name"), list(itertools.product(EN_STARTED_WITH, ["create", "make", "start"], NAMES))
)
def test_a_list_started_with_its_items_adds_them_to_it(form: str, verb: str, name: str) -> None:
    message = form.format(verb=verb, name=name, items="passport, charger and socks")
    found = PLANNER.plan(pin(message)).output
    (step,) = found.plan
    assert (step.capability, step.action, found.missing_fields) == ("lists", "add", [])
    assert step.constraints == {"listName": name.lower()}
    assert step.changes == {"items": ["passport", "charger", "socks"]}


@pytest.mark.parametrize(("form", "name"), list(itertools.product(HE_STARTED_WITH, HE_NAMES)))
def test_a_hebrew_list_started_with_its_items(form: str, name: str) -> None:
    message = form.format(verb="תיצור", name=name, items="דרכון, מטען וגרביים")
    (step,) = PLANNER.plan(pin(message)).output.plan
    assert (step.action, step.constraints, step.changes) == (
        "add",
        {"listName": name},
        {"items": ["דרכון", "מטען", "גרביים"]},
    )


@pytest.mark.parametrize("message", ["make a list of things to do", "create a list with eggs"])
def test_no_list_name_is_no_list_started_with_items(message: str) -> None:
    assert started_with_items(message, pin(message)) is None
