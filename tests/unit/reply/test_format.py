"""What the user reads after a turn: complete, partial and total failure, in English and Hebrew."""

from __future__ import annotations

from memo.reply.format import format_joined, format_success
from memo.reply.join import join
from memo.reply.writer import write
from tests.unit.reply.factories import failed, ok, reminder_created


def reply_text(*outcomes, language="en", timezone="Asia/Jerusalem") -> str:
    return write(format_joined(join(outcomes), language, timezone)).text


def test_complete_single_reminder_in_the_users_timezone() -> None:
    # 14:00 UTC on Wed 4 Jun is 17:00 in Jerusalem (UTC+3 in summer).
    assert reply_text(reminder_created()) == "⏰ Reminder set: “call mom” for Wed 4 Jun, 17:00."
    assert (
        reply_text(reminder_created(), language="he") == "⏰ קבעתי תזכורת „call mom” ליום ד׳ 4.6 בשעה 17:00."
    )


def test_complete_two_steps_are_each_marked_done() -> None:
    text = reply_text(
        reminder_created(),
        ok("s2", "lists", "add", data={"list_name": "shopping", "items": ["milk", "eggs"]}),
    )
    assert text == (
        "✅ ⏰ Reminder set: “call mom” for Wed 4 Jun, 17:00.\n✅ Added milk, eggs to your shopping list."
    )


def test_partial_failure_says_what_worked_and_what_did_not() -> None:
    outcomes = (
        reminder_created(),
        failed("s2", "reminders", "delete", "NOT_FOUND", data={"target": "dentist"}),
    )
    assert reply_text(*outcomes) == (
        "I did part of it:\n"
        "✅ ⏰ Reminder set: “call mom” for Wed 4 Jun, 17:00.\n"
        "❌ I couldn't find a reminder matching “dentist”, so I couldn't delete the reminder."
    )
    assert reply_text(*outcomes, language="he") == (
        "עשיתי רק חלק:\n"
        "✅ ⏰ קבעתי תזכורת „call mom” ליום ד׳ 4.6 בשעה 17:00.\n"
        "❌ לא מצאתי תזכורת שמתאימה ל„dentist”, אז לא יכולתי למחוק את התזכורת."
    )


def test_total_failure_of_several_steps_claims_no_success() -> None:
    outcomes = (
        failed("s1", "notes", "save", "STEP_FAILED"),
        failed("s2", "lists", "show", "NOT_FOUND", data={"target": "groceries"}),
    )
    text = reply_text(*outcomes)
    assert text.startswith("I couldn't do any of it:\n❌ ")
    assert "Something went wrong when I tried to save the note, and I can't confirm it went through." in text
    assert "✅" not in text
    he = reply_text(*outcomes, language="he")
    assert he.startswith("לא הצלחתי לבצע אף אחד מהם:\n❌ ")
    assert "משהו השתבש כשניסיתי לשמור את הפתק, ואין לי אישור שזה הצליח." in he


def test_single_failure_is_its_own_line_without_a_header() -> None:
    text = reply_text(failed("s1", "notes", "delete", "NOT_FOUND", data={"query": "wifi"}))
    assert text == "I couldn't find a note matching “wifi”, so I couldn't delete the note."


def test_empty_plan_says_nothing_was_done() -> None:
    assert reply_text() == "I didn't do anything — there was nothing to run."
    assert reply_text(language="he") == "לא עשיתי כלום — לא היה מה לבצע."


def test_unknown_shapes_fall_back_to_the_summary_not_to_invented_values() -> None:
    result = ok("s1", "reminders", "delete", summary="reminder “dentist”").result
    assert format_success(result, "en", "UTC") == "Done: reminder “dentist”."
    assert format_success(ok("s1", "general", "chat").result, "he", "UTC") == "בוצע."


def test_undo_says_what_came_back_and_whose_time_passed() -> None:
    undo = ok("s1", "reminders", "undo", data={"restored": ["gym", "dentist"], "timePassed": ["gym"]}).result
    assert format_success(undo, "en", "UTC") == (
        "↩️ Undone: “gym”, “dentist” are back. The time of “gym” passed meanwhile, so no reminder will fire for it."
    )
    assert format_success(undo, "he", "UTC") == (
        "↩️ ביטלתי את המחיקה ושחזרתי את „gym”, „dentist”. הזמן של „gym” כבר עבר בינתיים, אז לא תישלח עליו תזכורת."
    )


def test_undo_says_what_it_left_because_it_is_there_again() -> None:
    both = ok("s1", "lists", "undo", data={"restored": ["eggs"], "alreadyThere": ["milk"]}).result
    assert format_success(both, "en", "UTC") == (
        "↩️ Undone: “eggs” is back. “milk” is already there again, so I didn't add a second one."
    )
    only = ok("s1", "reminders", "undo", data={"restored": [], "alreadyThere": ["call mom"]}).result
    assert format_success(only, "en", "UTC") == (
        "↩️ Nothing to bring back. “call mom” is already there again, so I didn't add a second one."
    )
    assert format_success(only, "he", "UTC") == (
        "↩️ אין מה להחזיר. „call mom” כבר קיים שוב, אז לא הוספתי עוד אחד."
    )


def test_a_result_the_executor_cut_says_part_of_it_is_not_shown() -> None:
    cut = ok(
        "s1", "lists", "show", data={"listName": "shopping", "items": ["milk"], "truncated": True}
    ).result
    assert format_success(cut, "en", "UTC").endswith("\n(Part of it isn't shown: too much to show at once.)")
    assert format_success(cut, "he", "UTC").endswith("\n(חלק מזה לא מוצג: יותר מדי להציג בבת אחת.)")
