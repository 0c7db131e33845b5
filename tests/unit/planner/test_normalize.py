"""Before matching: typos and chat spelling fixed, greetings and thanks around a request set aside."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.planner.normalize import ABBREVIATIONS, fix_typos, greeted_off, strip_pleasantries
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import pin


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


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        # The opening verb said to a woman, or in a synonym, is read in the form the matchers know.
        ("תשימי עגבניות ברשימה", "תשים עגבניות ברשימה"),
        ("תראי לי את הפתקים שלי", "תראה לי את הפתקים שלי"),
        ("ותמחקי את החלב", "ותמחק את החלב"),
        ("תזרוק את הפתק על החניה", "תמחק את הפתק על החניה"),
        ("תזכר לי מחר בתשע", "תזכיר לי מחר בתשע"),
        ("תזקיר לי בעוד שעתיים לצלצל לסבתא", "תזכיר לי בעוד שעתיים לצלצל לסבתא"),
        ("תוסיפ לרשימת הקניות חלב", "תוסיף לרשימת הקניות חלב"),
        # Time words as people spell them.
        ("תזכיר לי ביום ששי בצהריים", "תזכיר לי ביום שישי בצהריים"),
        ("תזכיר לי אחרי הצהריים", "תזכיר לי אחר הצהריים"),
        ("תזכיר לי מחר אחר הצהרים", "תזכיר לי מחר אחר הצהריים"),
        ("תזכיר לי ב 5 לשלם", "תזכיר לי ב-5 לשלם"),
        ("תזכיר לי ביום א' בתשע", "תזכיר לי ביום ראשון בתשע"),
        ("תזכירי לי ביום ג׳ בשמונה", "תזכירי לי ביום שלישי בשמונה"),
        # "lease" is a word, not a typo of "please".
        ("remind me to sign the lease at 2pm", "remind me to sign the lease at 2pm"),
    ],
)
def test_hebrew_verb_forms_and_spellings_are_read(typed: str, meant: str) -> None:
    assert fix_typos(typed) == meant


@pytest.mark.parametrize(
    "typed",
    [
        "תזכיר לי להגיד לה תשימי לב",  # a verb inside the title is the user's words
        "תזכיר לי לקנות ויטמין ב'",  # a letter is a day only after "יום"
        'תוסיף ב 2 ק"ג עגבניות',  # an amount, not an hour
        "תזכור שהמשחק ב 5 אנשים",
        "הנתב בחדר של משה",  # a word ending in a final letter is already final
        "תזרוק את הזבל",  # "throw away" is a delete only of a note, a reminder or a list
    ],
)
def test_words_of_a_title_or_an_amount_are_kept(typed: str) -> None:
    assert fix_typos(typed) == typed


def test_please_after_a_hebrew_verb_is_set_aside() -> None:
    assert strip_pleasantries("תוסיף בבקשה חלב") == "תוסיף חלב"
    assert strip_pleasantries("תרוקן בבקשה את הרשימה") == "תרוקן את הרשימה"
    assert strip_pleasantries("תודה בבקשה") == "תודה בבקשה"  # nothing after it: kept


@given(
    hour=st.integers(min_value=1, max_value=12),
    minute=st.integers(min_value=10, max_value=59),
    tail=st.sampled_from([" to call", "pm to call", " pm to call", " tomorrow", ""]),
)
def test_at_an_hour_and_its_minutes_after_a_space_is_a_clock_time(hour: int, minute: int, tail: str) -> None:
    # "remind me at 3 15 to call the school" was set for 15:00, titled "15 to call the school".
    assert fix_typos(f"remind me at {hour} {minute}{tail}") == f"remind me at {hour}:{minute}{tail}"


@pytest.mark.parametrize(
    "text",
    [
        "remind me at 5 10 minutes before the meeting",
        "remind me at 9 12 eggs",
        "remind me at 5 20 kids to pick up",
    ],
)
def test_a_number_after_the_hour_that_counts_something_stays(text: str) -> None:
    assert fix_typos(text) == text


@given(
    hour=st.integers(min_value=1, max_value=12),
    minute=st.one_of(st.none(), st.integers(min_value=0, max_value=59)),
    half=st.sampled_from("apAP"),
)
def test_a_clock_time_with_one_letter_of_am_or_pm_is_spelled_out(
    hour: int, minute: int | None, half: str
) -> None:
    time = f"{hour}" if minute is None else f"{hour}:{minute:02d}"
    assert fix_typos(f"remind me at {time}{half} to stretch") == f"remind me at {time}{half}m to stretch"


@pytest.mark.parametrize(
    "text",
    ["remind me at 9 a chore", "remind me at 5pm", "at 5 p.m.", "at 13p", "at 5pa", "set 5p", "at 5p's"],
)
def test_other_letters_after_a_number_are_left_as_they_are(text: str) -> None:
    assert fix_typos(text) == text


@given(hour=st.integers(min_value=0, max_value=23), minute=st.one_of(st.none(), st.integers(0, 59)))
def test_to_the_hour_in_hebrew_is_at_the_hour(hour: int, minute: int | None) -> None:
    time = f"{hour}" if minute is None else f"{hour}:{minute:02d}"
    assert fix_typos(f"תזיז את הרופא לשעה {time}") == f"תזיז את הרופא בשעה {time}"


@pytest.mark.parametrize("text", ["תזיז את זה לשעה", "תדחה לשעה אחת", "שעה 3"])
def test_to_the_hour_with_no_number_after_it_stays(text: str) -> None:
    assert fix_typos(text) == text


@pytest.mark.parametrize("what", ["wat", "wht", "waht", "whta", "what"])
@pytest.mark.parametrize("reminders", ["reminders", "remiders", "remindrs", "reminers"])
def test_what_are_my_reminders_typed_fast(what: str, reminders: str) -> None:
    # "wat are my remiders" was not understood.
    (step,) = RulePlanner().plan(pin(f"{what} are my {reminders}")).output.plan
    assert (step.capability, step.action) == ("reminders", "list")


@pytest.mark.parametrize(
    "said",
    ["shwo my shopping list", "sohw my shopping list", "show list", "show me list", "wat is on my list"],
)
def test_show_the_list_typed_fast(said: str) -> None:
    (step,) = RulePlanner().plan(pin(said)).output.plan
    assert (step.capability, step.action) == ("lists", "show")


_CODES = sorted(k for k in ABBREVIATIONS if k.isascii() and len(k) <= 4)
_LABEL_WORDS = ("gate", "seat", "row", "room", "apartment", "section", "platform", "vitamin", "locker", "bus")


@given(
    label=st.sampled_from(_LABEL_WORDS),
    code=st.sampled_from(_CODES),
    upper=st.booleans(),
    lead=st.sampled_from(("remember the flight is from", "save a note: my", "the", "remember")),
)
def test_a_code_after_a_label_is_kept_as_written(label: str, code: str, upper: bool, lead: str) -> None:
    # "gate B4" was saved as "gate BEFORE": a chat spelling read into a code.
    written = code.upper() if upper else code
    said = f"{lead} {label} {written}"
    assert fix_typos(said).endswith(f"{label} {written}")


@given(
    code=st.sampled_from([k for k in _CODES if any(ch.isalpha() for ch in k)]),
    lead=st.sampled_from(("the code is", "remember", "note:")),
)
def test_a_chat_spelling_in_capitals_inside_a_message_is_a_code(code: str, lead: str) -> None:
    said = f"{lead} {code.upper()} ok"
    assert fix_typos(said) == said


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("call mom b4 work", "call mom before work"),
        ("Pls remind me tmrw at 5", "Please remind me tomorrow at 5"),
        ("r u free tmrw", "are you free tomorrow"),
        ("PLS REMIND ME TMRW AT 5", "PLEASE REMIND ME TOMORROW AT 5"),
        ("remind me 2nite to take vitamin b4", "remind me tonight to take vitamin b4"),
    ],
)
def test_chat_spellings_typed_as_chat_are_still_spelled_out(said: str, read: str) -> None:
    assert fix_typos(said) == read


def test_the_greeting_off_leaves_the_words_as_they_were_asked() -> None:
    # strip_pleasantries turns "אתה יכול להזכיר" into the request "תזכיר"; greeted_off does not.
    assert greeted_off("היי, אתה יכול להזכיר לי דברים?") == "אתה יכול להזכיר לי דברים?"
    assert strip_pleasantries("היי, אתה יכול להזכיר לי דברים?").startswith("תזכיר")
    assert greeted_off("hi memo, oh and can you set reminders") == "can you set reminders"
    assert greeted_off("hi!") == "hi!"  # nothing else: the message itself


@pytest.mark.parametrize("typo", ["too", "t", "tp", "ti", "yo", "ot", "tto", "Too"])
@pytest.mark.parametrize("task", ["walk the dog", "call mom", "take out the trash", "email dana"])
def test_the_to_of_remind_me_to_mistyped_is_to(typo: str, task: str) -> None:
    # "remind me too walk the dog" set a reminder titled "too walk the dog".
    assert fix_typos(f"remind me {typo} {task} at 8pm") == f"remind me to {task} at 8pm"
    assert fix_typos(f"remind em to {task}") == f"remind me to {task}"


@pytest.mark.parametrize(
    "kept", ["remind me to call mom too", "note: me too", "remind Em to call", "it's too late"]
)
def test_too_elsewhere_is_kept(kept: str) -> None:
    assert fix_typos(kept) == kept
