"""What people actually type, through the rule planner: a request full of typos, the request inside
pleasantries and incidental words, two requests in one message, the daily questions, clean titles,
one list under many names. Planned at Wednesday 1 May 2024, 10:00 in Israel (conftest)."""

from __future__ import annotations

import pytest

from memo.capabilities.items import list_key
from memo.domain import PlannerOutput
from memo.planner import RulePlanner
from tests.unit.planner.conftest import latest, pin

PLANNER = RulePlanner()


def run(message: str, **kwargs: object) -> PlannerOutput:
    return PLANNER.plan(pin(message, **kwargs)).output  # type: ignore[arg-type]


def steps(output: PlannerOutput) -> list[tuple[str, str, dict]]:
    return [(s.capability, s.action, {**s.constraints, **s.changes}) for s in output.plan]


# --- typos and chat spelling -------------------------------------------------------------------


def test_a_request_full_of_typos_sets_the_reminder() -> None:
    output = run("remnd me to cal mom tomorow at 6")
    assert steps(output) == [
        ("reminders", "create", {"title": "call mom", "when": "2024-05-02T18:00:00+03:00"})
    ]


# --- the requested action wins --------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "... remind me to call grandma at 7 tonight thx",
        "remind me to call grandma at 7 tonight, thank you so much!",
        "hey! remind me to call grandma at 7 tonight 🙏",
    ],
)
def test_thanks_after_a_request_does_not_make_it_small_talk(message: str) -> None:
    output = run(message)
    assert steps(output) == [
        ("reminders", "create", {"title": "call grandma", "when": "2024-05-01T19:00:00+03:00"})
    ]
    assert output.intent_type == "operation"


@pytest.mark.parametrize(
    ("message", "title", "when"),
    [
        (
            "I have a meeting with the contractor tomorrow at 10 so please remind me to call the plumber at 8am",
            "call the plumber",
            "2024-05-02T08:00:00+03:00",
        ),
        (
            "my sister's birthday is on friday, can you remind me to buy her a gift tomorrow at 6pm?",
            "buy her a gift",
            "2024-05-02T18:00:00+03:00",
        ),
        (
            "יש לי פגישה עם הקבלן מחר, תזכיר לי להתקשר לאינסטלטור מחר ב-9:00",
            "להתקשר לאינסטלטור",
            "2024-05-02T09:00:00+03:00",
        ),
    ],
)
def test_a_meeting_mentioned_in_passing_does_not_hijack_the_reminder(
    message: str, title: str, when: str
) -> None:
    assert steps(run(message)) == [("reminders", "create", {"title": title, "when": when})]


def test_a_calendar_request_on_its_own_is_still_calendar() -> None:
    assert steps(run("schedule a meeting with Dan tomorrow at 3"))[0][:2] == ("calendar", "create_event")


@pytest.mark.parametrize(
    ("message", "target"),
    [
        ("delete the wifi note", "wifi"),
        ("remove my parking note", "parking"),
        ("delete the wifi notes", "wifi"),
    ],
)
def test_delete_the_x_note_goes_to_notes(message: str, target: str) -> None:
    output = run(message)
    assert steps(output) == [("notes", "delete", {"target": target})]
    assert output.risk_level == "high"


# --- several requests ------------------------------------------------------------------------------


def test_two_reminders_in_one_message_are_two_steps() -> None:
    output = run("remind me to buy milk at 4pm and to call the school at 10am")
    assert steps(output) == [
        ("reminders", "create", {"title": "buy milk", "when": "2024-05-01T16:00:00+03:00"}),
        ("reminders", "create", {"title": "call the school", "when": "2024-05-02T10:00:00+03:00"}),
    ]
    assert [s.id for s in output.plan] == ["s1", "s2"] and output.missing_fields == []


def test_a_reminder_and_a_list_edit() -> None:
    output = run("remind me to pick up the kids at 4pm and add flour to my shopping list")
    assert steps(output) == [
        ("reminders", "create", {"title": "pick up the kids", "when": "2024-05-01T16:00:00+03:00"}),
        ("lists", "add", {"listName": "shopping", "items": ["flour"]}),
    ]


