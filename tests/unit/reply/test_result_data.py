"""Reading a step result's data: the first key with a value, item texts, counted nouns."""

from __future__ import annotations

from memo.reply.result_data import bullets, counted, first_value, item_texts


def test_the_first_key_with_a_value() -> None:
    assert first_value({"list_name": "", "listName": "shopping"}, "list_name", "listName") == "shopping"
    assert first_value({"items": []}, "items") is None


def test_item_texts_from_either_shape() -> None:
    assert item_texts(["milk", {"text": "eggs"}, {"title": "gym"}, {"other": 1}, None, ""]) == [
        "milk",
        "eggs",
        "gym",
    ]
    assert item_texts("milk") == []


def test_counted_nouns_and_bullets() -> None:
    assert counted(1, "en", "note", "notes", "פתק אחד", "פתקים") == "1 note"
    assert counted(3, "he", "note", "notes", "פתק אחד", "פתקים") == "3 פתקים"
    assert bullets(["a", "b"]) == "• a\n• b"
