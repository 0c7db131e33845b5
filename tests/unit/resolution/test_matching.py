"""Matching a target's words against the user's items: one, several, none, or by the time named."""

from __future__ import annotations

from typing import Any

import pytest

from memo.resolution import matching
from memo.resolution.candidates import Ambiguous, Entity, Found, Missing, entities
from memo.resolution.matching import by_reminder_time, by_text, by_texts, in_part_of_day
from memo.resolution.resolvers import TargetQuery
from tests.unit.capabilities.fakes import FakeItemsRepository
from tests.unit.resolution.helpers import NOW, add_list_item, add_reminder, state_for, step


@pytest.fixture
def reminders() -> list[Entity[Any]]:
    repo = FakeItemsRepository()
    add_reminder(repo, "r-mom", "Call mom", hours=3)  # 14:00 in Jerusalem
    add_reminder(repo, "r-dan", "Meeting with Dan", hours=8)  # 19:00
    add_reminder(repo, "r-ron", "Meeting with Ron", hours=9)  # 20:00
    return entities(TargetQuery(kind="reminder"), repo, state_for(), NOW)


def test_one_title_matches_despite_a_typo(reminders: list[Entity[Any]]) -> None:
    target = TargetQuery(kind="reminder", text="cal mom")
    assert by_text(step("s1", "reminders", "delete"), target, reminders, "en") == Found(["r-mom"])


def test_several_close_titles_ask_and_plural_words_on_a_delete_may_take_several(
    reminders: list[Entity[Any]],
) -> None:
    one = by_text(
        step("s1", "reminders", "update"), TargetQuery(kind="reminder", text="meeting"), reminders, "en"
    )
    assert isinstance(one, Ambiguous) and not one.allow_multiple
    assert [c.id for c in one.candidates] == ["r-dan", "r-ron"]
    many = by_text(
        step("s1", "reminders", "delete"),
        TargetQuery(kind="reminder", text="meetings", plural=True),
        reminders,
        "en",
    )
    assert isinstance(many, Ambiguous) and many.allow_multiple


def test_no_match_is_missing(reminders: list[Entity[Any]]) -> None:
    found = by_text(
        step("s1", "reminders", "delete"), TargetQuery(kind="reminder", text="rent"), reminders, "en"
    )
    assert isinstance(found, Missing) and "rent" in found.message


def test_each_list_item_is_matched_on_its_own() -> None:
    repo = FakeItemsRepository()
    add_list_item(repo, "i-milk", "shopping", "milk")
    add_list_item(repo, "i-eggs", "shopping", "eggs")
    target = TargetQuery(kind="list_item", texts=["milk", "wine"], list_name="shopping")
    found = by_texts(target, entities(target, repo, state_for(), NOW), "en")
    assert found == Found(["i-milk"], extra={"notFound": ["wine"]})


@pytest.mark.parametrize(
    ("said", "items", "expected"),
    [
        (["eggs"], ["eggs", "egg noodles"], ["eggs"]),  # the item named whole, not every item with the word
        (["egg"], ["eggs", "egg noodles"], ["eggs"]),
        (["the eggs", "milk"], ["eggs", "egg noodles", "milk"], ["eggs", "milk"]),
        (["ביצים"], ["ביצים", "ביצים קשות"], ["ביצים"]),
        (["egg noodles"], ["eggs", "egg noodles"], ["egg noodles"]),
    ],
)
def test_an_item_named_whole_beats_items_that_hold_its_words(
    said: list[str], items: list[str], expected: list[str]
) -> None:
    # "remove milk and eggs" asked "which ones: eggs or egg noodles?" though "eggs" is on the list.
    repo = FakeItemsRepository()
    for text in items:
        add_list_item(repo, f"i-{text}", "shopping", text)
    target = TargetQuery(kind="list_item", texts=said, list_name="shopping")
    found = by_texts(target, entities(target, repo, state_for(), NOW), "en")
    assert found == Found([f"i-{t}" for t in expected], extra={"notFound": []})


def test_two_items_of_the_very_same_words_are_still_asked_about() -> None:
    repo = FakeItemsRepository()
    add_list_item(repo, "i-1", "shopping", "eggs")
    add_list_item(repo, "i-2", "shopping", "Eggs!")
    add_list_item(repo, "i-3", "shopping", "egg noodles")
    target = TargetQuery(kind="list_item", texts=["eggs"], list_name="shopping")
    assert isinstance(by_texts(target, entities(target, repo, state_for(), NOW), "en"), Ambiguous)


def test_a_part_of_the_day_names_the_reminders_due_then(reminders: list[Entity[Any]]) -> None:
    assert [e.id for e in in_part_of_day("the evening", reminders, "Asia/Jerusalem")] == ["r-dan", "r-ron"]
    assert [e.id for e in in_part_of_day("afternoon", reminders, "Asia/Jerusalem")] == ["r-mom"]
    assert in_part_of_day("meeting", reminders, "Asia/Jerusalem") == []