def test_hebrew_two_requests() -> None:
    output = run("תוסיף ביצים לרשימת הקניות ותזכיר לי ללכת לסופר ב-18:00")
    assert steps(output) == [
        ("lists", "add", {"listName": "קניות", "items": ["ביצים"]}),
        ("reminders", "create", {"title": "ללכת לסופר", "when": "2024-05-01T18:00:00+03:00"}),
    ]
    two = run("תזכיר לי לקנות חלב ב-17:00 ולהתקשר לאמא ב-18:00")
    assert [s[2]["title"] for s in steps(two)] == ["לקנות חלב", "להתקשר לאמא"]


def test_a_delete_among_several_requests_keeps_the_plan_high_risk() -> None:
    output = run("remind me to call mom at 5 and delete the wifi note")
    assert [s[:2] for s in steps(output)] == [("reminders", "create"), ("notes", "delete")]
    assert output.risk_level == "high"


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("remind me to buy eggs and milk at 5", "buy eggs and milk"),
        ("remind me to call mom and dad tomorrow at 6pm", "call mom and dad"),
        ("תזכיר לי לקנות חלב ולחם ב-17:00", "לקנות חלב ולחם"),
    ],
)
def test_and_inside_one_request_is_not_split(message: str, title: str) -> None:
    output = run(message)
    assert len(output.plan) == 1 and output.plan[0].constraints["title"] == title


def test_a_second_request_that_would_need_a_question_keeps_the_message_whole() -> None:
    output = run("remind me to call mom at 5 and to call dad")
    assert len(output.plan) == 1 and output.plan[0].constraints["title"] == "call mom and to call dad"


# --- daily questions -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "day"),
    [
        ("what do I have tomorrow?", "2024-05-02"),
        ("what do i have today", "2024-05-01"),
        ("whats on tomorrow", "2024-05-02"),
        ("anything on monday?", "2024-05-06"),
        ("what's on my plate tomorrow", "2024-05-02"),
        ("מה יש לי מחר?", "2024-05-02"),
        ("מה יש לי היום", "2024-05-01"),
    ],
)
def test_what_do_i_have_lists_that_days_reminders(message: str, day: str) -> None:
    assert steps(run(message)) == [("reminders", "list", {"day": day})]


@pytest.mark.parametrize(
    "message", ["what do I have on my shopping list", "what do I have to do at work tomorrow"]
)
def test_agenda_words_about_something_else_are_not_the_agenda(message: str) -> None:
    assert steps(run(message))[:1] != [("reminders", "list", {"day": "2024-05-02"})]


@pytest.mark.parametrize("message", ["תזכורות", "התזכורות שלי", "reminders", "reminders?"])
def test_the_word_reminders_alone_lists_them(message: str) -> None:
    assert steps(run(message)) == [("reminders", "list", {})]


@pytest.mark.parametrize(
    ("message", "title", "when"),
    [
        ("set an alarm for 6am", "alarm", "2024-05-02T06:00:00+03:00"),
        ("set alarm 7", "alarm", "2024-05-02T07:00:00+03:00"),
        ("wake me up at 6:30 tomorrow", "alarm", "2024-05-02T06:30:00+03:00"),
        ("set an alarm for 5:45am to go running", "go running", "2024-05-02T05:45:00+03:00"),
        ("set an alarm for 7pm", "alarm", "2024-05-01T19:00:00+03:00"),
        ("תעיר אותי מחר ב-6:00", "השכמה", "2024-05-02T06:00:00+03:00"),
        ("תכוון לי שעון מעורר ל-7:00", "השכמה", "2024-05-02T07:00:00+03:00"),
    ],
)
def test_an_alarm_is_a_reminder(message: str, title: str, when: str) -> None:
    assert steps(run(message)) == [("reminders", "create", {"title": title, "when": when})]


def test_an_alarm_without_a_time_asks_for_it() -> None:
    output = run("set an alarm")
    assert steps(output) == [("reminders", "create", {"title": "alarm"})]
    assert output.missing_fields == ["reminder_time_required"]


