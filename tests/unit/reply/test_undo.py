"""The "Undo" of a delete (docs/undo-and-quoted-replies.md): the button the responder adds, what its id
carries back, and the same undo typed in words."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.domain import LatestAction
from memo.replies import Choice, Reply
from memo.reply.respond import respond
from memo.reply.undo import (
    UndoRequest,
    brings_back,
    cannot_redo,
    is_redo_said,
    is_typed_undo,
    is_undo_said,
    parse_undo,
    sent_by_memo,
    too_late,
    typed_undo,
    undo_button_id,
    undo_until,
    with_undo,
)
from tests.support.button_ids import undo_ids
from tests.unit.reply.factories import NOW, FakeMemory, FakeSender, failed, ok, reminder_created, request

UNTIL = NOW + timedelta(minutes=10)


def _deleted(step_id: str = "s1", until: datetime = UNTIL) -> object:
    return ok(
        step_id,
        "reminders",
        "delete",
        data={
            "deleted": [{"id": "r1", "title": "call mom", "when": NOW.isoformat()}],
            "undoUntil": until.isoformat(),
        },
        external_ids={"reminderId": "r1"},
    )


def test_a_delete_gets_an_undo_button_naming_the_turn_and_the_window() -> None:
    sender, memory = FakeSender(), FakeMemory()
    respond(request(_deleted()), sender=sender, memory=memory, clock=lambda: NOW)  # type: ignore[arg-type]
    [(_, _, reply)] = sender.sent
    assert reply.kind == "buttons" and [c.title for c in reply.choices] == ["Undo"]
    undo = parse_undo(reply.choices[0].id)
    assert undo is not None and undo.undo_key == "wamid.T1" and undo.until == UNTIL.replace(microsecond=0)
    assert undo.open_at(UNTIL - timedelta(seconds=1)) and not undo.open_at(UNTIL)


def test_the_undo_button_is_in_hebrew_for_a_hebrew_turn() -> None:
    sender = FakeSender()
    respond(request(_deleted(), language="he"), sender=sender, memory=FakeMemory(), clock=lambda: NOW)  # type: ignore[arg-type]
    [(_, _, reply)] = sender.sent
    assert [c.title for c in reply.choices] == ["ביטול המחיקה"]


def test_the_hebrew_undo_button_of_a_skip_or_a_change_says_change() -> None:
    skipped = ok(
        "s1",
        "reminders",
        "delete",
        data={
            "skipped": [{"id": "r1", "title": "gym", "when": NOW.isoformat()}],
            "undoUntil": UNTIL.isoformat(),
        },
    )
    snoozed = ok("s1", "reminders", "snooze", data={"undoUntil": UNTIL.isoformat()})
    for outcome in (skipped, snoozed):
        reply = with_undo(Reply.plain("✅"), [outcome], trace_id="t", language="he")  # type: ignore[list-item]
        assert [c.title for c in reply.choices] == ["ביטול השינוי"]
    both = with_undo(Reply.plain("✅"), [skipped, _deleted("s2")], trace_id="t", language="he")  # type: ignore[list-item]
    assert [c.title for c in both.choices] == ["ביטול המחיקה"]


def test_no_undo_without_a_successful_destructive_step() -> None:
    sender = FakeSender()
    respond(
        request(reminder_created(), failed("s2", "reminders", "delete", "NOT_FOUND")),
        sender=sender,
        memory=FakeMemory(),
        clock=lambda: NOW,
    )
    [(_, _, reply)] = sender.sent
    assert reply.kind == "text" and reply.choices == []


def test_malformed_undo_ids_are_not_undos() -> None:
    assert parse_undo(None) is None
    assert parse_undo("s1:approve") is None
    assert parse_undo("undo:soon:wamid.1") is None
    assert parse_undo("undo:123:") is None
    assert parse_undo("undo:" + "1" * 300) is None
    ok_id = undo_button_id("wamid.1", datetime(2026, 1, 1, tzinfo=UTC))
    assert parse_undo(ok_id) is not None


@pytest.mark.parametrize(
    "reply_id",
    [
        "undo:253402300800:wamid.1",  # one second past year 9999
        "undo:" + "9" * 12 + ":wamid.1",
        "undo:²:wamid.1",  # a digit to str.isdigit, not to int
        "undo:١٢٣:wamid.1",  # Arabic-Indic digits
        "undo:-5:wamid.1",
        "undo:+5:wamid.1",
        "undo:5:",
    ],
)
def test_an_undo_id_past_year_9999_or_of_other_digits_is_no_undo(reply_id: str) -> None:
    assert parse_undo(reply_id) is None


def test_the_last_second_of_year_9999_is_still_a_date() -> None:
    request = parse_undo("undo:253402300799:wamid.1")
    assert request is not None and request.until.year == 9999


@given(reply_id=undo_ids())
def test_no_undo_id_makes_the_parser_raise(reply_id: str) -> None:
    request = parse_undo(reply_id)
    assert request is None or (request.until.year <= 9999 and request.undo_key)


def test_a_window_ending_further_away_than_undo_allows_was_not_sent_by_memo() -> None:
    assert sent_by_memo(UndoRequest(undo_key="t", until=UNTIL), NOW)
    assert sent_by_memo(UndoRequest(undo_key="t", until=NOW - timedelta(days=1)), NOW)  # too late: ours
    assert not sent_by_memo(UndoRequest(undo_key="t", until=NOW + timedelta(days=1)), NOW)


@given(
    trace_id=st.text(min_size=1, max_size=120),
    seconds=st.integers(min_value=0, max_value=4_000_000_000),
)
def test_every_undo_button_id_parses_back_to_its_turn_and_window(trace_id: str, seconds: int) -> None:
    until = datetime.fromtimestamp(seconds, UTC)
    assert parse_undo(undo_button_id(trace_id, until)) == UndoRequest(undo_key=trace_id, until=until)


def test_the_window_of_several_deletes_ends_with_the_earliest() -> None:
    early, late = NOW + timedelta(minutes=3), NOW + timedelta(minutes=10)
    outcomes = [_deleted("s1", late), _deleted("s2", early), reminder_created("s3")]
    assert undo_until(outcomes) == early  # type: ignore[arg-type]
    broken = ok("s4", "reminders", "delete", data={"undoUntil": "soon"})
    assert undo_until([broken, reminder_created()]) is None


def test_only_a_text_reply_gets_the_undo_button() -> None:
    deleted = [_deleted()]
    plain = with_undo(Reply.plain("Deleted."), deleted, trace_id="t", language="en")  # type: ignore[arg-type]
    assert plain.text == "Deleted."
    assert parse_undo(plain.choices[0].id) == UndoRequest(undo_key="t", until=UNTIL.replace(microsecond=0))
    question = Reply.with_choices("Which one?", [Choice(id="a", title="a"), Choice(id="b", title="b")])
    assert with_undo(question, deleted, trace_id="t", language="en") == question  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "undo",
        "Undo that",
        "can you undo that?",
        "oops, bring it back",
        "restore them please",
        "בטל את המחיקה",
        "תחזיר את זה",
        "undo the skip",
        "undo what you just did",
        "תבטל את מה שעשית",
        "בטל את הדילוג",
        "תבטלי את השינוי האחרון",
    ],
)
def test_undo_typed_in_words(text: str) -> None:
    assert is_typed_undo(text)


@pytest.mark.parametrize(
    "text",
    [
        None,
        "",
        "undo my reminder for tomorrow",
        "bring milk back home",
        "delete it",
        "תבטל את התזכורת של הרופא",
        "תבטל את זה מחר",
    ],
)
def test_other_words_are_not_an_undo(text: str | None) -> None:
    assert not is_typed_undo(text)


@pytest.mark.parametrize(
    "text",
    [
        "undo",
        "bring it back",
        "אופס תחזיר",
        "תחזיר את הכל",
        "תחזיר",
        "תחזירי הכל בבקשה",
        "אופס, תחזיר את הכול",
    ],
)
def test_undo_said_in_more_hebrew_words(text: str) -> None:
    assert is_undo_said(text)


@pytest.mark.parametrize(
    "text", ["תחזיר לי תשובה", "remind me to bring it back", "show my reminders", "", "תחזיר את הספר לספרייה"]
)
def test_other_words_are_not_the_undo_said(text: str) -> None:
    assert not is_undo_said(text)


def _action(action: str, operation_id: str | None, minutes: int) -> LatestAction:
    return LatestAction(
        created_at=NOW + timedelta(minutes=minutes),
        capability="reminders",
        action=action,
        summary="x",
        operation_id=operation_id,
    )


def test_typed_undo_is_the_latest_requests_delete_counted_from_when_it_deleted() -> None:
    latest = [
        _action("create", "wamid.B:s2", 2),
        _action("delete", "wamid.B:s1", 1),
        _action("delete", "wamid.A:s1", 0),  # an earlier request's delete: not this undo
    ]
    assert typed_undo(latest) == UndoRequest(undo_key="wamid.B", until=NOW + timedelta(minutes=11))


def test_typed_undo_without_a_change_in_the_latest_request_is_nothing() -> None:
    assert typed_undo([]) is None
    assert typed_undo([_action("delete", None, 0)]) is None  # no operation: nothing was tombstoned by it
    # A reminder set is undone by "undo" (it is kept as cancelled), never by "bring it back".
    latest = [_action("create", "wamid.B:s1", 1), _action("delete", "wamid.A:s1", 0)]
    assert typed_undo(latest) == UndoRequest(
        undo_key="wamid.B", until=NOW + timedelta(minutes=11), updated=True
    )
    assert typed_undo(latest, creates=False) is None
    note = _action("create", "wamid.B:s1", 1).model_copy(update={"capability": "notes"})
    assert typed_undo([note]) is None  # a note's add keeps nothing to undo


@pytest.mark.parametrize(
    ("text", "brings"),
    [
        ("bring it back", True),
        ("restore them", True),
        ("put it back please", True),
        ("תחזיר את זה", True),
        ("אופס תחזיר", True),
        ("תשחזר", True),
        ("undo the delete", True),
        ("undo my last delete", True),
        ("בטל את המחיקה", True),
        ("תבטל מה שמחקת", True),
        ("undo the change", True),
        ("undo", False),
        ("undo that", False),
        ("oops undo", False),
        ("בטל את הפעולה האחרונה", False),
        ("תבטל מה שעשית", False),
    ],
)
def test_words_that_ask_for_something_back(text: str, brings: bool) -> None:
    assert is_undo_said(text) and brings_back(text) == brings


def test_typed_undo_of_an_update_is_the_latest_requests_update() -> None:
    update = _action("update", "wamid.B:s1", 1)
    assert typed_undo([update]) == UndoRequest(
        undo_key="wamid.B", until=NOW + timedelta(minutes=11), updated=True
    )
    note = update.model_copy(update={"capability": "notes"})
    assert typed_undo([note]) == UndoRequest(
        undo_key="wamid.B", until=NOW + timedelta(minutes=11), updated=True
    )
    # A delete in the same request: "too late" speaks of the delete.
    both = typed_undo([update, _action("delete", "wamid.B:s2", 0)])
    assert both is not None and not both.updated
    # A later request's reminder set hides an earlier request's update.
    assert typed_undo([_action("create", "wamid.C:s1", 2), update], creates=False) is None


def test_too_late_speaks_of_a_change_after_an_update() -> None:
    assert (
        too_late("en", updated=True)
        == "That can't be undone anymore: Undo works for 10 minutes after a change."
    )
    assert too_late("he", updated=True) == "כבר אי אפשר לבטל את זה: ביטול אפשרי רק 10 דקות אחרי שינוי."
    assert too_late("en").endswith("after a delete.")


def test_an_add_that_put_nothing_on_the_list_is_nothing_to_undo() -> None:
    # "add milk" with milk there already: "Already there: milk"; "undo" then has nothing to take off.
    nothing = _action("add", "wamid.B:s1", 1).model_copy(
        update={"capability": "lists", "external_ids": {"listItemIds": [], "listKey": "shopping"}}
    )
    assert typed_undo([nothing]) is None
    added = nothing.model_copy(update={"external_ids": {"listItemIds": ["i1"], "listKey": "shopping"}})
    assert typed_undo([added]) == UndoRequest(
        undo_key="wamid.B", until=NOW + timedelta(minutes=11), updated=True
    )


@pytest.mark.parametrize("lead", ["", "actually ", "oops, ", "oh ", "sorry, ", "oops actually ", "hmm, "])
@pytest.mark.parametrize("words", ["put it back", "bring them back", "undo that", "restore it", "undo"])
def test_undo_after_a_second_thought_word(lead: str, words: str) -> None:
    # "actually put it back" and "בעצם תחזיר אותו" were not understood.
    assert is_undo_said(f"{lead}{words}")


@pytest.mark.parametrize("lead", ["", "בעצם ", "אופס ", "סליחה, ", "אה ", "בעצם, אופס "])
@pytest.mark.parametrize("words", ["תחזיר אותו", "תחזירי את זה", "תחזיר", "בטל את המחיקה", "שחזר אותם"])
def test_hebrew_undo_after_a_second_thought_word(lead: str, words: str) -> None:
    assert is_undo_said(f"{lead}{words}")


_REDO_SAID = [
    "redo",
    "Redo!",
    "redo that",
    "can you redo that?",
    "undo the undo",
    "undo undo",
    "oops, undo your undo",
    "בטל את הביטול",
    "תבטל את הביטול בבקשה",
    "תחזיר את מה שביטלת",
    "רגע, לבטל את הביטול",
]
_NO_REDO = ["undo", "redo the kitchen", "undo the delete", "remind me to redo my taxes", "בטל", "תחזיר את זה"]


@pytest.mark.parametrize("text", _REDO_SAID)
def test_an_undo_of_an_undo_is_said(text: str) -> None:
    assert is_redo_said(text)


@pytest.mark.parametrize("text", _NO_REDO)
def test_other_words_ask_no_redo(text: str) -> None:
    assert not is_redo_said(text)


def test_the_answer_to_redo_says_whether_anything_was_undone() -> None:
    assert cannot_redo("en", undone=True).startswith("I can't undo an undo")
    assert cannot_redo("he", undone=True).startswith("אני לא יכול לבטל ביטול")
    assert cannot_redo("en", undone=False) == "There's nothing to redo: I haven't undone anything."
