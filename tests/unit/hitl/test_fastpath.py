"""Resume layer 1: yes/no, choices, multi-choice forms, free text, button replies; properties."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memo.domain import HITLReply, PendingHITL, PendingHITLOption
from memo.hitl import fastpath
from memo.hitl.fastpath import interactive_reply_id, looks_like_hitl_answer, match, parse_yes_no
from tests.unit.hitl.conftest import NOW


def pending(expected: str, n: int = 3, labels: list[str] | None = None, hitl_id: str = "h-1") -> PendingHITL:
    names = labels or [f"Option {chr(65 + i)}" for i in range(n)]
    options = [PendingHITLOption(id=str(i), label=label) for i, label in enumerate(names, start=1)]
    return PendingHITL(
        hitl_id=hitl_id,
        kind="disambiguation",
        source="entity_resolution",
        reason="disambiguation",
        origin_step_id="s1",
        return_to={"node": "entity_resolution", "mode": "apply_selection"},
        expected_input=expected,
        question="Which?",
        options=options if expected != "free_text" else None,
        expires_at=NOW + timedelta(minutes=5),
        created_at=NOW,
    )


def approval() -> PendingHITL:
    return PendingHITL(
        hitl_id="a-1",
        kind="approval",
        source="planner",
        reason="high_risk",
        origin_step_id="s1",
        return_to={"node": "resolver_router", "mode": "continue"},
        expected_input="yes_no",
        question="Approve?",
        options=[
            PendingHITLOption(id="approve", label="Approve"),
            PendingHITLOption(id="edit", label="Edit"),
            PendingHITLOption(id="reject", label="Reject"),
        ],
        expires_at=NOW + timedelta(minutes=5),
        created_at=NOW,
    )


def reply(text: str) -> HITLReply:
    return HITLReply(text=text)


@pytest.mark.parametrize(
    "text",
    [
        "yes",
        "Yes!",
        "yeah",
        "yep",
        "sure",
        "ok",
        "OK.",
        "okay",
        "go ahead",
        "Go ahead!",
        "do it",
        "👍",
        "כן",
        "בטח",
        "סבבה",
        "אוקיי",
        "יאללה",
        "כן בבקשה",
        "מאשר",
        "yesss",
        "Okkk",
        "כןןן",
        "okey",
        "no problem",
        "סגור",
        "יס",
        "אין בעיה",
        # the imperative, as the Approve button says it ("אשר" alone was asked again)
        "אשר",
        "תאשר",
        "תאשרי",
    ],
)
def test_yes_words(text: str) -> None:
    assert parse_yes_no(text) is True
    found = match(approval(), reply(text))
    assert found is not None and found.approved is True


@pytest.mark.parametrize(
    "text",
    [
        "no",
        "No.",
        "nope",
        "nah",
        "no thanks",
        "don't",
        "👎",
        "לא",
        "לא תודה",
        "ממש לא",
        "nooo",
        "לאאא",
        "no need",
        "לא רוצה",
    ],
)
def test_no_words(text: str) -> None:
    assert parse_yes_no(text) is False
    found = match(approval(), reply(text))
    assert found is not None and found.approved is False


@pytest.mark.parametrize(
    "text", ["maybe", "yes no", "what?", "", "  ", "כן לא", "yes, and change the time to 6", "yse", "goood"]
)
def test_not_yes_or_no(text: str) -> None:
    assert parse_yes_no(text) is None
    assert match(approval(), reply(text)) is None


def test_approval_buttons_typed_or_tapped() -> None:
    p = approval()
    assert match(p, reply("approve")).approved is True  # type: ignore[union-attr]
    assert match(p, reply("Reject")).approved is False  # type: ignore[union-attr]
    edit = match(p, reply("edit"))
    assert edit is not None and edit.option_ids == ("edit",) and edit.approved is None
    assert match(p, reply("עריכה")) is None  # labels are English for an English question
    tapped = match(p, HITLReply(text="Edit", interactive_id=interactive_reply_id(p, p.options[1])))  # type: ignore[index]
    assert tapped is not None and tapped.via == "interactive" and tapped.option_ids == ("edit",)
    bare_id = match(p, HITLReply(interactive_id="approve"))
    assert bare_id is not None and bare_id.approved is True


def test_a_button_of_another_question_never_answers_this_one() -> None:
    p = approval()
    stale = HITLReply(text="Approve", interactive_id="older-hitl:approve")
    assert match(p, stale) is None
    assert fastpath.is_stale_interactive(p, stale)
    assert fastpath.is_stale_interactive(p, HITLReply(interactive_id="a-1:nope"))
    assert not fastpath.is_stale_interactive(p, HITLReply(interactive_id="a-1:approve"))


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("2", ("2",)),
        ("#2", ("2",)),
        ("2.", ("2",)),
        ("option 2", ("2",)),
        ("אפשרות 2", ("2",)),
        ("the second one", ("2",)),
        ("השני", ("2",)),
        ("השלישית", ("3",)),
        ("last", ("3",)),
        ("Option B", ("2",)),
        ("option b", ("2",)),
    ],
)
def test_single_choice(text: str, ids: tuple[str, ...]) -> None:
    found = match(pending("single_choice"), reply(text))
    assert found is not None and found.option_ids == ids


@pytest.mark.parametrize(
    ("typed", "index"),
    [
        ("frist", 1),
        ("fisrt", 1),
        ("firts", 1),
        ("secnd", 2),
        ("scond", 2),
        ("seccond", 2),
        ("secound", 2),
        ("thrid", 3),
    ],
)
@pytest.mark.parametrize("form", ["{}", "the {}", "the {} one", "{} option"])
def test_an_ordinal_typed_with_a_slip_is_still_that_place(typed: str, index: int, form: str) -> None:
    # "the frist one" to "which one?" was "please reply with a number".
    found = match(pending("single_choice"), reply(form.format(typed)))
    assert found is not None and found.option_ids == (str(index),), form.format(typed)


@pytest.mark.parametrize("text", ["4", "0", "-1", "1 2", "both", "all", "Option", "option d", "7 options"])
def test_single_choice_rejects(text: str) -> None:
    assert match(pending("single_choice"), reply(text)) is None


@pytest.mark.parametrize(
    ("text", "n", "ids"),
    [
        ("1 2", 3, ("1", "2")),
        ("1,2", 3, ("1", "2")),
        ("1, 3", 3, ("1", "3")),
        ("1 and 3", 3, ("1", "3")),
        ("3 and 1", 3, ("1", "3")),
        ("1 ו-3", 3, ("1", "3")),
        ("1 ו3", 3, ("1", "3")),
        ("1-3", 3, ("1", "2", "3")),
        ("all", 3, ("1", "2", "3")),
        ("All of them", 3, ("1", "2", "3")),
        ("כולם", 3, ("1", "2", "3")),
        ("כולן", 3, ("1", "2", "3")),
        ("both", 2, ("1", "2")),
        ("שניהם", 2, ("1", "2")),
        ("2", 3, ("2",)),
    ],
)
def test_multi_choice_forms(text: str, n: int, ids: tuple[str, ...]) -> None:
    found = match(pending("multi_choice", n), reply(text))
    assert found is not None and found.option_ids == ids


@pytest.mark.parametrize(
    ("text", "n"), [("both", 3), ("שניהם", 3), ("1 4", 3), ("0 1", 3), ("3-5", 3), ("1 2 x", 3)]
)
def test_multi_choice_rejects(text: str, n: int) -> None:
    assert match(pending("multi_choice", n), reply(text)) is None


def test_free_text_accepts_any_answer_but_not_a_cancel_word() -> None:
    p = pending("free_text")
    found = match(p, reply(" tomorrow at 5 "))
    assert (
        found is not None
        and found.answer == "tomorrow at 5"
        and found.parsed
        == {
            "via": "free_text",
            "answer": "tomorrow at 5",
        }
    )
    assert match(p, reply("never mind")) is None
    assert match(p, reply("ביטול")) is None
    assert match(p, reply("")) is None


@pytest.mark.parametrize(
    "text", ["yes", "no", "2", "1 2", "כן", "לא", "both", "all", "כולם", "cancel", "the first one", "#3"]
)
def test_looks_like_hitl_answer(text: str) -> None:
    assert looks_like_hitl_answer(text)


@pytest.mark.parametrize(
    "text",
    [
        "remind me to call mom at 5",
        "what are my reminders",
        "שלום",
        "hello",
        "note: buy 2 eggs",
        "2 eggs please",
    ],
)
def test_does_not_look_like_hitl_answer(text: str) -> None:
    assert not looks_like_hitl_answer(text)


def test_button_reply_always_looks_like_an_answer() -> None:
    assert looks_like_hitl_answer("Approve", interactive_id="h:approve")


def test_word_lists_do_not_overlap() -> None:
    assert not fastpath.YES_WORDS & fastpath.NO_WORDS
    assert not fastpath.YES_WORDS & fastpath.CANCEL_WORDS


# --- properties ---------------------------------------------------------------------------------

_words = st.sampled_from(
    [
        *sorted(fastpath.YES_WORDS | fastpath.NO_WORDS | fastpath.CANCEL_WORDS),
        "1",
        "2",
        "and",
        ",",
        "כן",
        "לא",
        "!",
        "?",
    ]
)
_replies = st.one_of(st.text(max_size=30), st.lists(_words, max_size=4).map(" ".join))


@settings(max_examples=300, deadline=None)
@given(_replies)
def test_no_reply_is_both_yes_and_no(text: str) -> None:
    assert not (fastpath.is_yes(text) and fastpath.is_no(text))
    found = match(approval(), reply(text))
    if found is not None and found.via == "yes_no":
        assert found.approved is parse_yes_no(text)


_index_replies = st.one_of(
    st.integers(min_value=-3, max_value=40).map(str),
    st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=4).map(
        lambda xs: " ".join(map(str, xs))
    ),
    st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=4).map(
        lambda xs: ",".join(map(str, xs))
    ),
    st.tuples(st.integers(0, 40), st.integers(0, 40)).map(lambda t: f"{t[0]} and {t[1]}"),
    st.tuples(st.integers(0, 40), st.integers(0, 40)).map(lambda t: f"{t[0]}-{t[1]}"),
    st.sampled_from(["both", "all", "שניהם", "כולם", "last", "the tenth one", "השני"]),
)


@settings(max_examples=400, deadline=None)
@given(n=st.integers(min_value=1, max_value=10), text=_index_replies, multi=st.booleans())
def test_out_of_range_indexes_are_never_accepted(n: int, text: str, multi: bool) -> None:
    p = pending("multi_choice" if multi else "single_choice", n)
    found = match(p, reply(text))
    if found is None:
        return
    valid = {str(i) for i in range(1, n + 1)}
    assert found.option_ids and set(found.option_ids) <= valid
    numbers = [int(x) for x in re.findall(r"\d+", text)]
    assert all(1 <= x <= n for x in numbers)
    if not multi:
        assert len(found.option_ids) == 1


@settings(max_examples=300, deadline=None)
@given(text=_replies, expected=st.sampled_from(["yes_no", "single_choice", "multi_choice", "free_text"]))
def test_the_same_reply_always_parses_the_same(text: str, expected: str) -> None:
    p = approval() if expected == "yes_no" else pending(expected)
    first = match(p, reply(text))
    # a fresh copy of the question (as loaded from storage) gives the same answer
    again = match(PendingHITL.model_validate_json(p.model_dump_json()), reply(text))
    assert first == again
    assert looks_like_hitl_answer(text) == looks_like_hitl_answer(text)


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("actually yes", True),
        ("בעצם כן", True),
        ("wait no", False),
        ("no wait", False),
        ("no, wait", False),
        ("hmm no", False),
        ("רגע לא", False),
        ("actually no", False),
        ("yes wait", None),  # a "wait" never makes a yes: asked again
        ("wait yes", None),
        ("wait", None),
        ("actually", None),
    ],
)
def test_hedges_around_a_yes_or_a_no(text: str, answer: bool | None) -> None:
    assert parse_yes_no(text) is answer


_EN_RUN = {2: "two", 3: "three", 4: "four"}
_HE_RUN = {2: "השניים", 3: "השלושה"}


@given(n=st.integers(2, 5), k=st.integers(2, 4), first=st.booleans(), form=st.integers(0, 3))
def test_a_run_at_one_end_of_a_multi_choice(n: int, k: int, first: bool, form: int) -> None:
    """ "the first two", "last 3", "השניים הראשונים": the places at that end, or no answer when more
    are named than are shown."""
    said = [
        f"the {'first' if first else 'last'} {_EN_RUN[k]}",
        f"{'first' if first else 'last'} {k}",
        f"the {'first' if first else 'last'} {k} ones",
        f"{_HE_RUN.get(k, str(k))} {'הראשונים' if first else 'האחרונים'}",
    ][form]
    found = match(pending("multi_choice", n), reply(said))
    if k > n:
        assert found is None
        return
    places = range(1, k + 1) if first else range(n - k + 1, n + 1)
    assert found is not None and found.option_ids == tuple(str(p) for p in places), said


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("first and third", ("1", "3")),
        ("the first and the third one", ("1", "3")),
        ("1st and 3rd", ("1", "3")),
        ("the second and the last", ("2", "3")),
        ("הראשון והשלישי", ("1", "3")),
        ("הראשונה והאחרונה", ("1", "3")),
    ],
)
def test_places_named_in_a_multi_choice(text: str, ids: tuple[str, ...]) -> None:
    found = match(pending("multi_choice", 3), reply(text))
    assert found is not None and found.option_ids == ids


@pytest.mark.parametrize("text", ["first and fifth", "the first two and more", "first aid kit"])
def test_words_that_are_no_places_are_no_answer(text: str) -> None:
    assert match(pending("multi_choice", 3), reply(text)) is None


@pytest.mark.parametrize("expected", ["single_choice", "multi_choice"])
@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("only the first", ("1",)),
        ("just the second one", ("2",)),
        ("only 3", ("3",)),
        ("just 2", ("2",)),
        ("רק הראשון", ("1",)),
        ("רק 3", ("3",)),
    ],
)
def test_only_before_a_choice_is_that_choice(expected: str, text: str, ids: tuple[str, ...]) -> None:
    # "only the first" was "Sorry, I didn't catch that — please reply with a number from 1 to 3."
    found = match(pending(expected, 3), reply(text))
    assert found is not None and found.option_ids == ids


def test_only_before_two_choices_is_both_in_a_multi_choice() -> None:
    found = match(pending("multi_choice", 3), reply("only 1 and 3"))
    assert found is not None and found.option_ids == ("1", "3")
    assert match(pending("multi_choice", 3), reply("only the fifth")) is None
