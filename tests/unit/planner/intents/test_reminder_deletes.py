"""Deleting reminders: which part of a repeating one the words say."""

from __future__ import annotations

import pytest

from memo.planner.intents import reminder_deletes
from tests.unit.planner.conftest import latest, pin


@pytest.mark.parametrize(
    ("message", "scope"),
    [
        ("delete the vitamins reminder just this one", "occurrence"),
        ("delete the reminder vitamins, the whole series", "series"),
        ("תמחק את התזכורת ויטמינים רק הפעם הזאת", "occurrence"),
        ("תמחק את התזכורת ויטמינים את כל הסדרה", "series"),
    ],
)
def test_delete_scope_words(message: str, scope: str) -> None:
    found = reminder_deletes.delete(message, pin(message))
    assert found is not None
    assert found.constraints["scope"] == scope
    assert "vitamins" in str(found.constraints["target"]) or "ויטמינים" in str(found.constraints["target"])


NAMES_EN = ["bank", "call dad", "gym", "pay rent"]
NAMES_HE = ["לבנק", "לשלם חשבון", "להתקשר לאבא"]


@pytest.mark.parametrize(
    "form",
    [
        "delete the {a} and {b} reminders",
        "delete the {a}, {b} reminders",
        "delete my {a} & {b} reminders",
        "delete the {a} reminder and the {b} reminder",
        "remove the {a} reminder and the {b} one",
        "cancel the {a} reminder and my {b} reminder",
    ],
)
@pytest.mark.parametrize(("a", "b"), [(a, b) for a in NAMES_EN for b in NAMES_EN if a != b])
def test_one_delete_naming_two_reminders_limits_a_delete_all_to_both(form: str, a: str, b: str) -> None:
    message = form.format(a=a, b=b)
    found = reminder_deletes.delete(message, pin(message))
    assert found is not None and found.action == "delete_all" and found.needs_approval
    assert found.constraints["only"] == f"{a} and {b}"


@pytest.mark.parametrize("form", ["תמחק את התזכורת {a} ואת התזכורת {b}", "תמחק את התזכורת {a} ואת זו {b}"])
@pytest.mark.parametrize(("a", "b"), [(a, b) for a in NAMES_HE for b in NAMES_HE if a != b])
def test_hebrew_et_x_ve_et_y_names_both(form: str, a: str, b: str) -> None:
    message = form.format(a=a, b=b)
    found = reminder_deletes.delete(message, pin(message))
    assert found is not None and found.action == "delete_all"
    assert found.constraints["only"] == f"{a} ו{b}"


@pytest.mark.parametrize(
    "message",
    [
        "delete the call mom and dad reminder",
        "delete the salt and pepper reminder",
        "תמחק את התזכורת לקנות חלב ולחם",
    ],
)
def test_and_inside_one_name_is_one_reminder(message: str) -> None:
    found = reminder_deletes.delete(message, pin(message))
    assert found is not None and found.action == "delete" and "only" not in found.constraints


@pytest.mark.parametrize("message", ["delete both grandma reminders", "delete all the grandma reminders"])
def test_both_of_one_name_is_every_reminder_of_that_name(message: str) -> None:
    found = reminder_deletes.delete(message, pin(message))
    assert found is not None and found.action == "delete_all" and found.constraints["only"] == "grandma"


_EVERYTHING = (
    "delete everything", "delete all", "clear everything", "clear it all", "wipe everything please",
    "remove all of it", "erase everything!", "תמחק הכל", "מחק את הכל", "תנקה הכול",
)  # fmt: skip


@pytest.mark.parametrize("message", _EVERYTHING)
def test_everything_with_no_kind_named_is_every_reminder_with_an_approval(message: str) -> None:
    found = reminder_deletes.everything(message, pin(message, actions=(latest(),)))
    assert found is not None and (found.capability, found.action) == ("reminders", "delete_all")
    assert found.needs_approval and found.risk == "high" and found.constraints == {}


@pytest.mark.parametrize("message", _EVERYTHING)
def test_everything_right_after_a_list_add_is_that_list_cleared_with_an_approval(message: str) -> None:
    added = latest(capability="lists", summary="added milk to the shopping list")
    added = added.model_copy(update={"external_ids": {"listKey": "shopping"}})
    found = reminder_deletes.everything(message, pin(message, actions=(added,)))
    assert found is not None and (found.capability, found.action) == ("lists", "clear")
    assert found.needs_approval and found.constraints == {"listName": "shopping"}


@pytest.mark.parametrize(
    "message",
    ["delete everything about mom", "delete all my notes", "delete all the things", "everything", "delete"],
)
def test_everything_is_only_everything_said_alone(message: str) -> None:
    assert reminder_deletes.everything(message, pin(message)) is None


@pytest.mark.parametrize(
    "said",
    [
        "scrap the {x} reminder",
        "ditch my {x} reminder",
        "nix the {x} reminder",
        "i don't need the {x} reminder anymore",
        "i no longer need my {x} reminder",
        "I do not need the {x} reminder any more.",
    ],
)
@pytest.mark.parametrize("target", ["gym", "dentist", "call mom"])
def test_more_ways_to_drop_a_named_reminder_delete_it(said: str, target: str) -> None:
    # "scrap the gym reminder" and "i don't need the dentist reminder anymore" were not understood.
    from memo.planner.rules import RulePlanner

    message = said.format(x=target)
    (step,) = RulePlanner().plan(pin(message)).output.plan
    assert (step.action, step.constraints) == ("delete", {"target": target}), message


def test_hebrew_i_no_longer_need_the_reminder() -> None:
    from memo.planner.rules import RulePlanner

    (step,) = RulePlanner().plan(pin("אני לא צריך את התזכורת של הרופא יותר")).output.plan
    assert (step.action, step.constraints) == ("delete", {"target": "הרופא"})


@pytest.mark.parametrize(
    "said", ["take out the trash reminder", "remind me to take out the trash", "kill time"]
)
def test_the_same_words_elsewhere_delete_nothing(said: str) -> None:
    from memo.planner.rules import RulePlanner

    assert all(s.action != "delete" for s in RulePlanner().plan(pin(said)).output.plan)
