"""What Memo says back: a reply is text, up to three short buttons, or else a list."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from memo.replies import Choice, Reply

titles = st.text(alphabet="abcdefghij ✅", min_size=1, max_size=30)
choices = st.lists(
    st.builds(Choice, id=st.uuids().map(str), title=titles, description=st.none() | st.just("more")),
    max_size=12,
)


@given(choices)
def test_buttons_only_when_one_to_three_short_choices_without_descriptions_fit(offered: list[Choice]) -> None:
    reply = Reply.with_choices("Which one?", offered)
    fits = 1 <= len(offered) <= 3 and all(len(c.title) <= 20 and c.description is None for c in offered)
    assert reply.kind == ("buttons" if fits else "list")
    assert reply.choices == offered


def test_a_twenty_first_character_or_a_fourth_choice_makes_it_a_list() -> None:
    three = [Choice(id=str(n), title="x" * 20) for n in range(3)]
    assert Reply.with_choices("?", three).kind == "buttons"
    assert Reply.with_choices("?", [*three[:2], Choice(id="2", title="x" * 21)]).kind == "list"
    assert Reply.with_choices("?", [*three, Choice(id="3", title="y")]).kind == "list"
    assert Reply.with_choices("?", [Choice(id="1", title="a", description="b")]).kind == "list"


def test_a_list_keeps_the_callers_button_label() -> None:
    rows = [Choice(id=str(n), title=f"row {n}") for n in range(5)]
    assert Reply.with_choices("Pick", rows, list_button="בחירה").list_button == "בחירה"
    assert Reply.with_choices("Pick", rows).list_button == "Choose"


def test_a_plain_reply_is_text_without_choices() -> None:
    reply = Reply.plain("Done.")
    assert (reply.kind, reply.text, reply.choices) == ("text", "Done.", [])


@pytest.mark.parametrize(
    "make",
    [
        lambda: Reply.plain(""),  # WhatsApp refuses an empty body
        lambda: Choice(id="", title="a"),
        lambda: Choice(id="x" * 201, title="a"),  # WhatsApp's 200-character reply id
        lambda: Choice(id="a", title=""),
    ],
)
def test_what_whatsapp_would_refuse_cannot_be_built(make: object) -> None:
    with pytest.raises(ValidationError):
        make()  # type: ignore[operator]