@pytest.mark.parametrize(
    ("message", "query"),
    [
        ("where did I park?", "park"),
        ("where did i put my keys", "keys"),
        ("where did I park the car?", "car"),
        ("איפה החניתי?", "חנייה"),
        ("איפה שמתי את המפתחות", "המפתחות"),
        ("what's Noa's shoe size?", "Noa's shoe size"),
    ],
)
def test_where_did_i_searches_the_notes(message: str, query: str) -> None:
    assert steps(run(message)) == [("notes", "search", {"query": query})]


# --- titles ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("REMIND ME TO CALL MOM AT 5", "call mom"),
        ("remind me to please call the plumber at 11", "call the plumber"),
        ("remind me to call mom at 5 please", "call mom"),
        ("remind me to call Dan at IKEA at 5", "call Dan at IKEA"),
        ("set a reminder for 17:00 to leave for the airport", "leave for the airport"),
        ("תזכיר לי לכבס ב-20:00 בבקשה", "לכבס"),
    ],
)
def test_titles_are_clean(message: str, title: str) -> None:
    assert run(message).plan[0].constraints["title"] == title


def test_a_lead_word_alone_is_no_title() -> None:
    output = run("set a reminder for 6pm")
    assert output.missing_fields == ["reminder_title_required"]


# --- lists: one list, many names -------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["shopping", "Shopping list", "grocery", "groceries", "supermarket", "קניות", "רשימת הקניות", "סופר"],
)
def test_every_name_of_the_shopping_list_is_one_list(name: str) -> None:
    assert list_key(name) == "shopping"


def test_other_list_names_keep_their_old_key() -> None:
    assert list_key("Mom's  Stuff") == "mom's stuff"
    assert list_key("To-Do") == list_key("משימות") == "todo"


@pytest.mark.parametrize(
    ("message", "name", "items"),
    [
        ("add חומוס and פיתות to my shopping list", "shopping", ["חומוס", "פיתות"]),
        ("תוסיף חלב לקניות", "קניות", ["חלב"]),
        ("תוסיף ביצים לסופר", "סופר", ["ביצים"]),
        ("תוסיף לקניות שמן זית", "קניות", ["שמן זית"]),
        ("add bananas to groceries", "groceries", ["bananas"]),
        ("add milk to the list for the supermarket", "supermarket", ["milk"]),
    ],
)
def test_list_edits_keep_the_users_own_name(message: str, name: str, items: list[str]) -> None:
    assert steps(run(message)) == [("lists", "add", {"listName": name, "items": items})]


def test_removing_items_with_delete_is_not_clearing_the_list() -> None:
    output = run("delete coffee from my shopping list")
    assert steps(output) == [("lists", "remove", {"listName": "shopping", "items": ["coffee"]})]
    assert not output.needs_approval


def test_referential_follow_ups_still_work_after_normalising() -> None:
    actions = (latest("reminders", "call mom"),)
    assert steps(run("delete it pls", actions=actions))[0][:2] == ("reminders", "delete")


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("note to self: buy a new charger", ("notes", "save", {"text": "buy a new charger"})),
        ("todo: call the plumber", ("lists", "add", {"listName": "todo", "items": ["call the plumber"]})),
        ("shopping: milk, eggs", ("lists", "add", {"listName": "shopping", "items": ["milk", "eggs"]})),
        ("קניות: חלב וביצים", ("lists", "add", {"listName": "קניות", "items": ["חלב", "ביצים"]})),
        (
            "reminder to self: call Dan at 5",
            ("reminders", "create", {"title": "call Dan", "when": "2024-05-01T17:00:00+03:00"}),
        ),
    ],
)
def test_shorthand_people_type(message: str, expected: tuple[str, str, dict]) -> None:
    assert steps(run(message)) == [expected]


@pytest.mark.parametrize("message", ["what's the weather", "what is the score"])
def test_questions_about_the_world_are_not_note_searches(message: str) -> None:
    assert run(message).missing_fields == ["intent_unclear"]


def test_what_is_the_time_is_the_clock_not_a_note_search() -> None:
    output = run("what is the time")
    assert output.intent_type == "conversation" and output.plan[0].constraints == {"kind": "clock"}


def test_thanks_for_the_reminder_is_thanks() -> None:
    output = run("thanks for the reminder")
    assert output.intent_type == "conversation" and output.plan[0].constraints == {"kind": "thanks"}
