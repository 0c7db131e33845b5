"""Times that name a thing stay in the title when the message says the reminder's own time: "prepare
for the 5pm meeting at 3pm" is at 15:00, titled "prepare for the 5pm meeting". Generated over clock
times, determiners, nouns and the order of the parts."""

from __future__ import annotations

from datetime import datetime

from hypothesis import given
from hypothesis import strategies as st

from memo.planner.rules import RulePlanner
from memo.planner.timeparse import extract_when
from memo.planner.when.attributive import held, restored
from tests.unit.planner.conftest import NOW, TZ, pin

PLANNER = RulePlanner()
_HOURS = st.integers(1, 12)
_MINUTES = st.sampled_from([0, 5, 15, 30, 45, 50])
_NOUNS = st.sampled_from(["meeting", "train", "show", "class", "flight", "call", "appointment"])
_DETERMINERS = st.sampled_from(["the", "my", "our", "his", "her", "their"])


def _clock(hour: int, minute: int, half: str, form: int) -> str:
    """ "5pm", "5:30pm", "5:30 PM", "17:30" (form 3: the 24-hour clock)."""
    if form == 3:
        return f"{hour % 12 + (12 if half == 'pm' else 0):02d}:{minute:02d}"
    if minute == 0 and form == 0:
        return f"{hour}{half}"
    return f"{hour}:{minute:02d}{' ' + half.upper() if form == 2 else half}"


@given(
    thing=st.tuples(_HOURS, _MINUTES, st.sampled_from(["am", "pm"]), st.integers(0, 3)),
    own=st.tuples(_HOURS, _MINUTES, st.integers(0, 2)),
    determiner=_DETERMINERS,
    noun=_NOUNS,
    first=st.booleans(),
)
def test_the_time_of_a_thing_stays_in_the_title(
    thing: tuple[int, int, str, int],
    own: tuple[int, int, int],
    determiner: str,
    noun: str,
    first: bool,
) -> None:
    named = _clock(*thing)
    at = _clock(own[0], own[1], "pm", own[2])  # the reminder's own time: an afternoon, still to come
    task = f"prepare for {determiner} {named} {noun}"
    message = f"remind me at {at} to {task}" if first else f"remind me to {task} at {at}"
    steps = PLANNER.plan(pin(message)).output.plan
    assert len(steps) == 1 and steps[0].constraints["title"] == task
    when = datetime.fromisoformat(str(steps[0].constraints["when"]))
    assert (when.hour, when.minute) == (own[0] % 12 + 12, own[1])


@given(
    thing=st.sampled_from(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]),
    own=st.sampled_from(["tomorrow", "on friday", "on monday", "next week on tuesday"]),
    noun=_NOUNS,
)
def test_the_day_of_a_thing_stays_in_the_title(thing: str, own: str, noun: str) -> None:
    task = f"confirm the {thing} {noun}"
    parsed = extract_when(f"{task} {own} at 10am", now=NOW, timezone=TZ, language="en")
    alone = extract_when(f"something {own} at 10am", now=NOW, timezone=TZ, language="en")
    assert parsed.remainder == task and parsed.when == alone.when is not None


def test_alone_the_time_of_a_thing_is_the_time_meant() -> None:
    # "15 minutes before my 3pm meeting": no other time said, so 3pm is what it is about.
    parsed = extract_when("15 minutes before my 3pm meeting", now=NOW, timezone=TZ, language="en")
    assert parsed.when is not None and (parsed.when.hour, parsed.when.minute) == (14, 45)
    alone = extract_when("take the 7:30 bus", now=NOW, timezone=TZ, language="en")
    assert alone.when is not None and alone.remainder == "take the bus"


def test_words_of_the_reminder_s_own_time_are_never_held() -> None:
    for text in (
        "call mom this friday at 5",  # "this friday" is a day of the reminder
        "the friday after next",
        "on the 5pm tomorrow",
        "this monday morning",
        "call the bank at 5pm",
    ):
        assert held(text) == (text, []), text


@given(st.text(alphabet=st.sampled_from(list("the my 5pm 8:15 monday train at noon ,.")), max_size=60))
def test_what_is_held_comes_back_as_it_was(text: str) -> None:
    hidden, words = held(text)
    assert len(hidden) == len(text)
    assert restored(hidden, words) == text


_OWNERS = st.sampled_from(
    [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "tomorrow",
        "today",
        "tonight",
    ]
)


@given(
    owner=_OWNERS,
    mark=st.sampled_from(["'", "’"]),
    own=st.sampled_from(["tomorrow", "on friday", "on monday"]),
    noun=_NOUNS,
)
def test_a_day_said_as_an_owner_stays_in_the_title_when_the_rest_says_a_day(
    owner: str, mark: str, own: str, noun: str
) -> None:
    # "prepare for friday's exam on thursday at 6pm" is on Thursday, titled with Friday's exam.
    task = f"prepare for {owner}{mark}s {noun}"
    parsed = extract_when(f"{task} {own} at 6pm", now=NOW, timezone=TZ, language="en")
    alone = extract_when(f"something {own} at 6pm", now=NOW, timezone=TZ, language="en")
    assert parsed.remainder == task and parsed.when == alone.when is not None


@given(owner=_OWNERS, mark=st.sampled_from(["'", "’"]), noun=_NOUNS)
def test_alone_a_day_said_as_an_owner_is_the_day(owner: str, mark: str, noun: str) -> None:
    # "move tomorrow's vitamins to 11pm": the day, and no "'s" is left in what names the reminder.
    parsed = extract_when(f"{owner}{mark}s {noun} at 11pm", now=NOW, timezone=TZ, language="en")
    alone = extract_when(f"{owner} at 11pm", now=NOW, timezone=TZ, language="en")
    assert parsed.remainder == noun and parsed.when == alone.when is not None
    step = PLANNER.plan(pin(f"move {owner}{mark}s {noun} to 11pm")).output.plan[0]
    assert step.constraints["target"] == noun
