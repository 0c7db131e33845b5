"""What a "no" says beside the refusal: a reason to note, or the words after it that may keep some
of the items ("no, only 1")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.domain import PlanStep
from memo.hitl.refusals import drops_the_new_item, refusal_rest, rejection_reason


@pytest.mark.parametrize(
    ("said", "reason"),
    [
        ("no, I still need them", "I still need them"),
        ("no because the dentist moved", "the dentist moved"),
        ("לא, כי אני עוד צריך אותן", "אני עוד צריך אותן"),
        ("no", None),
        ("no, cancel it", None),
        ("no no, don't", None),
        ("no thanks", None),
        ("no, that one", None),
        ("ok", None),
        ("לא למחוק", None),  # "don't delete": the refusal, not a reason
        ("no, don't delete them", None),
        ("no, delete them later", "delete them later"),
        ("no wait, the whole thing", None),  # a second thought, not why
        ("לא רגע, את כל הסדרה", None),
        ("no, wait for the weekend", "wait for the weekend"),
    ],
)
def test_the_reason_a_refusal_gives(said: str, reason: str | None) -> None:
    assert rejection_reason(said) == reason


@pytest.mark.parametrize(
    ("said", "rest"),
    [
        ("no, only 1", "only 1"),
        ("nope just mom", "just mom"),
        ("no - not the bread", "not the bread"),
        ("לא, רק של מחר", "רק של מחר"),
        ("only 1", ""),
        ("yes", ""),
        ("nothing", ""),  # "no" inside a word is no refusal
    ],
)
def test_the_words_after_a_refusal(said: str, rest: str) -> None:
    assert refusal_rest(said) == rest


@given(st.text(max_size=80))
def test_a_reason_is_never_longer_than_the_log_takes_and_is_part_of_the_answer(said: str) -> None:
    reason = rejection_reason(said)
    assert reason is None or (0 < len(reason) <= 200 and reason in said)
    assert refusal_rest(said) in said.strip()


@pytest.mark.parametrize(
    "hedge", ["", "wait ", "wait, ", "hmm ", "oh ", "actually, ", "sorry ", "רגע ", "רגע, ", "בעצם ", "אה "]
)
@pytest.mark.parametrize("no", ["no", "nope", "no,", "לא", "לא,"])
def test_a_second_thought_before_the_no_leaves_the_rest(hedge: str, no: str) -> None:
    # "רגע לא, רק את הראשונה" was asked again ("לא, רק את הראשונה" kept the first).
    for rest in ("only the first", "רק את הראשונה", "just 2"):
        assert refusal_rest(f"{hedge}{no} {rest}") == rest


@pytest.mark.parametrize("said", ["wait", "רגע", "only the first", "actually keep it", "רגע, רק את הראשונה"])
def test_no_no_no_rest(said: str) -> None:
    assert refusal_rest(said) == ""


def _step(action: str) -> PlanStep:
    return PlanStep(id="s1", capability="reminders", action=action, constraints={}, changes={})


@pytest.mark.parametrize("lead", ["", "actually ", "no ", "oh, ", "nah, wait, "])
@pytest.mark.parametrize("verb", ["delete", "remove", "scratch", "drop", "cancel", "just delete"])
@pytest.mark.parametrize("it", ["it", "that", "this", "that one", "the reminder", "the note"])
def test_dropping_the_new_item_in_any_words(lead: str, verb: str, it: str) -> None:
    said = f"{lead}{verb} {it}"
    assert drops_the_new_item(said, _step("create")), said
    assert drops_the_new_item(said.upper(), _step("add")), said
    # Said of a delete's question ("which one?"), the same words are no drop: they are read there.
    assert not drops_the_new_item(said, _step("delete")), said


@pytest.mark.parametrize("lead", ["", "בעצם ", "לא, ", "רגע "])
@pytest.mark.parametrize("verb", ["תמחק", "תמחקי", "מחק", "תוריד", "תבטל"])
@pytest.mark.parametrize("it", ["את זה", "אותו", "אותה", "את התזכורת"])
def test_hebrew_dropping_the_new_item(lead: str, verb: str, it: str) -> None:
    assert drops_the_new_item(f"{lead}{verb} {it}", _step("create"))


@pytest.mark.parametrize(
    "said",
    [
        "delete the dentist reminder",
        "delete it tomorrow",
        "at 5 then delete it",
        "delete",
        "תמחק את החלב",
        None,
    ],
)
def test_an_answer_that_names_something_else_is_no_drop(said: str | None) -> None:
    assert not drops_the_new_item(said or "tomorrow at 5", _step("create"))
    assert not drops_the_new_item("delete it", None)
