"""A skip asked in one message with another step ("skip the gym next week and delete the dentist
reminder") is shown as a skip of the times it skips, never as a delete of the series' next time, and
the reply marks each line once. English and Hebrew, signed payloads through the webhook, the ticker
on moto, the fake clock (a Monday at 10:00, Jerusalem)."""

from __future__ import annotations

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import fired, shown


def test_a_skip_beside_a_delete_says_which_times_it_skips(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to go to the gym every tuesday and thursday at 7pm")
    chat.say("remind me to call the dentist tomorrow at 10")
    asked = chat.say("skip the gym next week and delete the dentist reminder")
    # It was "delete 1 reminder: “go to the gym” — Tue …, 19:00 and Thu …, 19:00 — only the next time".
    assert "skip 1 reminder:\n1. “go to the gym” — " in asked
    assert f"{shown(8, 19)} and {shown(10, 19)} — twice, then it goes on" in asked
    assert "delete 1 reminder:\n2. “call the dentist”" in asked
    assert "only the next time" not in asked
    done = chat.say("yes")
    assert "✅ ✅" not in done
    assert done.startswith(f"✅ Skipped “go to the gym” on {shown(8, 19)} and {shown(10, 19)}")
    assert "✅ Deleted the reminder “call the dentist”." in done
    assert any("go to the gym" in sent for sent in fired(chat, clock, 1, 19))  # this week's stay
    assert any("go to the gym" in sent for sent in fired(chat, clock, 3, 19))
    assert fired(chat, clock, 8, 19) == []  # next week's is skipped
    assert fired(chat, clock, 10, 19) == []
    assert any("go to the gym" in sent for sent in fired(chat, clock, 15, 19))  # and it goes on


def test_hebrew_a_skip_beside_a_delete_is_a_skip(chat: Conversation) -> None:
    chat.say("תזכיר לי ללכת לבריכה כל יום שני ורביעי ב8 בבוקר")
    chat.say("תזכיר לי להתקשר לרופא מחר ב11")
    asked = chat.say("תדלג על הבריכה בשבוע הבא ותמחק את התזכורת של הרופא")
    assert "לדלג על תזכורת אחת:\n1. „ללכת לבריכה” — " in asked
    assert (
        f"{shown(7, 8, language='he')} ו{shown(9, 8, language='he')} — פעמיים, ואחר כך ממשיכה כרגיל" in asked
    )
    assert "למחוק תזכורת אחת:\n2. „להתקשר לרופא”" in asked
    assert "רק הפעם הבאה" not in asked
