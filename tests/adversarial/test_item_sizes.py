"""Items that fit: the replays that broke on DynamoDB's and Step Functions' size limits.

Through the webhook with signed payloads, on the local stack (moto refuses an item over 400 KB and a
state's output over 256 KB, as AWS does):
- five 60,000-character notes, then "show my notes" and a search: each is answered at once, in the
  user's language, without being read as a request (it is longer than the longest message Memo
  reads, `MEMO_MESSAGE_MAX_CHARS`); nothing is saved, and the listing and the search still answer;
- notes stored before the limit existed (60,000 and 200,000 characters): "show my notes" and every
  search answer with the notes' first characters and how many more there are; no step result, ledger
  item or Step Functions payload goes past its limit;
- a 200 KB note, in English and in Hebrew: answered, nothing saved, nothing started;
- the configured limits (`MEMO_NOTE_MAX_CHARS`, 4,000 by default; `MEMO_MESSAGE_MAX_CHARS`, 5,000):
  a note at its limit is saved and one character more is refused before anything is saved; a
  message at its limit is read and one character more is answered unread.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import boto3
import pytest

from memo import tables
from memo.aws.dynamo import ITEM_LIMIT_BYTES, item_bytes
from memo.aws.items_table import DynamoItemsRepository
from memo.capabilities.items import Note
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.settings import DEFAULT_MESSAGE_MAX_CHARS, DEFAULT_NOTE_MAX_CHARS
from tests.support.clock import TEST_NOW
from tests.support.conversation import Conversation

LIMIT = DEFAULT_NOTE_MAX_CHARS
MESSAGE_LIMIT = DEFAULT_MESSAGE_MAX_CHARS
SAVE, SAVE_HE = "save a note ", "שמור פתק: "
# Words with no "and", "then", full stop or Hebrew "ו-" (where a message may hold a second request),
# so a note at the limit is read as one request; and prose with them.
WORDS = "budget review for the quarter "
HEBREW = "תקציב לרבעון הבא של הצוות "
PROSE = "budget review and planning for the quarter. "


def _text(head: str, chars: int, filler: str = WORDS) -> str:
    """`chars` characters: `head`, then `filler` over and over, ending in a digit (no trailing space
    for a reader to strip)."""
    return (head + filler * (chars // len(filler) + 1))[: chars - 1] + "9"


def _refused_en(chars: int) -> str:
    return (
        f"That note is {chars:,} characters long, and I keep notes of up to {LIMIT:,} characters, so I "
        "didn't save it. Could you shorten it, or send it as a few shorter notes?"
    )


def _refused_he(chars: int) -> str:
    return (
        f"הפתק הזה ארוך מדי: {chars:,} תווים, ואני שומר פתקים של עד {LIMIT:,} תווים, אז לא שמרתי אותו. "
        "אפשר לקצר אותו, או לשלוח אותו בכמה פתקים קצרים יותר?"
    )


def _unread_en(chars: int) -> str:
    return (
        f"That message is {chars:,} characters long, and I read messages of up to {MESSAGE_LIMIT:,} "
        f"characters (a note holds up to {LIMIT:,}), so I didn't save or do anything. "
        "Could you shorten it, or send it as a few shorter messages?"
    )


def _unread_he(chars: int) -> str:
    return (
        f"ההודעה הזאת ארוכה מדי: {chars:,} תווים, ואני קורא הודעות של עד {MESSAGE_LIMIT:,} תווים "
        f"(ופתק יכול להכיל עד {LIMIT:,}), אז לא שמרתי ולא עשיתי איתה כלום. "
        "אפשר לקצר אותה, או לשלוח אותה בכמה הודעות קצרות יותר?"
    )


def _ddb() -> Any:
    return boto3.client("dynamodb", region_name="us-east-1")


def _items(table: str, pk: str | None = None) -> list[dict[str, Any]]:
    if pk is None:
        return list(_ddb().scan(TableName=table)["Items"])
    query = {"KeyConditionExpression": "pk = :pk", "ExpressionAttributeValues": {":pk": {"S": pk}}}
    return list(_ddb().query(TableName=table, **query)["Items"])


def _notes(chat: Conversation) -> list[dict[str, Any]]:
    items = _items(tables.ITEMS.default_name, f"USER#{chat.user.wa_id}")
    return [i for i in items if i["kind"]["S"] == "note"]


def _executions(stack: LocalStack) -> list[dict[str, Any]]:
    assert stack.stepfunctions is not None
    sfn = stack.stepfunctions.sfn
    listed = sfn.list_executions(stateMachineArn=stack.stepfunctions.state_machine_arn)["executions"]
    return [sfn.describe_execution(executionArn=e["executionArn"]) for e in listed]


def _assert_everything_fits(stack: LocalStack) -> None:
    """Every execution succeeded (no States.DataLimitExceeded), every step was completed in the
    ledger and its full result went with the reply, and every ledger and conversation item is under
    DynamoDB's limit."""
    executions = _executions(stack)
    assert executions and {e["status"] for e in executions} == {"SUCCEEDED"}
    ledger = _items(tables.LEDGER.default_name)
    assert {i["status"]["S"] for i in ledger if i["sk"]["S"] == "LEDGER"} == {"completed"}
    assert [i for i in ledger if i["sk"]["S"] == "RESULT"] == []
    for table in (tables.LEDGER.default_name, tables.CONVERSATION.default_name):
        assert all(item_bytes(i) <= ITEM_LIMIT_BYTES for i in _items(table))


