"""A typed number as the answer to a yes/no question with numbered buttons (`memo.hitl.numbered`),
and through the fast path (`memo.hitl.fastpath.match`): every form of every option's number, out of
range never, and a number that is an item the approval lists as well as a button never."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.domain import DisambiguationCandidate, HITLReply, PendingHITL, PendingHITLContext
from memo.hitl import fastpath, templates
from memo.hitl.numbered import number_means_two_things, numbered_option, typed_number
from memo.text.language import Language
from tests.unit.hitl.conftest import NOW

RLM, LRM = "\u200f", "\u200e"


def forms(n: int) -> list[str]:
    return [
        f"{n}", f"{n}.", f"{n})", f" {n} ", f"#{n}", f"{RLM}{n}", f"{n}{LRM}", f"option {n}", f"אפשרות {n}",
        f"מספר {n}", f"({n})", f"{n}!", chr(0xFF10 + n),  # a full-width digit
    ]  # fmt: skip


def question(kind: str, language: Language = "en", items: int = 0) -> PendingHITL:
    """Each kind of yes/no question with numbered buttons, in `language`."""
    options = {
        "guess": templates.yes_no_options(language),
        "approval": templates.approval_options(language),
        "plan approval": [o for o in templates.approval_options(language) if o.id != templates.EDIT_ID],
        "retry": templates.retry_options(language),
    }[kind]
    shown = [DisambiguationCandidate(id=f"r{i}", label=f"item {i}") for i in range(1, items + 1)]
    return PendingHITL(
        hitl_id="h-1",
        kind="clarification" if kind in ("guess", "retry") else "approval",
        source="planner",
        reason="low_confidence_plan" if kind == "guess" else "high_risk",
        origin_step_id="planner" if kind == "plan approval" else "s1",
        return_to={"node": "resolver_router", "mode": "continue"},
        expected_input="yes_no",
        question="?",
        options=options,
        context=PendingHITLContext(candidates=shown or None),
        expires_at=NOW + timedelta(minutes=5),
        created_at=NOW,
    )


KINDS = ["guess", "approval", "plan approval", "retry"]


@pytest.mark.parametrize("language", ["en", "he"])
@pytest.mark.parametrize("kind", KINDS)
def test_every_form_of_every_option_number_names_that_option(kind: str, language: Language) -> None:
    pending = question(kind, language, items=1 if "approval" in kind else 0)
    options = pending.options or []
    for number, option in enumerate(options, start=1):
        for typed in forms(number):
            found = fastpath.match(pending, HITLReply(text=typed))
            assert found is not None and found.option_ids == (option.id,), (typed, found)
            if option.id in ("yes", "approve"):
                assert found.approved is True
            if option.id in ("no", "reject"):
                assert found.approved is False


@pytest.mark.parametrize("language", ["en", "he"])
@pytest.mark.parametrize("kind", KINDS)
@given(number=st.integers(min_value=0, max_value=999))
def test_a_number_no_option_has_is_no_answer(kind: str, language: Language, number: int) -> None:
    pending = question(kind, language)
    if 1 <= number <= len(pending.options or []):
        return
    for typed in (f"{number}", f"{number}.", f"{RLM}{number}"):
        assert fastpath.match(pending, HITLReply(text=typed)) is None


@pytest.mark.parametrize("kind", ["approval", "plan approval"])
@pytest.mark.parametrize("items", [2, 3, 5])
def test_a_number_that_is_an_item_and_a_button_is_neither(kind: str, items: int) -> None:
    pending = question(kind, items=items)
    options = pending.options or []
    for number in range(1, len(options) + 1):
        assert number_means_two_things(pending, number) == (number <= items)
        for typed in forms(number):
            assert numbered_option(pending, typed) is (None if number <= items else options[number - 1])


def test_one_item_listed_and_approve_mean_the_same() -> None:
    pending = question("approval", items=1)
    assert not number_means_two_things(pending, 1)  # keep item 1 of 1 == approve
    assert [numbered_option(pending, n) for n in ("1", "2", "3")] == pending.options


@pytest.mark.parametrize("text", ["1 2", "1,2", "12a", "one", "the first", "1st", "-1", "1.5", "", "yes 1"])
def test_only_one_number_is_a_typed_number(text: str) -> None:
    assert typed_number(text) is None


def test_yes_and_no_words_still_win() -> None:
    pending = question("guess", "he")
    assert fastpath.match(pending, HITLReply(text="כן")).approved is True  # type: ignore[union-attr]
    assert fastpath.match(pending, HITLReply(text="No")).approved is False  # type: ignore[union-attr]