def test_a_reminder_found_by_its_time_when_no_title_has_the_words(reminders: list[Entity[Any]]) -> None:
    state = state_for()
    evening = by_reminder_time(TargetQuery(kind="reminder", text="evening"), reminders, state, NOW)
    assert isinstance(evening, Ambiguous) and [c.id for c in evening.candidates] == ["r-dan", "r-ron"]
    afternoon = by_reminder_time(TargetQuery(kind="reminder", text="afternoon"), reminders, state, NOW)
    assert afternoon == Found(["r-mom"])
    assert by_reminder_time(TargetQuery(kind="reminder", text="rent"), reminders, state, NOW) is None


@pytest.fixture
def two_at_three() -> list[Entity[Any]]:
    repo = FakeItemsRepository()
    add_reminder(repo, "r-water", "Water the plants", hours=4)  # 15:00 in Jerusalem
    add_reminder(repo, "r-mom", "Call mom", hours=4)  # 15:00
    add_reminder(repo, "r-gym", "Go to the gym", hours=6)  # 17:00
    return entities(TargetQuery(kind="reminder"), repo, state_for(), NOW)


@pytest.mark.parametrize(
    ("words", "found"),
    [
        ("3pm water", "r-water"),
        ("water 3pm", "r-water"),
        ("3 water", "r-water"),
        ("15:00 call", "r-mom"),
        ("call mom at 3pm", "r-mom"),
        ("5pm gym", "r-gym"),
        ("5pm", "r-gym"),
    ],
)
def test_a_reminder_named_by_its_time_and_title_words(
    two_at_three: list[Entity[Any]], words: str, found: str
) -> None:
    # "move the 3pm water to 3:30" answered "I couldn't find a reminder matching “3pm water”".
    target = TargetQuery(kind="reminder", text=words)
    assert by_reminder_time(target, two_at_three, state_for(), NOW) == Found([found])


def test_a_time_two_reminders_share_asks_which_and_a_time_none_has_finds_nothing(
    two_at_three: list[Entity[Any]],
) -> None:
    state = state_for()
    both = by_reminder_time(TargetQuery(kind="reminder", text="3pm"), two_at_three, state, NOW)
    assert isinstance(both, Ambiguous) and {c.id for c in both.candidates} == {"r-water", "r-mom"}
    assert by_reminder_time(TargetQuery(kind="reminder", text="4pm water"), two_at_three, state, NOW) is None
    assert by_reminder_time(TargetQuery(kind="reminder", text="5pm water"), two_at_three, state, NOW) is None


@pytest.mark.parametrize("filler", [0, 3, 200])
def test_time_words_beside_the_title_are_at_most_four_at_either_end(
    two_at_three: list[Entity[Any]], filler: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The words are split only where a time can be (four words at either end), so a long target
    # costs at most eight readings of a time, not one per word.
    read: list[str] = []
    real = matching.at_time

    def counted(words: str, *args: Any) -> list[Entity[Any]]:
        read.append(words)
        return real(words, *args)

    monkeypatch.setattr(matching, "at_time", counted)
    state = state_for()
    words = " ".join(["water"] + ["the", "plants"] * filler)
    found = by_reminder_time(TargetQuery(kind="reminder", text=f"at 3pm {words}"), two_at_three, state, NOW)
    assert found == Found(["r-water"])
    assert len(read) <= 1 + 2 * 4
    at_end = by_reminder_time(TargetQuery(kind="reminder", text="water at 3 pm"), two_at_three, state, NOW)
    assert at_end == Found(["r-water"])


@pytest.mark.parametrize(
    ("said", "extra"),
    [
        (["one tomato"], {"lower": {"i-t": {"was": "3 tomatoes", "left": "2 tomatoes"}}}),
        (["2 tomatoes", "milk"], {"lower": {"i-t": {"was": "3 tomatoes", "left": "1 tomato"}}}),
        (["3 tomatoes"], {}),
        (["5 tomatoes"], {}),
        (["tomatoes"], {}),
    ],
)
def test_a_count_said_takes_that_many_off_its_line(said: list[str], extra: dict[str, Any]) -> None:
    repo = FakeItemsRepository()
    add_list_item(repo, "i-t", "shopping", "3 tomatoes")
    add_list_item(repo, "i-m", "shopping", "milk")
    target = TargetQuery(kind="list_item", texts=said, list_name="shopping")
    found = by_texts(target, entities(target, repo, state_for(), NOW), "en")
    ids = ["i-t", "i-m"] if "milk" in said else ["i-t"]
    assert found == Found(ids, extra={"notFound": [], **extra})


def test_a_count_of_another_kind_names_the_line_and_leaves_it() -> None:
    repo = FakeItemsRepository()
    add_list_item(repo, "i-m", "shopping", "2 liters of milk")
    add_list_item(repo, "i-b", "shopping", "bread")
    only = TargetQuery(kind="list_item", texts=["one milk"], list_name="shopping")
    missing = by_texts(only, entities(only, repo, state_for(), NOW), "en")
    assert isinstance(missing, Missing) and missing.left_as_is
    assert missing.message.startswith("I left “2 liters of milk” as it is")
    both = TargetQuery(kind="list_item", texts=["one milk", "bread"], list_name="shopping")
    found = by_texts(both, entities(both, repo, state_for(), NOW), "en")
    assert found == Found(["i-b"], extra={"notFound": [], "unclear": ["2 liters of milk"]})
