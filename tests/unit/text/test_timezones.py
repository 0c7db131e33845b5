"""The user's timezone: from the phone number's country, or from what the user says."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.text.timezones import (
    HOME,
    phone_timezone,
    timezone_set_reply,
    timezone_statement,
    zone_for_place,
    zone_place,
)


@pytest.mark.parametrize(
    ("wa_id", "zone"),
    [
        ("972501234567", "Asia/Jerusalem"),
        ("+972 3 612 3456", "Asia/Jerusalem"),
        ("447700900123", "Europe/London"),
        ("12125550100", "America/New_York"),
        ("14155550100", "America/Los_Angeles"),
        ("4915112345678", "Europe/Berlin"),
        ("33612345678", "Europe/Paris"),
    ],
)
def test_a_phone_number_gives_its_countrys_timezone(wa_id: str, zone: str) -> None:
    assert phone_timezone(wa_id) == zone


@pytest.mark.parametrize("wa_id", [None, "", "123", "not a number", "99999999999"])
def test_no_timezone_for_what_is_not_a_known_number(wa_id: str | None) -> None:
    assert phone_timezone(wa_id) is None


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("my timezone is London", "Europe/London"),
        ("My time zone is Europe/London", "Europe/London"),
        ("I'm in New York", "America/New_York"),
        ("i am now in tokyo", "Asia/Tokyo"),
        ("set my timezone to Paris", "Europe/Paris"),
        ("I moved to Berlin.", "Europe/Berlin"),
        ("use pacific time", "America/Los_Angeles"),
        ("i live in tel aviv", "Asia/Jerusalem"),
        ("אני בניו יורק", "America/New_York"),
        ("אני נמצאת בלונדון", "Europe/London"),
        ("אזור הזמן שלי הוא לונדון", "Europe/London"),
        ("עברתי לברלין", "Europe/Berlin"),
    ],
)
def test_a_statement_sets_the_timezone(text: str, zone: str) -> None:
    assert timezone_statement(text) == zone


PLACES = {
    "new york": "America/New_York",
    "London": "Europe/London",
    "paris": "Europe/Paris",
    "ניו יורק": "America/New_York",
}
HOW_LONG = [
    "",
    " this week",
    " for a few days",
    " now",
    " until sunday",
    " for work",
    " next week",
    " for 3 days",
    " for a couple of days",
]


@pytest.mark.parametrize("how_long", HOW_LONG)
@pytest.mark.parametrize(
    "said",
    [
        "im in {p}",
        "I'm in {p}",
        "i am currently in {p}",
        "we're in {p}",
        "I just landed in {p}",
        "i'm staying in {p}",
        "just landed in {p}",
        "landed in {p}",
        "we've arrived in {p}",
        "I'm on a business trip in {p}",
        "back in {p}",
    ],
)
@pytest.mark.parametrize("place", ["new york", "London", "paris"])
def test_a_traveller_says_where_they_are_and_for_how_long(said: str, place: str, how_long: str) -> None:
    assert timezone_statement(said.format(p=place) + how_long) == PLACES[place]


@pytest.mark.parametrize("how_long", ["", " השבוע", " לכמה ימים", " עכשיו", " עד סוף השבוע"])
@pytest.mark.parametrize(
    ("said", "zone"),
    [
        ("אני בניו יורק", "America/New_York"),
        ("אני בלונדון", "Europe/London"),
        ("אנחנו בפריז", "Europe/Paris"),
        ("נחתתי בניו יורק", "America/New_York"),
        ("הרגע נחתנו בלונדון", "Europe/London"),
        ("הגעתי ללונדון", "Europe/London"),
        ("בדיוק הגענו לברלין", "Europe/Berlin"),
    ],
)
def test_a_traveller_says_it_in_hebrew(said: str, zone: str, how_long: str) -> None:
    assert timezone_statement(said + how_long) == zone


@pytest.mark.parametrize(
    "text",
    [
        "I'm back home",
        "back home!",
        "we're back home",
        "I'm home now",
        "חזרתי לארץ",
        "חזרנו הביתה",
        "אני שוב בארץ",
        "נחתתי בארץ",
        "הרגע נחתנו בישראל",
        "הגעתי הביתה",
    ],
)
def test_coming_back_home_is_the_numbers_zone(text: str) -> None:
    assert timezone_statement(text) == HOME


@pytest.mark.parametrize(
    "text",
    [
        "I'm in a meeting this week",
        "im in the car now",
        "I'm back",
        "im back from the gym",
        "I'm in a hurry for work",
        "home",
        "flying to London",
        "I'm flying to New York tomorrow",
        "back in a minute",
        "landed",
        "I'm on a call in London",
        "אני טס ללונדון",
        "נחתתי",
        "הגעתי",
    ],
)
def test_what_is_not_a_place_or_a_return_is_no_statement(text: str) -> None:
    assert timezone_statement(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "I'm in a meeting",
        "אני בפגישה",
        "I am in the car",
        "remind me to call London at 5",
        "my timezone is Narnia",
    ],
)
def test_anything_else_is_no_timezone_statement(text: str) -> None:
    assert timezone_statement(text) is None


def test_places_and_zone_names() -> None:
    assert zone_for_place("Europe/Madrid") == "Europe/Madrid"
    assert zone_for_place("los angeles") == "America/Los_Angeles"
    assert zone_for_place("Sao Paulo") == "America/Sao_Paulo"
    assert zone_for_place("Gotham") is None


def test_the_confirmation_names_the_zone_and_the_time_there() -> None:
    now = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
    assert timezone_set_reply("Europe/London", "en", now) == (
        "Done 👍 From now on times are in Europe/London. It's 10:00 there now.\n"
        "Reminders you already set still go off at the moment they were set for, shown in Europe/London time."
    )
    assert "Europe/London" in timezone_set_reply("Europe/London", "he", now)
    assert "10:00" in timezone_set_reply("Europe/London", "he", now)


@pytest.mark.parametrize(
    ("zone", "language", "place"),
    [
        ("America/New_York", "en", "New York"),
        ("Asia/Jerusalem", "en", "Israel"),
        ("America/New_York", "he", "ניו יורק"),
        ("Asia/Jerusalem", "he", "ישראל"),
        ("America/Sao_Paulo", "he", "Sao Paulo"),
    ],
)
def test_a_zone_is_named_by_its_place(zone: str, language: str, place: str) -> None:
    assert zone_place(zone, language) == place  # type: ignore[arg-type]


@given(
    verb=st.sampled_from(["set", "change", "switch", "update", "put"]),
    whose=st.sampled_from(["my", "the"]),
    spelled=st.sampled_from(["timezone", "time zone"]),
    back=st.booleans(),
    place=st.sampled_from(
        [("Israel", "Asia/Jerusalem"), ("London", "Europe/London"), ("Europe/Paris", "Europe/Paris")]
    ),
)
def test_setting_the_timezone_back_or_by_its_old_name(
    verb: str, whose: str, spelled: str, back: bool, place: tuple[str, str]
) -> None:
    # "change my timezone back to Israel" was not understood, and "my timezone is Israel" set the
    # zone "Israel" (tzdata's old alias) rather than Asia/Jerusalem.
    said = f"{verb} {whose} {spelled} {'back ' if back else ''}to {place[0]}"
    assert timezone_statement(said) == place[1]


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("my timezone is Israel", "Asia/Jerusalem"),
        ("my timezone is GMT", "GMT"),
        ("my timezone is UTC", "UTC"),
        ("switch back to Israel time", "Asia/Jerusalem"),
        ("תחזיר את אזור הזמן לישראל", "Asia/Jerusalem"),
    ],
)
def test_a_country_is_its_citys_zone_and_an_abbreviation_is_itself(text: str, zone: str) -> None:
    assert timezone_statement(text) == zone
