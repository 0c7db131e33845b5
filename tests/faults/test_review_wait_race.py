"""An answer that loses its question to another turn leaves no review wait behind.

The approval of clearing a 12-item list goes to an operator (the default policy's "11 or more
items"): its answer's turn keeps a review wait on the thread so "cancel" can withdraw the request.
The wait is kept only once the turn's one write landed: here another turn takes the question between
the answer's load and its write, the write is refused, and the answer keeps nothing, starts nothing
and says nothing. (The wait of the same answer without the race, and "cancel" withdrawing it, is
tests/integration/operator_review/test_withdraw.py.)
"""

from __future__ import annotations

from typing import Any

import boto3

from memo.local.stack import LocalStack
from tests.faults.conftest import Faults, Rule
from tests.faults.test_crashes import talk

TABLE = "memo-conversation"
THREAD_PK = {"S": "THREAD#972501234567"}
WAITS = {"pk": THREAD_PK, "sk": {"S": "AWAIT#REVIEWS"}}
PENDING = {"pk": THREAD_PK, "sk": {"S": "PENDING"}}


def _consumes_the_question(operation: str, params: dict[str, Any]) -> bool:
    return operation == "TransactWriteItems" and any(
        item.get("Delete", {}).get("Key", {}).get("sk") == PENDING["sk"] for item in params["TransactItems"]
    )


def test_an_answer_whose_question_another_turn_took_leaves_no_review_wait(faults: Faults) -> None:
    with LocalStack(start_poller=False) as stack:
        ddb = boto3.client("dynamodb", region_name="us-east-1")
        items = ", ".join(f"item{i}" for i in range(12))
        chat, _ = talk(stack, f"add {items} to my shopping list")
        chat, asked = talk(stack, "clear my shopping list", chat)
        assert asked and "12" in asked[-1], asked
        raced: list[str] = []

        def another_turn_takes_the_question(service: str, operation: str, params: dict[str, Any]) -> bool:
            if service == "dynamodb" and not raced and _consumes_the_question(operation, params):
                raced.append(operation)
                ddb.delete_item(TableName=TABLE, Key=PENDING)
            return False  # the answer's write itself goes on, and is refused

        faults.rules.append(Rule(another_turn_takes_the_question, AssertionError, times=1))
        faults.seen.clear()
        _, replies = talk(stack, "yes", chat)

        assert raced, "the race did not happen"
        assert replies == []  # a lost answer says nothing
        assert "Item" not in ddb.get_item(TableName=TABLE, Key=WAITS, ConsistentRead=True)
        assert ("stepfunctions", "StartExecution") not in faults.seen
