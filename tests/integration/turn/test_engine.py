"""Time zones as people travel, through the webhook: where the user says they are (for how long,
in English and Hebrew) sets the zone, coming back home sets the zone of their number again,
reminders already set keep their moment (a move to the same clock time is offered: test_travel.py), and a question open across the change is answered in the
zone in force when the answer comes."""

from __future__ import annotations

import pytest

from memo.local.whatsapp_user import WhatsAppUser
from tests.support.conversation import Conversation


@pytest.mark.parametrize(
    ("away", "zone"),
    [
        ("im in new york this week", "America/New_York"),
        ("I just landed in London", "Europe/London"),
        ("we're in paris for a few days", "Europe/Paris"),
        ("אני בניו יורק השבוע", "America/New_York"),
    ],
)
def test_a_trip_moves_the_times_shown_and_coming_home_moves_them_back(
    chat: Conversation, away: str, zone: str
) -> None:
    chat.say("remind me to call mom tomorrow at 7:30am")
    told = chat.say(away)
    assert zone in told
    # The reminder keeps its moment, named with the time it was set for and offered to move there.
    assert "(07:30 in Israel)" in told or "(07:30 בישראל)" in told
    away_listed = chat.say("show my reminders")
    assert "07:30" not in away_listed  # the same moment, in the zone they are in now
    back = chat.say("חזרתי לארץ" if "ב" in away else "I'm back home")
    assert "Asia/Jerusalem" in back  # the zone of their +972 number
    assert "07:30" in chat.say("show my reminders")


def test_a_question_open_across_a_zone_change_is_answered_in_the_new_zone(chat: Conversation) -> None:
    assert chat.say("remind me to call mom").startswith("When should I remind you?")
    chat.say("my timezone is London")
    assert "10:00" in chat.say("at 10am")
    assert "10:00" in chat.say("show my reminders")  # 10:00 in London, not 10:00 in Jerusalem


def test_a_user_with_a_number_of_no_known_zone_comes_home_to_memos_default(chat: Conversation) -> None:
    chat.user = WhatsAppUser(wa_id="88299887766", name="Ana")  # an international network: no country zone
    chat.say("I'm in Tokyo now")
    assert "UTC" in chat.say("back home")
