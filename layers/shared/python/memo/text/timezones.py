"""The user's timezone: from their phone number's country, or from what they tell Memo.

- `phone_timezone(wa_id)`: the IANA zone of a WhatsApp number (`phonenumbers`' timezone metadata).
  A country with one zone gives it ("972..." -> Asia/Jerusalem); a country with several gives the
  zone the metadata gives for the number's area ("1212..." -> America/New_York, "1415..." ->
  America/Los_Angeles); when it gives several clocks, none: Memo keeps its default.
- `timezone_statement(text)`: the zone a message sets, if it is a statement about where the user is
  or which timezone to use ("my timezone is London", "I'm in New York", "set my timezone to
  Europe/Paris", "אני בניו יורק", "אזור הזמן שלי הוא לונדון"); None for anything else, including
  "I'm in a meeting" (only a place Memo knows is a timezone).
- `timezone_set_reply(zone, language, now)`: the confirmation, with the local time there, in words
  that do not assume the user's gender in Hebrew.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from memo.text.language import Language
from memo.text.matching import normalize

#: Several zones of one country that are one clock (the metadata lists Guernsey with London).
_SAME_CLOCK_PREFERRED = ("Europe/London", "Asia/Jerusalem", "Europe/Berlin", "Europe/Paris", "Asia/Kolkata")


def phone_timezone(wa_id: str | None) -> str | None:
    """The IANA timezone of a WhatsApp id (digits, with or without "+"), or None when unknown."""
    digits = re.sub(r"\D", "", wa_id or "")
    if len(digits) < 6:
        return None
    import phonenumbers
    from phonenumbers import timezone as number_zones

    try:
        number = phonenumbers.parse(f"+{digits}")
    except phonenumbers.NumberParseException:
        return None
    for finder in (number_zones.time_zones_for_number, number_zones.time_zones_for_geographical_number):
        zones = [z for z in finder(number) if z != number_zones.UNKNOWN_TIMEZONE]
        zone = _one_clock(zones)
        if zone is not None:
            return zone
    return None


def _one_clock(zones: list[str]) -> str | None:
    """The zone when the candidates are one clock (one zone, or zones that always agree)."""
    if len(zones) == 1:
        return zones[0]
    preferred = [z for z in _SAME_CLOCK_PREFERRED if z in zones]
    if preferred and len(zones) <= 3:
        return preferred[0]
    return None


# --- places --------------------------------------------------------------------------------------

#: Names people use that are not the city of an IANA zone, in English and Hebrew.
_PLACES: dict[str, str] = {
    "israel": "Asia/Jerusalem",
    "tel aviv": "Asia/Jerusalem",
    "haifa": "Asia/Jerusalem",
    "eilat": "Asia/Jerusalem",
    "ישראל": "Asia/Jerusalem",
    "הארץ": "Asia/Jerusalem",
    "תל אביב": "Asia/Jerusalem",
    "ירושלים": "Asia/Jerusalem",
    "חיפה": "Asia/Jerusalem",
    "אילת": "Asia/Jerusalem",
    "nyc": "America/New_York",
    "new york city": "America/New_York",
    "boston": "America/New_York",
    "washington": "America/New_York",
    "dc": "America/New_York",
    "miami": "America/New_York",
    "atlanta": "America/New_York",
    "philadelphia": "America/New_York",
    "east coast": "America/New_York",
    "eastern time": "America/New_York",
    "eastern": "America/New_York",
    "est": "America/New_York",
    "edt": "America/New_York",
    "ניו יורק": "America/New_York",
    "בוסטון": "America/New_York",
    "מיאמי": "America/New_York",
    "וושינגטון": "America/New_York",
    "chicago": "America/Chicago",
    "dallas": "America/Chicago",
    "houston": "America/Chicago",
    "central time": "America/Chicago",
    "central": "America/Chicago",
    "cst": "America/Chicago",
    "שיקגו": "America/Chicago",
    "denver": "America/Denver",
    "mountain time": "America/Denver",
    "mountain": "America/Denver",
    "la": "America/Los_Angeles",
    "san francisco": "America/Los_Angeles",
    "sf": "America/Los_Angeles",
    "seattle": "America/Los_Angeles",
    "las vegas": "America/Los_Angeles",
    "california": "America/Los_Angeles",
    "west coast": "America/Los_Angeles",
    "pacific time": "America/Los_Angeles",
    "pacific": "America/Los_Angeles",
    "pst": "America/Los_Angeles",
    "pdt": "America/Los_Angeles",
    "לוס אנגלס": "America/Los_Angeles",
    "לוס אנג'לס": "America/Los_Angeles",
    "סן פרנסיסקו": "America/Los_Angeles",
    "uk": "Europe/London",
    "england": "Europe/London",
    "britain": "Europe/London",
    "scotland": "Europe/London",
    "manchester": "Europe/London",
    "gmt": "Europe/London",
    "לונדון": "Europe/London",
    "אנגליה": "Europe/London",
    "ireland": "Europe/Dublin",
    "france": "Europe/Paris",
    "פריז": "Europe/Paris",
    "צרפת": "Europe/Paris",
    "germany": "Europe/Berlin",
    "munich": "Europe/Berlin",
    "ברלין": "Europe/Berlin",
    "גרמניה": "Europe/Berlin",
    "spain": "Europe/Madrid",
    "barcelona": "Europe/Madrid",
    "ברצלונה": "Europe/Madrid",
    "מדריד": "Europe/Madrid",
    "italy": "Europe/Rome",
    "milan": "Europe/Rome",
    "רומא": "Europe/Rome",
    "איטליה": "Europe/Rome",
    "netherlands": "Europe/Amsterdam",
    "holland": "Europe/Amsterdam",
    "אמסטרדם": "Europe/Amsterdam",
    "greece": "Europe/Athens",
    "אתונה": "Europe/Athens",
    "יוון": "Europe/Athens",
    "cyprus": "Asia/Nicosia",
    "קפריסין": "Asia/Nicosia",
    "פראג": "Europe/Prague",
    "וינה": "Europe/Vienna",
    "בודפשט": "Europe/Budapest",
    "ליסבון": "Europe/Lisbon",
    "portugal": "Europe/Lisbon",
    "מוסקבה": "Europe/Moscow",
    "india": "Asia/Kolkata",
    "mumbai": "Asia/Kolkata",
    "delhi": "Asia/Kolkata",
    "new delhi": "Asia/Kolkata",
    "הודו": "Asia/Kolkata",
    "japan": "Asia/Tokyo",
    "טוקיו": "Asia/Tokyo",
    "יפן": "Asia/Tokyo",
    "thailand": "Asia/Bangkok",
    "בנגקוק": "Asia/Bangkok",
    "תאילנד": "Asia/Bangkok",
    "dubai": "Asia/Dubai",
    "דובאי": "Asia/Dubai",
    "sydney": "Australia/Sydney",
    "australia": "Australia/Sydney",
    "סידני": "Australia/Sydney",
    "toronto": "America/Toronto",
    "טורונטו": "America/Toronto",
    "utc": "UTC",
}


@cache
def _zone_cities() -> dict[str, str]:
    """ "new york" -> America/New_York, "london" -> Europe/London, ...: every IANA zone by its city."""
    cities: dict[str, str] = {}
    for zone in sorted(available_timezones()):
        if "/" not in zone or zone.startswith(("Etc/", "SystemV/", "US/")):
            continue
        cities.setdefault(normalize(zone.rsplit("/", 1)[1].replace("_", " ")), zone)
    return cities


def zone_for_place(place: str) -> str | None:
    """The IANA zone a place names ("London", "ניו יורק", "Europe/Paris"), or None."""
    raw = place.strip().strip(" .!?,")
    key = normalize(raw.replace("-", " "))
    if raw in available_timezones() and ("/" in raw or raw.isupper() or key not in _PLACES):
        return raw  # "Europe/Paris", "GMT"; a country's old alias ("Israel") is its city's zone below
    key = re.sub(r"^(?:the\s+)|\s+(?:time|timezone|time\s+zone)$", "", key)
    if key in _PLACES:
        return _PLACES[key]
    if key.startswith(("ב", "ל")) and key[1:] in _PLACES:
        return _PLACES[key[1:]]
    return _zone_cities().get(key)


_STATEMENTS = (
    re.compile(
        r"^(?:(?:please\s+)?(?:set|change|switch|update|put)\s+(?:my|the)\s+time\s*zone\s+(?:back\s+)?to|my\s+time\s*zone\s+is|"
        r"time\s*zone\s*[:=]?|(?:i(?:'m|’m|m|\s+am)|we(?:'re|’re|re|\s+are))\s+(?:now\s+|currently\s+)?"
        r"(?:in|living\s+in|based\s+in|staying\s+in|travell?ing\s+in|visiting)|i\s+live\s+in|"
        r"(?:i|we)(?:'ve|\s+have)?\s+moved\s+to|(?:(?:i|we)(?:'ve|\s+have)?\s+)?(?:just\s+)?(?:landed|arrived)\s+in|"
        r"(?:(?:i(?:'m|’m|m|\s+am)|we(?:'re|’re|re|\s+are))\s+)?(?:now\s+)?back\s+in|"
        r"(?:i(?:'m|’m|m|\s+am)|we(?:'re|’re|re|\s+are))\s+on\s+(?:a\s+)?(?:business\s+)?(?:trip|vacation|holiday)\s+in|"
        r"use\s+the\s+time\s*zone\s+of)\s+(?P<place>.+?)\s*[.!]?$",
        re.I,
    ),
    re.compile(r"^(?:use|switch\s+(?:back\s+)?to|go\s+back\s+to)\s+(?P<place>.+?)\s+time\s*[.!]?$", re.I),
    re.compile(
        r"^(?:(?:אני|אנחנו)\s+(?:נמצא\s+|נמצאת\s+|נמצאים\s+|גר\s+|גרה\s+|עכשיו\s+)?(?=ב)|עברתי\s+(?=ל)|עברנו\s+(?=ל)|"
        r"(?:(?:בדיוק|הרגע)\s+)?(?:נחתתי|נחתנו)\s+(?=ב)|(?:(?:בדיוק|הרגע)\s+)?(?:הגעתי|הגענו)\s+(?=ל)|"
        r"אזור\s+הזמן\s+שלי\s+(?:הוא\s+)?|(?:תשנה|תשני|שנה|תחזיר|תחזירי|החזר)\s+(?:את\s+)?אזור\s+(?:ה)?זמן\s+(?:שלי\s+)?(?=ל))"
        r"(?P<place>.+?)\s*[.!]?$"
    ),
)


#: How long the user is there ("I'm in New York this week", "אני בניו יורק השבוע"): the zone is set
#: all the same (Memo does not switch back by itself: "I'm back home" does).
_HOW_LONG = re.compile(
    r"\s*,?\s+(?:(?:for\s+)?(?:this|the|a|next)\s+(?:week|weekend|month)|for\s+(?:a\s+few|a\s+couple\s+of|\d+|two|three|some)\s+"
    r"(?:days?|weeks?|months?)|for\s+(?:work|now|a\s+while|vacation|holiday)|(?:right\s+)?now|"
    r"until\s+\S+(?:\s+\S+)?|till\s+\S+|on\s+(?:vacation|holiday|business)|השבוע|החודש|עכשיו|"
    r"(?:ל|עד\s+)(?:כמה\s+ימים|סוף\s+השבוע|שבוע|חודש|יום\s+\S+))$",
    re.I,
)

#: "I'm back home", "חזרתי לארץ": the zone of the user's own phone number (`HOME`).
HOME = "home"
_HOME_STATEMENTS = re.compile(
    r"^(?:(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:back\s+)?home|"
    r"back\s+home|(?:i|we)(?:'ve|\s+have)?\s+(?:got|gotten|come|came)\s+(?:back\s+)?home|"
    r"(?:חזרתי|חזרנו)\s+(?:לארץ|הביתה|לישראל|מחו\"?ל)|(?:(?:בדיוק|הרגע)\s+)?(?:נחתתי|נחתנו)\s+(?:בארץ|בישראל)|"
    r"(?:(?:בדיוק|הרגע)\s+)?(?:הגעתי|הגענו)\s+(?:לארץ|הביתה)|אני\s+(?:שוב\s+)?(?:בארץ|בבית)|אני\s+בחזרה\s+(?:בארץ|בבית))"
    r"(?:\s+(?:now|again|עכשיו))?$",
    re.I,
)


def zone_place(zone: str, language: Language) -> str:
    """How a reply names a zone's place: "New York", "Israel", "ניו יורק", "ישראל" (the zone's own
    city when Memo knows no name for it in the language)."""
    if language == "he":
        hebrew = next((p for p, z in _PLACES.items() if z == zone and not p.isascii()), None)
        if hebrew is not None:
            return hebrew
    if zone == "Asia/Jerusalem":
        return "Israel"
    return zone.rsplit("/", 1)[-1].replace("_", " ")


def timezone_statement(text: str) -> str | None:
    """The zone a message sets ("my timezone is London" -> Europe/London, "I'm in New York this week"
    -> America/New_York), `HOME` for a return home ("I'm back home", "חזרתי לארץ": the zone of the
    user's number), or None."""
    cleaned = " ".join(text.split()).strip(" .!")
    if _HOME_STATEMENTS.match(cleaned):
        return HOME
    for candidate in dict.fromkeys((cleaned, _HOW_LONG.sub("", cleaned))):
        for pattern in _STATEMENTS:
            match = pattern.match(candidate)
            if match:
                zone = zone_for_place(match.group("place"))
                if zone is not None:
                    return zone
    return None


def timezone_set_line(zone: str, language: Language, now: datetime) -> str:
    """The confirmation's first line: the zone and the time it is there now."""
    local = now.astimezone(ZoneInfo(zone))
    if language == "he":
        return f"עודכן 👍 מעכשיו הזמנים לפי אזור הזמן {zone}. השעה שם עכשיו {local:%H:%M}."
    return f"Done 👍 From now on times are in {zone}. It's {local:%H:%M} there now."


def one_time_kept(zone: str, language: Language) -> str:
    """What becomes of the one-time reminders set: they keep their moment."""
    if language == "he":
        return f"תזכורות חד־פעמיות שכבר קבעת יגיעו באותו רגע שנקבע, ומעכשיו יוצגו לפי השעה ב-{zone}."
    return f"One-time reminders you already set still go off at the moment they were set for, shown in {zone} time."


def timezone_set_reply(zone: str, language: Language, now: datetime) -> str:
    """The confirmation: the zone, the time it is there now, and what becomes of reminders set."""
    if language == "he":
        kept = f"תזכורות שכבר קבעת יגיעו באותו רגע שנקבע, ומעכשיו יוצגו לפי השעה ב-{zone}."
    else:
        kept = (
            f"Reminders you already set still go off at the moment they were set for, shown in {zone} time."
        )
    return f"{timezone_set_line(zone, language, now)}\n{kept}"
