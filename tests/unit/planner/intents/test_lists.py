"""Adding to a list: named or not, with no verb ("לרשימת הקניות: חלב"), "we're out of", "and eggs too",
and an answer's items."""

from __future__ import annotations

import pytest

from memo.planner.intents import lists
from memo.planner.match import GUESS
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import latest, pin


def test_add_to_a_named_list() -> None:
    found = lists.add("add milk and eggs to my shopping list", pin("x"))
    assert found is not None
    assert found.constraints == {"listName": "shopping"} and found.changes == {"items": ["milk", "eggs"]}


def test_add_with_no_list_named_is_a_guess_at_the_shopping_list() -> None:
    found = lists.add_bare("add milk", pin("add milk"))
    assert found is not None and found.confidence == GUESS
    assert found.constraints == {"listName": "shopping"}
    assert lists.add_bare("add dentist on friday at 3", pin("x")) is None  # a time: no thing to buy


def test_ran_out() -> None:
    found = lists.ran_out("we're out of olive oil", pin("x"))
    assert found is not None and found.changes == {"items": ["olive oil"]}
    assert lists.ran_out("I'm out of ideas", pin("x")) is None


def test_more_of_the_same_after_items_were_added() -> None:
    added = latest("lists", "milk").model_copy(
        update={"action": "add", "external_ids": {"listKey": "shopping"}}
    )
    found = lists.more("and eggs too", pin("and eggs too", actions=(added,)))
    assert found is not None and found.changes == {"items": ["eggs"]}


def test_the_items_an_answer_names() -> None:
    assert lists.answered_items("milk and eggs") == ["milk", "eggs"]
    assert lists.answered_items("put bread on the list") == ["bread"]
    assert lists.answered_items("it") == []


@pytest.mark.parametrize(
    ("message", "name", "items"),
    [
        ("לרשימת הקניות: גבינה וקרקרים", "קניות", ["גבינה", "קרקרים"]),
        ("לרשימת המשימות: לתקן את השער", "משימות", ["לתקן את השער"]),
        ("לקניות: חלב, ביצים", "קניות", ["חלב", "ביצים"]),
    ],
)
def test_a_list_then_a_colon_and_things_adds_them(message: str, name: str, items: list[str]) -> None:
    found = lists.add(message, pin(message))
    assert found is not None and found.confidence != GUESS
    assert found.constraints == {"listName": name} and found.changes == {"items": items}


def test_things_before_their_list_with_no_verb_are_a_guess() -> None:
    found = lists.add("אורז ושעועית לרשימת הקניות", pin("אורז ושעועית לרשימת הקניות"))
    assert found is not None and found.confidence == GUESS
    assert found.constraints == {"listName": "קניות"} and found.changes == {"items": ["אורז", "שעועית"]}


@pytest.mark.parametrize(
    "message",
    [
        "הוספתי חלב לרשימת הקניות",  # it was done: nothing asked
        "מה נוסף לרשימת הקניות",  # a question
        "אני רוצה להוסיף חלב לרשימת הקניות",
        "זה לרשימת הקניות",  # a pointer, no thing
    ],
)
def test_a_sentence_before_a_list_is_not_things_to_add(message: str) -> None:
    assert lists.add(message, pin(message)) is None


def test_things_after_and_belong_to_the_command_before_them() -> None:
    # "ביצים לרשימת הקניות" is things before their list only from the message's start: here it ends a
    # command that already added "חלב", so the message is one step with both things.
    message = "תוסיף חלב וביצים לרשימת הקניות"
    assert lists.add("ביצים לרשימת הקניות", pin(message)) is None
    plan = RulePlanner().plan(pin(message)).output.plan
    assert [(s.action, s.changes.get("items")) for s in plan] == [("add", ["חלב", "ביצים"])]


