"""DynamoDB table definitions shared by the CDK stack and the local stack.

One place describes every table (keys, TTL attribute, GSIs) so that what `cdk deploy` creates and what
the local runtime creates on moto cannot drift apart. Both sides read these specs: `infra/` turns them
into `dynamodb.TableV2` constructs, `memo.local.aws` into `create_table` calls.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class GsiSpec:
    name: str
    partition_key: str
    sort_key: str | None = None


@dataclass(frozen=True)
class TableSpec:
    """A DynamoDB table: string keys, on-demand billing, optional TTL attribute and GSIs."""

    logical_id: str
    env_var: str
    default_name: str
    partition_key: str
    sort_key: str | None = None
    ttl_attribute: str | None = None
    gsis: tuple[GsiSpec, ...] = field(default_factory=tuple)

    def create_table_kwargs(self, table_name: str | None = None) -> dict[str, Any]:
        """Arguments for `boto3 dynamodb.create_table` (the local stack on moto)."""
        attributes = {self.partition_key}
        key_schema = [{"AttributeName": self.partition_key, "KeyType": "HASH"}]
        if self.sort_key:
            attributes.add(self.sort_key)
            key_schema.append({"AttributeName": self.sort_key, "KeyType": "RANGE"})
        gsis = []
        for gsi in self.gsis:
            attributes.add(gsi.partition_key)
            gsi_keys = [{"AttributeName": gsi.partition_key, "KeyType": "HASH"}]
            if gsi.sort_key:
                attributes.add(gsi.sort_key)
                gsi_keys.append({"AttributeName": gsi.sort_key, "KeyType": "RANGE"})
            gsis.append(
                {"IndexName": gsi.name, "KeySchema": gsi_keys, "Projection": {"ProjectionType": "ALL"}}
            )
        kwargs: dict[str, Any] = {
            "TableName": table_name or self.default_name,
            "KeySchema": key_schema,
            "AttributeDefinitions": [{"AttributeName": a, "AttributeType": "S"} for a in sorted(attributes)],
            "BillingMode": "PAY_PER_REQUEST",
        }
        if gsis:
            kwargs["GlobalSecondaryIndexes"] = gsis
        return kwargs


# Conversation state of a thread (= a WhatsApp user): recent messages (TTL), user profile,
# latest actions, and the single pendingHITL item whose TTL attribute is its expiresAt.
CONVERSATION = TableSpec(
    logical_id="ConversationTable",
    env_var="CONVERSATION_TABLE_NAME",
    default_name="memo-conversation",
    partition_key="pk",
    sort_key="sk",
    ttl_attribute="ttl",
)

# Powertools idempotency records (key = WhatsApp message id); attribute names are Powertools' defaults.
IDEMPOTENCY = TableSpec(
    logical_id="IdempotencyTable",
    env_var="IDEMPOTENCY_TABLE_NAME",
    default_name="memo-idempotency",
    partition_key="id",
    ttl_attribute="expiration",
)

# The HITL case platform (caseplatform.stores.dynamodb): one table for cases (envelope + projection),
# events, idempotency markers, refs and adapter schemas. The GSIs are overloaded per item type:
#   GSI1 case by state / event by type / ref lookup; GSI2 case by adapter / event by principal;
#   GSI3 all cases / all schemas; GSI4 (sparse) cases with an escalation due time.
CASES = TableSpec(
    logical_id="CasesTable",
    env_var="CASES_TABLE_NAME",
    default_name="hitl-cases",
    partition_key="pk",
    sort_key="sk",
    gsis=(
        GsiSpec("GSI1", "gsi1pk", "gsi1sk"),
        GsiSpec("GSI2", "gsi2pk", "gsi2sk"),
        GsiSpec("GSI3", "gsi3pk", "gsi3sk"),
        GsiSpec("GSI4", "gsi4pk", "gsi4sk"),
    ),
)

# The user's own items: reminders, notes and list items (pk = USER#<thread>, sk = REMINDER#<id>,
# NOTE#<id>, LIST#<list key>#ITEM#<id>). Only a deleted item waiting for a possible "Undo" has a `ttl`
# (its undo window's end): DynamoDB purges it afterwards.
ITEMS = TableSpec(
    logical_id="ItemsTable",
    env_var="ITEMS_TABLE_NAME",
    default_name="memo-items",
    partition_key="pk",
    sort_key="sk",
    ttl_attribute="ttl",
)

# Executor idempotency ledger (pk = operationId = traceId:stepId; PII-safe) and the short-lived full
# step results it points to (sk = RESULT), both expiring after the retry/redrive window.
LEDGER = TableSpec(
    logical_id="LedgerTable",
    env_var="LEDGER_TABLE_NAME",
    default_name="memo-ledger",
    partition_key="pk",
    sort_key="sk",
    ttl_attribute="ttl",
)

ALL_TABLES: tuple[TableSpec, ...] = (CONVERSATION, IDEMPOTENCY, CASES, ITEMS, LEDGER)

# The FIFO queue between webhook ingress and the turn path.
TURN_QUEUE_ENV_VAR = "TURN_QUEUE_URL"
TURN_QUEUE_DEFAULT_NAME = "memo-turns.fifo"
# Receives before a failing turn moves to the dead-letter queue (and its thread moves on).
TURN_QUEUE_MAX_RECEIVE_COUNT = 5
# The webhook Lambda's copy of the queue's setting (the last receive of a failing turn answers).
TURN_MAX_RECEIVES_ENV_VAR = "MEMO_TURN_MAX_RECEIVES"

# The queue from the turn (a user's withdrawal of a request waiting for an operator) to the review
# Lambda, which ends the waiting step (memo.operator_review.withdraw).
WITHDRAWAL_QUEUE_ENV_VAR = "REVIEW_WITHDRAWAL_QUEUE_URL"
WITHDRAWAL_QUEUE_DEFAULT_NAME = "memo-review-withdrawals"
# Receives before a notice the review Lambda cannot handle moves to the dead-letter queue.
WITHDRAWAL_QUEUE_MAX_RECEIVE_COUNT = 5
