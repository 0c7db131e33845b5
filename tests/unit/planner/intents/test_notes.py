"""Note commands: save, search, recall, change and delete."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memo.planner.intents import notes
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import pin


def test_save_a_note() -> None:
    found = notes.save("save a note: wifi password is sunshine42", pin("x"))
    assert found is not None and (found.capability, found.action) == ("notes", "save")


def test_search_the_notes() -> None:
    found = notes.search("search my notes for wifi", pin("x"))
    assert found is not None and found.action == "search"


def test_delete_a_note_by_name() -> None:
    found = notes.delete_named("delete the wifi note", pin("x"))
    assert found is not None and found.action == "delete" and found.risk == "high"


@pytest.mark.parametrize(
    ("message", "text"),
    [
        ("תכתוב בפתקים שהקוד של הבניין הוא 55", "הקוד של הבניין הוא 55"),
        ("תרשום לי בהערות: החניה בקומה 3", "החניה בקומה 3"),
        ("write in my notes that the locker code is 881", "the locker code is 881"),
        ("add to my notes: dana's shoe size is 38", "dana's shoe size is 38"),
    ],
)
def test_save_into_the_notes(message: str, text: str) -> None:
    found = notes.save(message, pin(message))
    assert found is not None and (found.action, found.changes, found.missing) == ("save", {"text": text}, ())


@pytest.mark.parametrize(
    ("message", "query"),
    [
        ("do I have anything saved about the car", "car"),
        ("did I note anything on the lease?", "lease"),
        ("is there anything written down about noa", "noa"),
        ("anything saved on my passport?", "passport"),
        ("יש לי משהו שמור על האוטו?", "האוטו"),
        ("רשמתי משהו לגבי השכירות?", "השכירות"),
    ],
)
def test_asked_whether_anything_is_saved_about_something(message: str, query: str) -> None:
    found = notes.search(message, pin(message))
    assert found is not None and (found.action, found.constraints) == ("search", {"query": query})


def test_something_about_a_thing_with_no_saving_word_is_no_search() -> None:
    assert notes.search("something about my shopping", pin("x")) is None


@pytest.mark.parametrize(
    ("message", "query"),
    [
        ("תראה לי את הפתקים שלי", ""),  # "שלי" is no query ("של" + "י")
        ("תחפש בפתקים את המורה", "המורה"),
        ("איפה החנתי את האוטו", "האוטו"),  # spelled without the yod
        ("איפה החנתי?", "חנייה"),  # the parking itself: the verb's forms and the noun's
        ("מה מספר הלקוח בחברת החשמל?", "מספר הלקוח בחברת החשמל"),  # a noun in the construct state
        ("מה שם הרופא של נועה?", "שם הרופא של נועה"),
    ],
)
def test_hebrew_searches_in_ordinary_words(message: str, query: str) -> None:
    found = (
        notes.search(message, pin(message))
        or notes.where(message, pin(message))
        or notes.recall(message, pin(message))
    )
    assert found is not None and found.action == "search" and found.constraints == {"query": query}


def test_a_hebrew_note_said_after_a_colon() -> None:
    found = notes.save("תרשום: הגננת של נועה - מירב 054-1239876", pin("x"))
    assert found is not None and found.changes == {"text": "הגננת של נועה - מירב 054-1239876"}


def test_a_colon_ends_the_name_of_the_note_to_change() -> None:
    found = notes.change("תשנה את הפתק על המורה לפסנתר: קוראים לה רינה", pin("x"))
    assert found is not None and found.changes == {"text": "קוראים לה רינה"}
    assert found.constraints["target"] == "המורה לפסנתר"


@pytest.mark.parametrize(
    ("asked", "query"),
    [
        ("when is mom's birthday?", "mom's birthday"),
        ("when's dad's flight", "dad's flight"),
        ("when was Noa's recital?", "Noa's recital"),
        ("מתי יום ההולדת של אמא?", "יום ההולדת של אמא"),
        ("מתי הטיסה של אבא", "הטיסה של אבא"),
    ],
)
def test_when_is_someones_thing_is_a_question_about_the_notes(asked: str, query: str) -> None:
    found = notes.recall(asked, pin(asked))
    assert found is not None and (found.action, found.constraints) == ("search", {"query": query})


@pytest.mark.parametrize("asked", ["when is the dentist reminder?", "when is it?", "מתי זה?"])
def test_when_about_a_reminder_or_it_is_no_question_about_the_notes(asked: str) -> None:
    assert notes.recall(asked, pin(asked)) is None


@pytest.mark.parametrize(
    ("said", "text"),
    [
        ("jot down that the gate code is 4321", "the gate code is 4321"),
        ("write down that mom called", "mom called"),
        ("jot down: that movie was great", "that movie was great"),  # after a colon, "that" is said
    ],
)
def test_write_down_that_keeps_what_follows(said: str, text: str) -> None:
    (step,) = RulePlanner().plan(pin(said)).output.plan
    assert (step.capability, step.action, step.changes) == ("notes", "save", {"text": text})


_CODES = ["Blue2024", "4821#", "p@ss", "1234", "Zz9"]
_MARKS = ["!", "!!", "#!", "*", "$"]
_SAVES = [
    "note: the wifi password is {}",
    "remember that the safe code is {}",
    "remember the gate code is {}",
    "save a note: locker {}",
    "תרשום שהסיסמה של הוויפי היא {}",
    "פתק: הקוד של השער {}",
]


@pytest.mark.parametrize("phrasing", _SAVES)
def test_a_code_keeps_the_marks_written_after_it(phrasing: str) -> None:
    # "note: wifi password is Blue2024!" saved "Blue2024": another password.
    for code in _CODES:
        for marks in _MARKS:
            said = phrasing.format(code + marks)
            found = RulePlanner().plan(pin(said)).output.plan
            assert len(found) == 1 and found[0].action == "save", said
            assert str(found[0].changes["text"]).endswith(code + marks), said
        # A sentence's own full stop or question mark is not part of it.
        for end in (".", "?", " !"):
            said = phrasing.format(code) + end
            text = str(RulePlanner().plan(pin(said)).output.plan[0].changes["text"])
            assert text.endswith(code), said


@pytest.mark.parametrize("said", ["note: call the plumber!!", "remember that the party is great!"])
def test_a_plain_word_loses_its_exclamation(said: str) -> None:
    text = str(RulePlanner().plan(pin(said)).output.plan[0].changes["text"])
    assert not text.endswith("!")


@pytest.mark.parametrize(
    ("said", "action"),
    [
        ("remember the gate code is 1234", "save"),
        ("remember my flight is on friday at 6", "save"),
        ("please remember our door code is 55", "save"),
        ("remember the gate code?", "search"),
        ("do you remember the gate code?", "search"),
        ("remember the gate code is what?", "search"),
    ],
)
def test_remember_a_fact_saves_it_and_remember_a_thing_asks_for_it(said: str, action: str) -> None:
    # "remember the gate code is 1234" searched the notes for “gate code is 1234”.
    (step,) = RulePlanner().plan(pin(said)).output.plan
    assert (step.capability, step.action) == ("notes", action)


_TYPED_WORDS = st.sampled_from(
    [
        "my",
        "keys",
        "r",
        "in",
        "the",
        "car",
        "u",
        "ur",
        "b4",
        "2nite",
        "tmrw",
        "min",
        "hrs",
        "appt",
        "B4",
        "gate",
        "Blue2024",
        "wifi",
        "is",
        "54",
        "level",
        "kids",
        "pick",
        "up",
        "shoping",
        "lisst",
        "remindr",
        "40",
        "bake",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(_TYPED_WORDS, min_size=1, max_size=9),
    lead=st.sampled_from(["note: ", "save a note: ", "note to self: "]),
)
def test_a_note_keeps_the_words_as_typed(words: list[str], lead: str) -> None:
    # "note: bake 40 min" saved "bake 40 minutes", "my keys r in the car" saved "are": the planner's
    # reading of chat spellings and keyword typos was written into the person's own words.
    body = " ".join(words)
    (step,) = RulePlanner().plan(pin(lead + body + ", thx")).output.plan
    assert (step.action, step.changes) == ("save", {"text": body})


@pytest.mark.parametrize("verb", ["תרשום", "תרשמי", "רשום", "תשמור", "שמור", "תזכור", "תכתוב"])
@pytest.mark.parametrize("lead", [" לי: ", " לי:", ": ", " לי ש", " ש"])
@pytest.mark.parametrize("body", ["מספר הפוליסה 88213", "הקוד של השער 4821"])
def test_a_hebrew_note_said_to_me_with_a_colon_is_saved(verb: str, lead: str, body: str) -> None:
    # "תרשום לי: מספר הפוליסה 88213" was not understood.
    said = f"{verb}{lead}{body}"
    (step,) = RulePlanner().plan(pin(said)).output.plan
    assert (step.capability, step.action, step.changes) == ("notes", "save", {"text": body}), said
