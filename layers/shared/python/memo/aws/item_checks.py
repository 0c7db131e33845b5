"""What a question showed, checked in the answer's own write: one `ConditionCheck` per item.

An approval lists the items it will touch. When the person answers, the items must still be as
shown: there (not deleted, not tombstoned for undo), with the same title or text, and a reminder
still upcoming. Instead of reading the items again before the answer's write, the write itself
checks them (`memo.aws.conversation_table.DynamoConversationStore.record_turn`): one transaction
consumes the question, remembers the turn and verifies the items, or does nothing when an item
changed — the turn then reads them and says what changed (`memo.turn.control`).
"""

from __future__ import annotations

from datetime import UTC
from typing import Any

from memo.aws.dynamo import to_item
from memo.aws.items_table import UNDO_KEY, list_item_sk, note_sk, reminder_sk, user_pk
from memo.conversation.pending import ShownItems


class DynamoItemChecks:
    def __init__(self, table_name: str) -> None:
        self._table = table_name

    def checks(self, shown: ShownItems) -> list[dict[str, Any]]:
        """The TransactWriteItems `ConditionCheck` entries that hold when every shown item is as shown."""
        return [self._check(shown, item_id, label) for item_id, label in shown.items]

    def _check(self, shown: ShownItems, item_id: str, label: str) -> dict[str, Any]:
        # One check per shown item rides on the answer's write, so its expression is kept short:
        # attributes are named directly except DynamoDB's reserved words (`status`, `text`), and an
        # item that is gone fails `<label attribute> = :l` by itself (a comparison with a missing
        # attribute is false), so no `attribute_exists(pk)` is needed.
        values: dict[str, Any] = {":l": {"S": label}}
        names: dict[str, str] = {}
        if shown.capability == "reminders":
            sk = reminder_sk(item_id)
            condition = f"attribute_not_exists({UNDO_KEY}) AND title = :l AND #s = :s AND due_at > :n"
            names["#s"] = "status"
            values |= {":s": {"S": "scheduled"}, ":n": {"S": shown.now.astimezone(UTC).isoformat()}}
        else:
            if shown.capability == "notes":
                sk = note_sk(item_id)
            else:
                if shown.list_name is None:
                    raise ValueError("list items are checked within their list")
                sk = list_item_sk(shown.list_name, item_id)
            condition = f"attribute_not_exists({UNDO_KEY}) AND #t = :l"
            names["#t"] = "text"
        return {
            "ConditionCheck": {
                "TableName": self._table,
                "Key": to_item({"pk": user_pk(shown.thread_id), "sk": sk}),
                "ConditionExpression": condition,
                "ExpressionAttributeNames": names,
                "ExpressionAttributeValues": values,
            }
        }
