"""Narrowing: the answer to an approval that keeps only some of the items it lists ("only 1 and 3",
"not dad", "yes delete mom"), in English and Hebrew (docs/hitl-answers.md)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.domain import DisambiguationCandidate
from memo.hitl import narrowing
from tests.unit.hitl.conftest import NOW, TZ

TOMORROW = (NOW + timedelta(days=1)).date().isoformat()
FRIDAY = (NOW + timedelta(days=2)).date().isoformat()

SHOWN = [
    DisambiguationCandidate(id="r1", label="call mom", data={"day": TOMORROW}),
    DisambiguationCandidate(id="r2", label="call dad", data={"day": TOMORROW}),
    DisambiguationCandidate(id="r3", label="pay the bank", data={"day": FRIDAY}),
]
HE_SHOWN = [
    DisambiguationCandidate(id="r1", label="להתקשר לאמא", data={"day": TOMORROW}),
    DisambiguationCandidate(id="r2", label="להתקשר לאבא", data={"day": FRIDAY}),
]


def parse(text: str, shown: list[DisambiguationCandidate] = SHOWN, language: str = "en"):
    return narrowing.parse(text, shown, now=NOW, timezone=TZ, language=language)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("1 3", ("r1", "r3")),
        ("only 2", ("r2",)),
        ("just 1 and 3", ("r1", "r3")),
        ("1-2", ("r1", "r2")),
        ("only tomorrow's", ("r1", "r2")),
        ("yes but only the ones for tomorrow", ("r1", "r2")),
        ("not the one for dad", ("r1", "r3")),
        ("not dad", ("r1", "r3")),
        ("all but 2", ("r1", "r3")),
        ("everything but dad", ("r1", "r3")),
        ("except 2", ("r1", "r3")),
        ("yes, except the bank", ("r1", "r2")),
        ("without the bank", ("r1", "r2")),
        ("only call mom", ("r1",)),
        ("keep 1", ("r2", "r3")),
        # By place in the shown list, and several named by their words.
        ("ok just the first one", ("r1",)),
        ("yes but not the last one", ("r1", "r2")),
        ("only the first and the third", ("r1", "r3")),
        ("only mom and the bank", ("r1", "r3")),
        ("yes except dad and the bank", ("r1",)),
        # A second thought that keeps one.
        ("actually don't delete dad", ("r1", "r3")),
        ("wait, do not remove the bank", ("r1", "r2")),
    ],
)
def test_a_narrowing_keeps_a_subset_in_shown_order(text: str, kept: tuple[str, ...]) -> None:
    result = parse(text)
    assert result is not None and not result.unresolved
    assert result.ids == kept


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("כן אבל רק של מחר", ("r1",)),
        ("רק 2", ("r2",)),
        ("חוץ מ-2", ("r1",)),
        ("בלי אבא", ("r1",)),
        ("לא את של אבא", ("r1",)),
        ("רק את אמא", ("r1",)),
        ("כן רק הראשונה", ("r1",)),
        ("חוץ מהאחרונה", ("r1",)),
        ("בעצם אל תמחק את אבא", ("r1",)),
    ],
)
def test_hebrew_narrowing(text: str, kept: tuple[str, ...]) -> None:
    result = parse(text, HE_SHOWN, "he")
    assert result is not None and result.ids == kept


@pytest.mark.parametrize("text", ["yes", "no", "ok", "כן", "cancel", "yes please", "go ahead", "call mom"])
def test_plain_answers_are_not_narrowings(text: str) -> None:
    assert parse(text) is None


def removal(text: str, shown: list[DisambiguationCandidate] = SHOWN):
    return narrowing.parse(text, shown, now=NOW, timezone=TZ, language="en", removal=True)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # A yes that names items keeps those, and only those (it approved all three).
        ("yes delete mom and dad", ("r1", "r2")),
        ("ok delete the first two", ("r1", "r2")),
        ("yes the last two", ("r2", "r3")),
        ("yes mom", ("r1",)),
        ("delete dad", ("r2",)),
        # The action said again before the limit, and a second thought after the yes.
        ("delete them except for the one about the bank", ("r1", "r2")),
        ("yes but wait, keep dad", ("r1", "r3")),
        # Every one shown, said with the action: all of them, as shown.
        ("delete all of them", ("r1", "r2", "r3")),
        ("yes delete them", ("r1", "r2", "r3")),
        # "just" / "only" before the action said again (it was "I couldn't tell which of them").
        ("just delete dad", ("r2",)),
        ("actually just delete dad", ("r2",)),
        ("only remove mom and the bank", ("r1", "r3")),
        ("just delete 2", ("r2",)),
        # "only keep X": X stays, the others go.
        ("only keep dad", ("r1", "r3")),
        ("just keep mom and the bank", ("r2",)),
    ],
)
def test_a_removal_answer_that_names_items_keeps_those(text: str, kept: tuple[str, ...]) -> None:
    result = removal(text)
    assert result is not None and result.ids == kept


def test_a_removal_answer_naming_nothing_shown_is_unresolved() -> None:
    # "delete the blue ones": it names what to delete, and nothing shown is that.
    result = removal("yes delete the blue ones")
    assert result is not None and result.unresolved


def test_the_action_words_narrow_only_a_removal() -> None:
    # Approving a change of several, "delete dad" is no answer to it (the interpreter's, then asked).
    assert parse("delete dad") is None


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("כן תמחק את אמא ואת אבא", ("r1", "r2")),
        ("תמחק את כולם", ("r1", "r2")),
        ("תמחק את שתי הראשונות", ("r1", "r2")),
        ("רק תמחק את אבא", ("r2",)),
        ("רק תשאיר את אבא", ("r1",)),
    ],
)
def test_hebrew_removal_answers(text: str, kept: tuple[str, ...]) -> None:
    result = narrowing.parse(text, HE_SHOWN, now=NOW, timezone=TZ, language="he", removal=True)
    assert result is not None and result.ids == kept


@pytest.mark.parametrize(
    "text",
    [
        "yes but only X",
        "yes but only the purple ones",
        "only 7",
        "not the moon",
        "only the fifth",  # three were shown
        "only mom and the moon",  # one part names nothing: none is taken
    ],
)
def test_a_narrowing_that_picks_nothing_is_unresolved(text: str) -> None:
    result = parse(text)
    assert result is not None and result.unresolved and not result.ids


def test_excluding_everything_is_empty() -> None:
    result = parse("not 1 2 3")
    assert result is not None and result.empty


@pytest.mark.parametrize("spare", ["don't delete", "do not delete", "keep", "except", "not"])
@pytest.mark.parametrize("every", ["all", "all of them", "any", "any of them", "none of them", "them all"])
def test_sparing_every_one_in_any_words_is_empty(spare: str, every: str) -> None:
    # "don't delete any" was "I couldn't tell which of them you mean".
    result = removal(f"{spare} {every}")
    assert result is not None and result.empty, f"{spare} {every}"


@pytest.mark.parametrize("text", ["delete any of them", "delete any", "yes any"])
def test_any_never_names_what_an_approval_acts_on(text: str) -> None:
    result = removal(text)
    assert result is None or not result.ids, text


@pytest.mark.parametrize(
    ("text", "limited"),
    [
        ("yes but only X", True),
        ("yes, not that one", True),
        ("כן אבל", True),
        ("yes", False),
        ("ok go ahead", False),
    ],
)
def test_has_qualifier(text: str, limited: bool) -> None:
    assert narrowing.has_qualifier(text) is limited


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # The whole words matched "call mom" alone, and the bank was deleted though it was named.
        ("except call mom and the bank", ("r2",)),
        ("yes but not call mom and the bank", ("r2",)),
        # Commas part names as "and" does ("normalize" drops them).
        ("except mom, the bank", ("r2",)),
        ("yes, mom, dad", ("r1", "r2")),
        # A comma after the lead-in is not between names.
        ("yes, but not the bank", ("r1", "r2")),
        ("ok, delete dad", ("r2",)),
    ],
)
def test_every_named_part_counts(text: str, kept: tuple[str, ...]) -> None:
    result = removal(text)
    assert result is not None and result.ids == kept


def test_one_title_that_says_every_part_is_that_item() -> None:
    shown = [*SHOWN, DisambiguationCandidate(id="r4", label="salt and pepper")]
    result = removal("except salt and pepper", shown)
    assert result is not None and result.ids == ("r1", "r2", "r3")


_SPARE_ALL = st.sampled_from(
    ["keep all", "keep them all", "keep everything", "not all", "leave them", "leave them all",
     "keep all of them", "except all", "תשאיר את כולם", "תשאיר הכל", "בלי כולם", "חוץ מכולם"]
)  # fmt: skip
_LABEL = st.sampled_from(["call", "all", "mall", "call mom", "them", "everything", "הכל", "כולם", "kall"])


@given(_SPARE_ALL, st.lists(_LABEL, min_size=1, max_size=4), st.booleans())
def test_keeping_all_never_names_an_item_whose_title_has_all_in_it(
    said: str, labels: list[str], removal: bool
) -> None:
    # "keep all" to "delete all your reminders (3)" deleted “buy bread”: "all" matched “call mom”
    # and “call dad”, and the rest was kept for deletion.
    shown = [DisambiguationCandidate(id=f"r{i}", label=label) for i, label in enumerate(labels)]
    narrowed = narrowing.parse(said, shown, now=NOW, timezone=TZ, language="en", removal=removal)
    assert narrowed is None or narrowed.ids == ()


@pytest.mark.parametrize(
    ("said", "limits"),
    [
        ("only 1", True),
        ("just mom", True),
        ("not the bread", True),
        ("keep the bread", True),
        ("except 2", True),
        ("רק של מחר", True),
        ("בלי הלחם", True),
        ("cancel it", False),
        ("I still need them", False),
        ("ok", False),
        ("not now", False),
        ("", False),
    ],
)
def test_words_that_open_with_a_limit(said: str, limits: bool) -> None:
    # read after a "no": "no, only 1" keeps item 1; "no, cancel it" is a no
    assert narrowing.starts_with_a_limit(said) is limits


def test_a_time_of_day_is_not_taken_for_its_day() -> None:
    # "only the ones at 5pm" kept every item of the day 5pm fell on (a 6pm one, not the 5pm one)
    at_five = narrowing.parse(
        "only the ones tomorrow at 5pm", SHOWN, now=NOW, timezone=TZ, language="en", removal=True
    )
    assert at_five is not None and at_five.unresolved
    tomorrow = narrowing.parse("only tomorrow's", SHOWN, now=NOW, timezone=TZ, language="en", removal=True)
    assert tomorrow == narrowing.Narrowing(ids=("r1", "r2"))


@pytest.mark.parametrize("said", ["delete all but 3", "remove all but 3", "delete everything but 3"])
def test_the_action_said_again_with_all_but(said: str) -> None:
    # "delete all but 1" was a new request to delete all, asked again from the start
    narrowed = narrowing.parse(said, SHOWN, now=NOW, timezone=TZ, language="en", removal=True)
    assert narrowed == narrowing.Narrowing(ids=("r1", "r2"))


@pytest.mark.parametrize(
    ("said", "days_ahead"),
    [("tomorrow", 1), ("for tomorrow", 1), ("tomorrow's", 1), ("today", 0), ("של מחר", 1), ("the 5pm ones", None),
     ("tomorrow at 5pm", None), ("tomorrow and the bank", None), ("the bank", None)],
)  # fmt: skip
def test_the_day_words_name(said: str, days_ahead: int | None) -> None:
    day = narrowing.day_named(said, now=NOW, timezone=TZ, language="he" if said[0] > "\u0590" else "en")
    assert day == (None if days_ahead is None else (NOW + timedelta(days=days_ahead)).date())


_THING = st.sampled_from(["milk", "bread", "eggs", "rice", "tea", "חלב", "לחם", "ביצים"])
_KIND = st.sampled_from(["almond", "rye", "green", "brown", "iced", "סויה", "שיפון", "ירוק"])


@given(_THING, _KIND, st.sampled_from(["only", "just", "only the"]))
def test_only_a_title_keeps_that_title_not_the_ones_holding_it(thing: str, kind: str, only: str) -> None:
    # "just the almond milk" to "clear your shopping list: milk, ..., almond milk" removed the milk too
    shown = [
        DisambiguationCandidate(id="plain", label=thing),
        DisambiguationCandidate(id="other", label="coffee"),
        DisambiguationCandidate(id="kind", label=f"{kind} {thing}"),
    ]

    def kept(said: str) -> tuple[str, ...] | None:
        narrowed = narrowing.parse(said, shown, now=NOW, timezone=TZ, language="en", removal=True)
        return None if narrowed is None else narrowed.ids

    assert kept(f"{only} {thing}") == ("plain",)
    assert kept(f"{only} {kind} {thing}") == ("kind",)
    # what is to be kept spares every title close to the words: the run is only ever narrower
    assert kept(f"keep the {thing}") == ("other",)
    assert kept(f"not {thing}") == ("other",)


# A repeating reminder deleted whole ("take vitamins" every day, next tomorrow) beside one-time ones.
SERIES_SHOWN = [
    DisambiguationCandidate(id="v", label="take vitamins", data={"day": TOMORROW, "goesOn": True}),
    DisambiguationCandidate(id="r1", label="call mom", data={"day": TOMORROW}),
    DisambiguationCandidate(id="r3", label="pay the bank", data={"day": FRIDAY}),
]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("only tomorrow's", ("r1",)),  # the series is not "tomorrow's": one of its times is
        ("just the ones for tomorrow", ("r1",)),
        ("only friday", ("r3",)),
        ("not tomorrow's", ("r3",)),  # what to keep: the series has a time tomorrow, so it stays
        ("except tomorrow", ("r3",)),
        ("only take vitamins", ("v",)),  # named by its title, the series is what the words say
    ],
)
def test_a_day_never_names_a_series_to_delete_but_keeps_one(text: str, kept: tuple[str, ...]) -> None:
    result = parse(text, SERIES_SHOWN)
    assert result is not None and result.ids == kept and not result.unresolved


@pytest.mark.parametrize("text", ["only tomorrow", "just tomorrow's", "רק מחר", "yes but only tomorrow"])
def test_a_day_said_to_a_series_alone_picks_nothing(text: str) -> None:
    shown = SERIES_SHOWN[:1]
    result = parse(text, shown, language="he" if "רק" in text else "en")
    assert result is not None and result.unresolved
    assert narrowing.a_time_of_a_series(text, shown, now=NOW, timezone=TZ, language="en")
    assert not narrowing.a_time_of_a_series("only friday", shown, now=NOW, timezone=TZ, language="en")
    assert not narrowing.a_time_of_a_series(text, SHOWN, now=NOW, timezone=TZ, language="en")


THIS_OR_ALL = [
    DisambiguationCandidate(id="v~occurrence", label="This one", data={"day": TOMORROW}),
    DisambiguationCandidate(id="v~series", label="The whole series"),
]


@pytest.mark.parametrize(
    ("text", "picked"),
    [
        ("only tomorrow", "v~occurrence"),
        ("tomorrow", "v~occurrence"),
        ("just tomorrow's", "v~occurrence"),
        ("רק מחר", "v~occurrence"),
        ("only friday", None),  # not this one's day: asked again
        ("the whole series", None),  # words of a part: `by_words.scope_picked`
        ("yes", None),
    ],
)
def test_this_one_named_by_its_day(text: str, picked: str | None) -> None:
    lang = "he" if "רק" in text else "en"
    found = narrowing.this_time_by_day(text, THIS_OR_ALL, now=NOW, timezone=TZ, language=lang)  # type: ignore[arg-type]
    assert found == picked
    assert narrowing.this_time_by_day(text, SHOWN, now=NOW, timezone=TZ, language="en") is None
