"""Graph API bodies respect WhatsApp's limits."""

from __future__ import annotations

import pytest

from memo.replies import Choice, Reply
from memo.whatsapp.outbound import message_bodies, split_text


def test_long_text_is_split_at_word_boundaries_under_4096() -> None:
    text = ("word " * 2000).strip()
    parts = split_text(text)
    assert len(parts) == 3 and all(len(p) <= 4096 for p in parts)
    assert " ".join(parts) == text
    bodies = message_bodies("972501234567", Reply.plain(text))
    assert [b["text"]["body"] for b in bodies] == parts


def test_buttons_get_short_unique_titles() -> None:
    reply = Reply(
        text="Which one?",
        kind="buttons",
        choices=[
            Choice(id="a", title="Call the dentist tomorrow"),
            Choice(id="b", title="Call the dentist tomorrow"),
            Choice(id="c", title="No"),
        ],
    )
    (body,) = message_bodies("972501234567", reply)
    buttons = body["interactive"]["action"]["buttons"]
    titles = [b["reply"]["title"] for b in buttons]
    assert all(len(t) <= 20 for t in titles) and len(set(titles)) == 3
    assert [b["reply"]["id"] for b in buttons] == ["a", "b", "c"]


def test_more_than_three_choices_become_a_list_with_row_limits() -> None:
    choices = [
        Choice(id=f"r{i}", title=f"Reminder number {i} with a long title", description="d" * 100)
        for i in range(10)
    ]
    reply = Reply.with_choices("Pick", choices)
    assert reply.kind == "list"
    (body,) = message_bodies("972501234567", reply)
    rows = body["interactive"]["action"]["sections"][0]["rows"]
    assert len(rows) == 10
    assert all(len(r["title"]) <= 24 and len(r["description"]) <= 72 for r in rows)
    with pytest.raises(ValueError, match="list rows"):
        message_bodies("1", Reply(text="x", kind="list", choices=[*choices, Choice(id="x", title="x")]))


def test_a_long_interactive_body_is_sent_as_text_first() -> None:
    reply = Reply.with_choices("y " * 800, [Choice(id="a", title="Yes")])
    bodies = message_bodies("972501234567", reply)
    assert bodies[0]["type"] == "text" and bodies[-1]["type"] == "interactive"
    assert len(bodies[-1]["interactive"]["body"]["text"]) <= 1024


def test_business_scoped_ids_are_addressed_as_recipient() -> None:
    (body,) = message_bodies("US.13491208655302741918", Reply.plain("hi"))
    assert body["recipient"] == "US.13491208655302741918" and "to" not in body


def test_a_huge_text_is_at_most_three_messages_and_says_it_was_cut() -> None:
    from memo.whatsapp.outbound import MAX_PARTS, TEXT_LIMIT, TRUNCATION_NOTE, split_text

    parts = split_text("word " * 40_000)  # ~200 KB: 49 messages before

    assert len(parts) == MAX_PARTS
    assert all(len(part) <= TEXT_LIMIT for part in parts)
    assert parts[-1].endswith(TRUNCATION_NOTE)
    assert split_text("short") == ["short"]
