"""A change of timezone with one-time reminders ahead, through the webhook: each keeps its moment and
is named with its time in the new zone; Memo offers to move it to the same clock time there, and
only a yes (or a yes to some of them) moves anything. A repeating reminder keeps its local time: its
schedule is made again in the new zone at once, and "undo" puts it back. The user's number is
Israeli (+972)."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from tests.support.conversation import Conversation

ASKED = "“call bob” is at"


def _set_call_bob(chat: Conversation) -> None:
    assert "18:15" in chat.say("remind me to call bob at 6:15pm tomorrow")


def test_the_offer_names_the_reminder_in_both_zones(chat: Conversation) -> None:
    _set_call_bob(chat)
    told = chat.say("im in new york this week")
    assert "America/New_York" in told
    assert "“call bob” is at" in told and "11:15 in New York (18:15 in Israel)" in told
    assert "Move it to 18:15 New York time?" in told
    assert [c.title for c in chat.choices] == ["Yes", "No"]


def test_yes_moves_it_to_the_same_clock_time_there(chat: Conversation) -> None:
    _set_call_bob(chat)
    chat.say("im in new york this week")
    assert "18:15" in chat.say("yes")
    listed = chat.say("show my reminders")
    assert "18:15" in listed and "11:15" not in listed


@pytest.mark.parametrize("answer", ["no", "tap No", "2", "leave them"])
def test_no_keeps_its_moment(chat: Conversation, answer: str) -> None:
    _set_call_bob(chat)
    chat.say("im in new york this week")
    said = chat.tap(2) if answer == "tap No" else chat.say(answer)
    assert "Nothing was changed" in said
    assert "11:15" in chat.say("show my reminders")


@pytest.mark.parametrize("unclear", ["3", "maybe", "hmm what"])
def test_an_unclear_answer_is_asked_again_and_moves_nothing(chat: Conversation, unclear: str) -> None:
    _set_call_bob(chat)
    chat.say("im in new york this week")
    again = chat.say(unclear)
    assert ASKED in again
    assert "11:15" in chat.say("show my reminders")


def test_a_new_request_is_its_own_and_moves_nothing(chat: Conversation) -> None:
    _set_call_bob(chat)
    chat.say("im in new york this week")
    assert "08:00" in chat.say("remind me to buy milk tomorrow at 8am")
    listed = chat.say("show my reminders")
    assert "11:15" in listed and "buy milk" in listed
    assert "Nothing to answer" not in chat.say("yes")  # the offer is gone with the new request
    assert "11:15" in chat.say("show my reminders")


def test_many_reminders_name_five_and_a_narrowed_yes_moves_only_those(chat: Conversation) -> None:
    for hour in range(9, 16):
        chat.say(f"remind me to task {hour} at {hour}:00 tomorrow")
    told = chat.say("I just landed in London")
    assert "1. “task 9” — " in told and "5. “task 13” — " in told
    assert "task 14" not in told and "and 2 more, which keep their time" in told
    assert "09:00" in chat.say("only the first")
    listed = chat.say("show my reminders").splitlines()
    at = {line.split("”")[0].split("“")[1]: line[-5:] for line in listed if "“task" in line}
    # Only the first moved (to 09:00 London); the others keep their moment (two hours earlier there).
    assert at == {f"task {h}": f"{h - 2 if h > 9 else 9:02d}:00" for h in range(9, 16)}


def test_hebrew_landing_asks_in_hebrew_and_yes_moves(chat: Conversation) -> None:
    assert "18:15" in chat.say("תזכיר לי להתקשר לבוב מחר ב-18:15")
    told = chat.say("נחתתי בניו יורק")
    assert "לפי השעה בניו יורק (18:15 בישראל)" in told
    assert "להעביר אותה ל-18:15 בשעון ניו יורק?" in told
    assert [c.title for c in chat.choices] == ["כן", "לא"]
    assert "18:15" in chat.say("כן")
    assert "18:15" in chat.say("מה התזכורות שלי")


def test_coming_home_offers_to_move_what_was_set_away(chat: Conversation) -> None:
    chat.say("I'm in London")
    assert "09:00" in chat.say("remind me to stretch tomorrow at 9am")
    told = chat.say("חזרתי לארץ")
    assert "Asia/Jerusalem" in told and "11:00" in told  # 09:00 London is 11:00 in Israel
    assert "09:00" in chat.say("yes")


@pytest.mark.parametrize(
    "said", ["flying to london tomorrow", "I'm in a meeting this week", "אני טס ללונדון"]
)
def test_words_that_are_no_statement_change_nothing(chat: Conversation, said: str) -> None:
    _set_call_bob(chat)
    reply = chat.say(said)
    assert "From now on times are in" not in reply and "מעכשיו הזמנים" not in reply
    assert "18:15" in chat.say("show my reminders")


def test_no_offer_for_a_series_it_keeps_its_local_time(chat: Conversation) -> None:
    chat.say("remind me to water plants every sunday at 10am")
    told = chat.say("im in new york this week")
    assert (
        "Your repeating reminders keep their local time: “water plants” every Sunday at 10:00 New York time."
        in told
    )
    assert "One-time reminders" not in told  # none is set
    assert not chat.choices or [c.title for c in chat.choices] != ["Yes", "No"]


def _schedules() -> dict[str, dict[str, Any]]:
    scheduler = boto3.client("scheduler", region_name="us-east-1")
    names = [s["Name"] for s in scheduler.list_schedules(GroupName="memo-reminders")["Schedules"]]
    return {n: dict(scheduler.get_schedule(Name=n, GroupName="memo-reminders")) for n in names}


def _zones() -> set[str]:
    return {str(s["ScheduleExpressionTimezone"]) for s in _schedules().values()}


def test_a_series_keeps_its_clock_time_where_the_user_is(chat: Conversation) -> None:
    """ "every day at 7" is 7 where the user is: listed after the move, no zone is named and its next
    time is 07:00 there; its schedule is in the new zone at the same clock time."""
    chat.say("remind me to take pills every day at 7am")
    (before,) = _schedules().values()
    chat.say("my timezone is London")
    listed = chat.say("show my reminders")
    assert "every day at 07:00 (next: " in listed and ", 07:00)" in listed
    assert "Israel time" not in listed
    (after,) = _schedules().values()
    assert after["ScheduleExpressionTimezone"] == "Europe/London"
    assert after["ScheduleExpression"] == before["ScheduleExpression"] == "cron(0 7 * * ? *)"
    chat.say("חזרתי לארץ")
    assert _zones() == {"Asia/Jerusalem"}
    assert "Israel time" not in chat.say("show my reminders")


def test_undo_right_after_puts_the_series_back_in_the_old_zone(chat: Conversation) -> None:
    chat.say("remind me to take pills every day at 7am")
    chat.say("im in new york this week")
    assert _zones() == {"America/New_York"}
    undone = chat.say("undo")
    assert "Undone" in undone and "take pills" in undone
    assert _zones() == {"Asia/Jerusalem"}
    listed = chat.say("show my reminders")
    assert "every day at 07:00 Israel time (next: " in listed and ", 00:00)" in listed


def test_hebrew_a_series_keeps_its_local_time_and_undo_brings_it_back(chat: Conversation) -> None:
    chat.say("תזכיר לי לקחת כדורים כל יום ב-7 בבוקר")
    told = chat.say("נחתתי בניו יורק")
    assert "התזכורות החוזרות שלך נשארות בשעה המקומית: „לקחת כדורים” כל יום ב-07:00 לפי שעון ניו יורק." in told
    assert _zones() == {"America/New_York"}
    assert "לפי שעון" not in chat.say("מה התזכורות שלי")
    chat.say("תחזיר את זה")
    assert _zones() == {"Asia/Jerusalem"}
    assert "לפי שעון ישראל" in chat.say("מה התזכורות שלי")


def test_with_a_one_time_reminder_the_series_moves_and_the_offer_is_asked(chat: Conversation) -> None:
    """The series keeps its local time at once; the one-time reminder is offered as before, and a
    no moves nothing more."""
    _set_call_bob(chat)
    chat.say("remind me to take pills every day at 7am")
    told = chat.say("im in new york this week")
    assert "“take pills” every day at 07:00 New York time." in told
    assert "Move it to 18:15 New York time?" in told
    assert _zones() == {"America/New_York", "Asia/Jerusalem"}  # the series, and call bob's moment
    assert "Nothing was changed" in chat.say("no")
    listed = chat.say("show my reminders")
    assert "11:15" in listed and "every day at 07:00 (next: " in listed


def test_five_series_are_named_and_a_sixth_is_counted_all_move(chat: Conversation) -> None:
    for hour in range(7, 13):
        chat.say(f"remind me to task {hour} every day at {hour}:00")
    told = chat.say("my timezone is London")
    # The five soonest are named, each at its own clock time there; the sixth is counted.
    assert told.count(" London time") == 5 and "(and 1 more)." in told
    assert "“task 7” every day at 07:00 London time" in told
    assert _zones() == {"Europe/London"}


def test_asking_for_the_timezone_and_setting_it_back(chat: Conversation) -> None:
    # "what's my timezone?" searched the notes; "change my timezone back to Israel" was not understood.
    chat.say("I'm in New York this week")
    assert chat.say("what's my timezone?").startswith("Your timezone is America/New_York: it's ")
    assert chat.say("מה אזור הזמן שלי?").startswith("אזור הזמן שלך הוא America/New_York")
    assert chat.say("change my timezone back to Israel").startswith(
        "Done 👍 From now on times are in Asia/Jerusalem."
    )
    assert chat.say("what's my timezone?").startswith("Your timezone is Asia/Jerusalem: it's ")