def _seed_legacy_notes(chat: Conversation, sizes: list[int]) -> None:
    """Notes as an earlier release stored them, before the limit (it saved any length)."""
    repo = DynamoItemsRepository(_ddb(), tables.ITEMS.default_name)
    for n, size in enumerate(sizes):
        note = Note(
            note_id=f"legacy-{n}",
            thread_id=chat.user.wa_id,
            text=_text(f"project alpha {n}: ", size, PROSE),
            created_at=TEST_NOW - timedelta(days=30, minutes=n),
        )
        assert repo.put_note(note)


# --- the replay: five 60,000-character notes, then "show my notes" and a search ------------------


def test_five_60000_character_notes_are_answered_and_the_notes_still_answer(
    chat: Conversation, stack: LocalStack
) -> None:
    for n in range(5):
        assert chat.say(_text(f"{SAVE}project alpha {n}: ", 60_000, PROSE)) == _unread_en(60_000)
    assert _notes(chat) == []  # nothing was saved
    assert _executions(stack) == []  # nothing was started

    assert chat.say("show my notes") == "I found no notes."
    assert chat.say("search my notes for alpha") == "I found no notes matching “alpha”."


def test_long_notes_stored_before_the_limit_are_listed_and_found_in_previews(
    chat: Conversation, stack: LocalStack
) -> None:
    _seed_legacy_notes(chat, [60_000] * 5 + [200_000])

    listed = chat.say("show my notes")
    assert listed.startswith("Found 6 notes:\n• project alpha 0: budget review")
    assert listed.count("\n• ") == 6 and len(listed) < 2_000  # the first 200 characters of each

    found = chat.say("search my notes for alpha")
    assert found.startswith("Found 6 notes for “alpha”:\n• project alpha")
    _assert_everything_fits(stack)


def test_a_listing_of_many_long_notes_says_how_many_more_there_are(
    chat: Conversation, stack: LocalStack
) -> None:
    _seed_legacy_notes(chat, [60_000] * 12)

    found = chat.say("show my notes")

    assert found.startswith("Found 10 notes:")
    assert found.endswith("…and 2 more. Tell me a word from the one you're looking for.")
    _assert_everything_fits(stack)


def test_one_long_note_found_is_shown_as_far_as_one_message_holds_and_says_so(
    chat: Conversation, stack: LocalStack
) -> None:
    _seed_legacy_notes(chat, [200_000])

    found = chat.say("show my notes")

    assert found.startswith("Found 1 note:\n• project alpha 0: budget review")
    assert found.endswith("(the first 3,500 of its 200,000 characters)")
    assert len(found) < 4_096  # one WhatsApp message
    _assert_everything_fits(stack)


# --- the replay: a 200 KB note -----------------------------------------------------------------------


def test_a_200_kb_note_gets_a_reply_and_nothing_is_saved_or_started(
    chat: Conversation, stack: LocalStack
) -> None:
    message = SAVE + "x" * 200_000
    assert chat.say(message) == _unread_en(len(message))
    assert _notes(chat) == []
    assert _executions(stack) == []


def test_a_200_kb_note_in_hebrew_is_answered_in_hebrew(chat: Conversation, stack: LocalStack) -> None:
    message = SAVE_HE + _text("פגישה עם דנה: ", 100_000, HEBREW)  # two bytes a letter: about 200 KB
    assert chat.say(message) == _unread_he(len(message))
    assert _notes(chat) == []
    assert _executions(stack) == []


# --- at the limits and past them ----------------------------------------------------------------------


def test_a_note_at_the_limit_is_saved_and_one_past_it_is_refused(
    chat: Conversation, stack: LocalStack
) -> None:
    saved = chat.say(SAVE + _text("wifi and door codes: ", LIMIT))
    assert saved.startswith("📝 Saved your note “wifi and door codes: budget")
    assert chat.say(SAVE + _text("more codes: ", LIMIT + 1)) == _refused_en(LIMIT + 1)
    (note,) = _notes(chat)
    assert len(note["text"]["S"]) == LIMIT  # kept whole
    _assert_everything_fits(stack)


def test_a_note_at_the_limit_and_past_it_in_hebrew(chat: Conversation) -> None:
    assert chat.say(SAVE_HE + _text("קודים: ", LIMIT, HEBREW)).startswith("📝 שמרתי את הפתק „קודים:")
    assert chat.say(SAVE_HE + _text("עוד קודים: ", LIMIT + 1, HEBREW)) == _refused_he(LIMIT + 1)
    assert len(_notes(chat)) == 1


def test_a_message_at_its_limit_is_read_and_one_character_more_is_not(
    chat: Conversation, stack: LocalStack
) -> None:
    # At its limit the message is read: a note too long, refused as one.
    assert chat.say(SAVE + _text("codes: ", MESSAGE_LIMIT - len(SAVE))) == _refused_en(
        MESSAGE_LIMIT - len(SAVE)
    )
    past = SAVE_HE + _text("קודים: ", MESSAGE_LIMIT + 1 - len(SAVE_HE), HEBREW)
    assert chat.say(past) == _unread_he(MESSAGE_LIMIT + 1)
    assert _notes(chat) == [] and _executions(stack) == []


@pytest.mark.parametrize("limit", [50, 20_000])
def test_the_note_limit_is_configuration(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    monkeypatch.setenv("MEMO_NOTE_MAX_CHARS", str(limit))
    monkeypatch.setenv("MEMO_MESSAGE_MAX_CHARS", str(limit + 100))
    with LocalStack(start_poller=False) as stack:
        chat = Conversation(stack=stack, user=WhatsAppUser())
        assert chat.say(SAVE + _text("door code: ", limit)).startswith("📝 Saved your note")
        refused = chat.say(SAVE + _text("door code: ", limit + 1))
        assert refused.startswith(
            f"That note is {limit + 1:,} characters long, and I keep notes of up to {limit:,}"
        )
        _assert_everything_fits(stack)
