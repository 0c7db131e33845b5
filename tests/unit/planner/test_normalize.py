"""Before matching: typos and chat spelling fixed, greetings and thanks around a request set aside."""

from __future__ import annotations

import pytest

from memo.planner.normalize import fix_typos, strip_pleasantries


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("remnd me to cal mom tomorow", "remind me to call mom tomorrow"),
        ("Remnid me tmrw pls", "Remind me tomorrow please"),
        ("add eggs to my shoping list", "add eggs to my shopping list"),
        ("delte the reminder", "delete the reminder"),
        ("can u remind me 2nite", "can you remind me tonight"),
        ("REMNID ME", "REMIND ME"),
        ("תזכירלי לקנות חלב", "תזכיר לי לקנות חלב"),
        ("remind me tmrw 2 call mom", "remind me tomorrow to call mom"),
        ("remind me to by milk", "remind me to buy milk"),
        ("remind me @ 9 to call", "remind me at 9 to call"),
        ("remind me @9pm", "remind me at 9pm"),
    ],
)
def test_typos_and_chat_spelling_are_fixed(typed: str, meant: str) -> None:
    assert fix_typos(typed) == meant


@pytest.mark.parametrize(
    "text",
    [
        "remind me about shipping the package",  # one edit from "shopping", a real word
        "remind me to schedule the meeting",  # not "reschedule"
        "remind me to fix the remote",
        "the remainder of the payment",
        "a morning in mourning",
        "every mondays and fridays",
        "buy 2 eggs",  # a count, not "to"
        "go by the bank",
        "email dana@gmail.com",
        "stop by the end of the day",
    ],
)
def test_real_words_near_a_keyword_are_left_alone(text: str) -> None:
    assert fix_typos(text) == text


def test_pleasantries_around_a_request_are_set_aside() -> None:
    assert strip_pleasantries("hi memo, remind me to call grandma at 7 tonight thx") == (
        "remind me to call grandma at 7 tonight thx".removesuffix(" thx")
    )
    assert strip_pleasantries("thanks!") == "thanks!"  # nothing else: the message itself


@pytest.mark.parametrize(
    ("message", "request_"),
    [
        ("actually make it the 2nd", "make it the 2nd"),
        ("ok so actually, remind me to call dad at 6", "remind me to call dad at 6"),
        ("oh and add eggs", "add eggs"),
        ("btw what's on my shopping list?", "what's on my shopping list?"),
        ("בעצם תזיז את זה ל-19:00", "תזיז את זה ל-19:00"),
        ("רגע, תמחק את זה", "תמחק את זה"),
        ("actually", "actually"),  # nothing else: the message itself
        ("so long and thanks for all the fish", "so long and thanks for all the fish"),
        ("so, remind me to call dad at 6", "remind me to call dad at 6"),
        ("טוב לדעת שהקוד הוא 1234", "טוב לדעת שהקוד הוא 1234"),
    ],
)
def test_lead_in_words_are_not_the_request(message: str, request_: str) -> None:
    assert strip_pleasantries(message) == request_