@pytest.mark.parametrize(
    ("message", "list_name", "items"),
    [
        ("we're out of coffee add it to the list", "shopping", ["coffee"]),
        ("we ran out of eggs, can you put them on my shopping list", "shopping", ["eggs"]),
        ("running low on dish soap so add it to the list please", "shopping", ["dish soap"]),
        ("נגמר הקפה תוסיף את זה לרשימה", "קניות", ["קפה"]),
        ("we're out of sunscreen, add it to the packing list", "packing", ["sunscreen"]),
        ("אין לנו חלב, תוסיף לרשימת הקניות", "קניות", ["חלב"]),
    ],
)
def test_what_ran_out_added_to_the_list_the_message_names(
    message: str, list_name: str, items: list[str]
) -> None:
    result = RulePlanner().plan(pin(message)).output
    assert [(s.capability, s.action, s.constraints, s.changes) for s in result.plan] == [
        ("lists", "add", {"listName": list_name}, {"items": items})
    ]
    assert result.missing_fields == []


def test_out_of_something_not_bought_is_no_list_item() -> None:
    assert lists.ran_out_then_add("we're out of time, add it to the list", pin("x")) is None


@pytest.mark.parametrize(
    ("message", "name", "items"),
    [
        # every Hebrew verb of adding, the list before or after the things, "לי" said or not
        ("תכתוב ברשימת הקניות שמן קנולה", "קניות", ["שמן קנולה"]),
        ("תרשום לי ברשימת הקניות קורנפלקס", "קניות", ["קורנפלקס"]),
        ("תשים ברשימת האריזה מטען לטלפון", "אריזה", ["מטען לטלפון"]),
        ("להכניס לרשימת הקניות נייר אפייה", "קניות", ["נייר אפייה"]),
        # the things said with "את" are kept without their article; a name in quotes as written
        ("תוסיף את החלב לרשימת הקניות", "קניות", ["חלב"]),
        ('תוסיף את "הסנדק" לרשימת הסרטים', "סרטים", ["הסנדק"]),
        # no verb: the list with "ב" or "ל", then the things after a colon
        ("ברשימת הקניות: גזר, בצל ותפוחי אדמה", "קניות", ["גזר", "בצל", "תפוחי אדמה"]),
        ("to the shopping list: olive oil", "shopping", ["olive oil"]),
        ("for my todo list - call the plumber", "todo", ["call the plumber"]),
        # "The Matrix": a capital after a capital "The" is a name, kept whole; "the milk" is milk
        ("add The Matrix to my movies list", "movies", ["The Matrix"]),
        ("add the milk to my shopping list", "shopping", ["milk"]),
    ],
)
def test_add_in_the_words_people_use(message: str, name: str, items: list[str]) -> None:
    found = lists.add(message, pin(message))
    assert found is not None and found.constraints == {"listName": name} and found.changes == {"items": items}


def test_needing_more_of_a_thing_people_buy_is_an_addition() -> None:
    found = lists.ran_out("we need more toilet paper", pin("x"))
    assert found is not None and found.changes == {"items": ["toilet paper"]}
    assert lists.ran_out("I need more sleep", pin("x")) is None  # not a thing bought
    assert lists.ran_out("we need more time", pin("x")) is None


@pytest.mark.parametrize(
    ("answer", "name"),
    [
        ("the todo list", "todo"),
        ("todo", "todo"),
        ("no, the todo list", "todo"),
        ("i meant my todo list", "todo"),
        ("to the shopping list", "shopping"),
        ("oops, shopping", "shopping"),
        ("my packing list please", "packing"),
        ("the hardware list", "hardware"),
        ("oh, my grocery list", "grocery"),
        ("ok the packing list", "packing"),
        ("לרשימת הקניות", "הקניות"),
        ("לא, לרשימת המשימות", "המשימות"),
        ("משימות", "משימות"),
        ("סופר", "סופר"),
    ],
)
def test_an_answer_to_which_list_names_it(answer: str, name: str) -> None:
    assert lists.answered_list_name(answer) == name


@pytest.mark.parametrize(
    "answer",
    ["add milk to the shopping list", "show my lists", "asdf qwer zxcv", "hardware", "", "what's on it"],
)
def test_what_names_no_list_is_not_an_answer(answer: str) -> None:
    assert lists.answered_list_name(answer) is None


