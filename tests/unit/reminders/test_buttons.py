"""A delivered reminder's buttons: their ids parse back to the tap, and typing what they do ("done",
"snooze 15 min", "בוצע", "תזכיר לי שוב בעוד שעה") is the same tap."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.reminders.buttons import (
    HOW_MUCH_LATER,
    SNOOZE_CHOICES,
    ReminderButton,
    buttons,
    by_its_name,
    delivered_title,
    is_reminder_button_id,
    parse_button,
    reminder_text,
    typed_button,
)
from tests.support.button_ids import button_ids, reminder_ids

REMINDER_IDS = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", min_size=1, max_size=64
)


@given(REMINDER_IDS, st.sampled_from(["en", "he"]))
def test_every_buttons_id_parses_back_to_its_action_on_that_reminder(reminder_id: str, language: str) -> None:
    done, *snoozes = buttons(reminder_id, language)  # type: ignore[arg-type]
    assert parse_button(done.id) == ReminderButton(action="done", reminder_id=reminder_id)
    assert [parse_button(choice.id) for choice in snoozes] == [
        ReminderButton(action="snooze", reminder_id=reminder_id, minutes=minutes)
        for minutes in SNOOZE_CHOICES
    ]


@pytest.mark.parametrize("language", ["en", "he"])
def test_button_titles_fit_whatsapps_twenty_characters_and_are_distinct(language: str) -> None:
    titles = [choice.title for choice in buttons("r1", language)]  # type: ignore[arg-type]
    assert len(titles) == 3 == len(set(titles))
    assert all(len(title) <= 20 for title in titles)


def test_a_taps_executor_args_name_the_reminder_and_a_snoozes_minutes() -> None:
    assert parse_button("reminder:done:r1").args() == {"reminderId": "r1"}  # type: ignore[union-attr]
    assert parse_button("reminder:snooze:60:r1").args() == {"reminderId": "r1", "minutes": 60}  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "reply_id",
    [
        None,
        "",
        "hitl:approve",
        "undo:1700000000:wamid.1",
        "reminder:done:",  # no reminder
        "reminder:done:r 1",  # not an id Memo writes
        "reminder:done:" + "r" * 65,
        "reminder:snooze:15:r1",  # not one of the buttons' amounts
        "reminder:snooze:r1",
        "reminder:later:r1",
    ],
)
def test_any_other_reply_id_is_no_reminder_button(reply_id: str | None) -> None:
    assert parse_button(reply_id) is None


@pytest.mark.parametrize(
    ("text", "action", "minutes"),
    [
        ("done", "done", 0),
        ("Done!", "done", 0),
        ("ok done ✅", "done", 0),
        ("did it", "done", 0),
        ("בוצע", "done", 0),
        ("עשיתי את זה", "done", 0),
        ("snooze", "snooze", 10),
        ("snooze 15 min", "snooze", 15),
        ("snooze it for 2 hours", "snooze", 120),
        ("remind me again in an hour", "snooze", 60),
        ("again in 20 minutes", "snooze", 20),
        ("נודניק 10 דקות", "snooze", 10),
        ("snooze 10", "snooze", 10),  # as the button says it ("Snooze 10 min")
        ("snooze 30", "snooze", 30),
        ("please snooze 5", "snooze", 5),
        ("נודניק 10", "snooze", 10),
        ("תזכיר לי שוב בעוד חצי שעה", "snooze", 30),
        ("תזכיר לי שוב בעוד שעתיים", "snooze", 120),
    ],
)
def test_typed_done_and_snooze(text: str, action: str, minutes: int) -> None:
    button = typed_button(text, "r1")
    assert isinstance(button, ReminderButton)
    assert (button.action, button.reminder_id, button.minutes) == (action, "r1", minutes)


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("remind me again in 10", 10),
        ("remind me in 20 minutes", 20),
        ("תזכיר לי בעוד 20 דקות", 20),
        ("again in 60", 60),
    ],
)
def test_remind_me_in_an_amount_with_no_title_is_a_snooze(text: str, minutes: int) -> None:
    button = typed_button(text, "r1")
    assert isinstance(button, ReminderButton) and button.minutes == minutes


@given(
    st.integers(min_value=1, max_value=99), st.sampled_from(["in {}", "בעוד {}", "עוד {}", "remind me in {}"])
)
def test_a_bare_number_is_minutes_up_to_an_hour(n: int, form: str) -> None:
    button = typed_button(form.format(n), "r1", right_after=True)
    if n <= 60:
        assert isinstance(button, ReminderButton) and button.minutes == n
    else:
        assert button is None


@pytest.mark.parametrize(
    "text", ["in 15 min", "10 more minutes", "עוד 10 דקות", "in an hour", "בעוד רבע שעה"]
)
def test_an_amount_alone_is_a_snooze_only_right_after_the_reminder(text: str) -> None:
    assert typed_button(text, "r1") is None
    button = typed_button(text, "r1", right_after=True)
    assert isinstance(button, ReminderButton) and button.action == "snooze"


@pytest.mark.parametrize("text", ["later", "remind me later", "תזכיר לי אחר כך"])
def test_later_without_an_amount_asks_how_much(text: str) -> None:
    assert typed_button(text, "r1") == HOW_MUCH_LATER


@pytest.mark.parametrize(
    "text",
    [
        "remind me to call mom in an hour",
        "done with the report, remind me at 5",
        "ok",
        "snooze 3 days",
        "snooze 100",
    ],
)
def test_anything_else_is_no_typed_button(text: str) -> None:
    assert typed_button(text, "r1") is None


@given(reminder_ids())
def test_no_reminder_button_id_makes_the_parser_raise(reply_id: str) -> None:
    button = parse_button(reply_id)
    assert is_reminder_button_id(reply_id)
    if button is not None:
        assert button.minutes in (0, *SNOOZE_CHOICES) and 1 <= len(button.reminder_id) <= 64


@given(button_ids())
def test_only_ids_in_the_reminder_namespace_are_reminder_buttons(reply_id: str) -> None:
    assert parse_button(reply_id) is None or is_reminder_button_id(reply_id)


_PUT_OFF = {
    "en": ["push it", "push it back", "delay it", "postpone it", "put it off", "push", "delay"],
    "he": ["תדחה את זה", "תדחי את זה", "תדחה אותה", "תדחה", "דחה"],
}
_AMOUNTS = {
    "en": {
        "10 minutes": 10,
        "by 10 minutes": 10,
        "by an hour": 60,
        "20 min": 20,
        "by ten minutes": 10,
        "2 hours": 120,
    },
    "he": {"בעשר דקות": 10, "ב-10 דקות": 10, "בחצי שעה": 30, "בשעה": 60, "בשעתיים": 120, "ברבע שעה": 15},
}


@pytest.mark.parametrize("language", ["en", "he"])
def test_a_reminder_put_off_by_an_amount_is_snoozed_that_long(language: str) -> None:
    # "תדחה את זה בעשר דקות" right after a reminder went out answered "לא מצאתי את זה יותר".
    for verb in _PUT_OFF[language]:
        for amount, minutes in _AMOUNTS[language].items():
            said = f"{verb} {amount}"
            assert typed_button(said, "r-1") == ReminderButton(
                action="snooze", reminder_id="r-1", minutes=minutes
            ), said
        assert typed_button(verb, "r-1") is None  # no amount: not a snooze (planned as words)
    assert typed_button("push it to 6pm", "r-1") is None


@pytest.mark.parametrize("said", ["תעשה נודניק", "תעשה נודניק לעשר דקות", "תזכיר לי שוב בעוד רבע שעה"])
def test_hebrew_snooze_words(said: str) -> None:
    found = typed_button(said, "r-1")
    assert isinstance(found, ReminderButton) and found.action == "snooze" and found.minutes in (10, 15)


@pytest.mark.parametrize(
    ("text", "to"),
    [
        ("snooze it until 5pm", "5pm"),
        ("snooze till tomorrow", "tomorrow"),
        ("remind me again tomorrow", "tomorrow"),
        ("remind me about it again on friday at 9", "friday at 9"),
        ("תזכיר לי שוב מחר", "מחר"),
        ("תזכיר לי על זה שוב ביום חמישי", "ביום חמישי"),
        ("נודניק עד הערב", "עד הערב"),
    ],
)
def test_a_time_typed_for_a_reminder_that_went_out_is_its_snooze_to_then(text: str, to: str) -> None:
    # The words of the time are read by the turn (`memo.turn.reminder_buttons.snoozed_to`).
    button = typed_button(text, "r1")
    assert isinstance(button, ReminderButton) and (button.action, button.to) == ("snooze", to)
    assert button.args() == {"reminderId": "r1", "minutes": 0}  # no executor args until it has a time


def test_moved_to_a_time_is_its_snooze_only_as_the_next_message() -> None:
    # Later, "push it to 6pm" may be about a reminder set since: planned as words.
    for said, to in (("push it to 6pm", "6pm"), ("תדחה את זה למחר", "למחר")):
        assert typed_button(said, "r1") is None
        button = typed_button(said, "r1", right_after=True)
        assert isinstance(button, ReminderButton) and button.to == to


def test_a_snooze_to_a_time_carries_the_time_as_its_args() -> None:
    at = datetime(2026, 5, 1, 17, 0, tzinfo=UTC)
    button = ReminderButton(action="snooze", reminder_id="r1", at=at)
    assert button.args() == {"reminderId": "r1", "at": "2026-05-01T17:00:00+00:00"}


_TITLES = ("call mom", "take the pills", "pay rent", "להתקשר לאמא", "לקחת כדורים")
_NAMED = (
    ("snooze {t} until 5pm", "snooze it until 5pm"),
    ("Snooze the {t} reminder to tomorrow", "Snooze it to tomorrow"),
    ("please snooze {t} for 10 minutes", "please snooze it for 10 minutes"),
    ("push {t} to 6pm", "push it to 6pm"),
    ("delay the {t} one by an hour", "delay it by an hour"),
    ("remind me about {t} again tomorrow", "remind me about it again tomorrow"),
    ("snooze {t}", "snooze it"),
    ("תדחה את {t} למחר", "תדחה את זה למחר"),
)


def _hebrew(text: str) -> bool:
    return "\u05d0" <= text[0] <= "\u05ea"


@pytest.mark.parametrize(
    ("title", "said", "meant"),
    [(t, said, meant) for t in _TITLES for said, meant in _NAMED if _hebrew(t) == _hebrew(said)],
)
def test_the_delivered_reminder_named_in_typed_words_is_it(title: str, said: str, meant: str) -> None:
    delivered = f"⏰ {'תזכורת' if _hebrew(title) else 'Reminder'}: {title}"
    words = by_its_name(said.format(t=title), delivered)
    assert words == meant
    button = typed_button(words, "r1", right_after=True)
    assert isinstance(button, ReminderButton) and button.action == "snooze"


@pytest.mark.parametrize(
    "said",
    [
        "snooze call dad until 5pm",  # another reminder's name
        "snooze call momma until 5pm",  # a longer name that begins like it
        "move call mom to 6pm",  # a move is a request of its own (a series moves whole)
        "call mom until 5pm",
        "remind me to call mom at 5pm",
    ],
)
def test_other_words_are_left_as_they_are(said: str) -> None:
    assert by_its_name(said, "⏰ Reminder: call mom") == said
    assert by_its_name(said, "no prefix, nothing delivered") == said


@pytest.mark.parametrize("language", ["en", "he"])
@pytest.mark.parametrize("title", ["call mom", "להתקשר לאמא", "B4 gate check", " spaced "])
def test_a_delivered_reminders_title_is_read_back_from_its_message(language: str, title: str) -> None:
    assert delivered_title(reminder_text(title, language)) == title.strip()  # type: ignore[arg-type]
    assert delivered_title(title) == ""  # any other message names no delivered reminder


def test_it_is_said_in_the_language_of_the_verb_not_of_the_title() -> None:
    assert by_its_name("snooze להתקשר לאמא until 5pm", "⏰ Reminder: להתקשר לאמא") == "snooze it until 5pm"
    assert by_its_name("תדחה את call mom למחר", "⏰ תזכורת: call mom") == "תדחה את זה למחר"


@pytest.mark.parametrize("done", ["done", "did it", "finished", "all done", "סיימתי", "בוצע"])
@pytest.mark.parametrize(
    "said",
    [
        "thanks, {}",
        "thank you! {}",
        "{}, thanks",
        "{} thank you 🙏",
        "yes {}",
        "תודה, {}",
        "{} תודה רבה",
        "כן {}",
    ],
)
def test_done_said_with_thanks_is_done(done: str, said: str) -> None:
    # "thanks, done" right after a reminder was "You're welcome!", and the reminder stayed open.
    button = typed_button(said.format(done), "r1")
    assert isinstance(button, ReminderButton) and button.action == "done", said.format(done)


@pytest.mark.parametrize("said", ["thanks", "thank you", "תודה", "thanks, not yet", "done with the dishes"])
def test_thanks_alone_or_more_words_is_no_done(said: str) -> None:
    assert typed_button(said, "r1") is None


@given(st.integers(min_value=1, max_value=99), st.sampled_from(["snooze {}", "נודניק {}", "snooze it {}"]))
def test_a_bare_number_after_snooze_is_minutes_up_to_an_hour(n: int, form: str) -> None:
    button = typed_button(form.format(n), "r1")
    if n <= 60:
        assert isinstance(button, ReminderButton) and button.minutes == n
    else:
        assert button is None