@pytest.mark.parametrize(
    "answer",
    [
        "what time is it",
        "how do I do this",
        "מה השעה",
        "let's make a grocery list",
        "תפתח רשימה חדשה לטיול",
    ],
)
def test_an_answer_that_asks_or_starts_a_list_names_no_items(answer: str) -> None:
    assert lists.answered_items(answer) == []


@pytest.mark.parametrize(
    ("said", "items"),
    [
        ("i need eggs", ["eggs"]),
        ("we need milk and bread", ["milk", "bread"]),
        ("we're missing butter", ["butter"]),
        ("I still need eggs", ["eggs"]),
        ("צריך חלב", ["חלב"]),
        ("אנחנו צריכים ביצים ולחם", ["ביצים", "לחם"]),
        ("חסר לנו חלב", ["חלב"]),
    ],
)
def test_needing_a_thing_people_buy_is_a_guessed_addition(said: str, items: list[str]) -> None:
    found = lists.ran_out(said, pin(said))
    assert found is not None and found.changes == {"items": items} and found.confidence == GUESS


@pytest.mark.parametrize(
    "said", ["i need a vacation", "i need to call mom", "we need to talk", "צריך לדבר", "צריך להתקשר לאמא"]
)
def test_needing_anything_else_is_no_shopping(said: str) -> None:
    assert lists.ran_out(said, pin(said)) is None


@pytest.mark.parametrize(
    ("said", "name", "items"),
    [
        ("add to the shopping list bananas and apples", "shopping", ["bananas", "apples"]),
        ("add to shopping: bananas", "shopping", ["bananas"]),
        ("add to my todo list call the plumber", "todo", ["call the plumber"]),
        ("put on the shopping list: eggs", "shopping", ["eggs"]),
    ],
)
def test_the_list_said_before_its_items(said: str, name: str, items: list[str]) -> None:
    (step,) = RulePlanner().plan(pin(said)).output.plan
    assert (step.action, step.constraints, step.changes) == ("add", {"listName": name}, {"items": items})


@pytest.mark.parametrize("verb", ["תעביר", "תזיז", "תשנה", "תבטל", "תנקה", "תראה", "תשלח", "העבר"])
def test_a_verb_before_a_list_is_never_a_thing_on_it(verb: str) -> None:
    # "תעביר לרשימת הקניות" (move to the shopping list) put "תעביר" on the shopping list.
    message = f"{verb} לרשימת הקניות"
    output = RulePlanner().plan(pin(message)).output
    assert not any(step.action == "add" for step in output.plan), (message, output.plan)


def test_a_thing_before_its_list_is_still_put_on_it_once_confirmed() -> None:
    (step,) = RulePlanner().plan(pin("אורז לרשימת הקניות")).output.plan
    assert (step.action, step.changes) == ("add", {"items": ["אורז"]})


@pytest.mark.parametrize("lead", ["need", "pick up", "grab", "grab some", "pick up some", "we need"])
@pytest.mark.parametrize("things", [["milk"], ["eggs", "bread"]])
@pytest.mark.parametrize("tail", ["", " on the way home", " on the way"])
def test_things_people_buy_said_as_a_need_or_an_errand_go_on_the_list(
    lead: str, things: list[str], tail: str
) -> None:
    # "need milk", "pick up milk", "grab some milk on the way home" were not understood.
    message = f"{lead} {' and '.join(things)}{tail}"
    found = lists.ran_out(message, pin(message))
    assert found is not None and found.changes == {"items": things}, message


@pytest.mark.parametrize(
    "message",
    [
        "pick up the kids",
        "pick up the dry cleaning",
        "grab lunch with dana",
        "need a break",
        "need to call mom",
    ],
)
def test_errands_that_are_no_shopping_stay_out_of_the_list(message: str) -> None:
    assert lists.ran_out(message, pin(message)) is None
