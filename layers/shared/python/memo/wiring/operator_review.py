"""Wiring of Memo's operator review: settings read once, adapters built lazily.

- `SubmitRuntime`: the review submit Lambda (case service on the cases table, token store on the
  ledger table, the policy's adapter configuration applied once per process).
- `decision_listeners(settings)`: the case platform listeners the review Lambda installs, so a
  decision on a `memo_operation` case answers the waiting step's task token, and an operator's
  question is relayed to the WhatsApp user (conversation table + WhatsApp sender; the WhatsApp
  secrets are resolved on the first relayed question, not at cold start).
"""

from __future__ import annotations

import os
from functools import cached_property

from pydantic import Field

from caseplatform.ports import CaseListener
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from memo import tables
from memo.aws.clients import client_for
from memo.clock import Clock, utc_now
from memo.conversation.store import DynamoConversationStore
from memo.operator_review.cases import ensure_memo_adapter
from memo.operator_review.clarify import ClarificationRelay, DynamoQuestionStore
from memo.operator_review.listener import TaskTokenBridge
from memo.operator_review.policy import (
    REVIEW_POLICY_ENV_VAR,
    REVIEW_TIMEOUT_ENV_VAR,
    ReviewPolicy,
    load_policy,
)
from memo.operator_review.submit import SubmitRequest, SubmitResult, submit_for_review
from memo.operator_review.tokens import DynamoTokenStore
from memo.settings import AwsSettings, FunctionSettings, WhatsAppSettings
from memo.whatsapp.sender import GraphApiSender, Sender


class ReviewBridgeSettings(FunctionSettings):
    aws: AwsSettings
    cases_table: str = Field(default=tables.CASES.default_name, alias="CASES_TABLE_NAME", min_length=3)
    ledger_table: str = Field(default=tables.LEDGER.default_name, alias="LEDGER_TABLE_NAME", min_length=3)
    policy_source: str | None = Field(default=None, alias=REVIEW_POLICY_ENV_VAR)
    timeout_seconds: int | None = Field(default=None, alias=REVIEW_TIMEOUT_ENV_VAR)
    # The clarification relay (review Lambda only): the user's thread and the WhatsApp sender.
    whatsapp: WhatsAppSettings
    conversation_table: str = Field(
        default=tables.CONVERSATION.default_name, alias="CONVERSATION_TABLE_NAME", min_length=3
    )
    memory_ttl_seconds: int = Field(default=30 * 24 * 3600, alias="MEMO_MEMORY_TTL_SECONDS", ge=60)

    @cached_property
    def policy(self) -> ReviewPolicy:
        return load_policy(self.policy_source, timeout_seconds=self.timeout_seconds)


class SubmitRuntime:
    def __init__(self, settings: ReviewBridgeSettings, *, clock: Clock = utc_now) -> None:
        self.settings = settings
        self.clock = clock

    @cached_property
    def cases(self) -> CaseService:
        store = DynamoCaseStore(self.settings.cases_table, client_for("dynamodb", self.settings.aws))
        service = CaseService(store)
        ensure_memo_adapter(service, self.settings.policy.adapter)
        return service

    @cached_property
    def tokens(self) -> DynamoTokenStore:
        return DynamoTokenStore(client_for("dynamodb", self.settings.aws), self.settings.ledger_table)

    def submit(self, request: SubmitRequest) -> SubmitResult:
        return submit_for_review(request, cases=self.cases, tokens=self.tokens, clock=self.clock)

    @classmethod
    def current(cls) -> SubmitRuntime:
        global _current
        if _current is None:
            _current = cls(ReviewBridgeSettings.from_env(os.environ))
        return _current


_current: SubmitRuntime | None = None


def use_runtime(runtime: SubmitRuntime | None) -> None:
    global _current
    _current = runtime


class _LazySender:
    """The WhatsApp sender, built (secrets resolved) on the first relayed question."""

    def __init__(self, settings: WhatsAppSettings) -> None:
        self._settings = settings
        self._sender: GraphApiSender | None = None

    def __call__(self) -> Sender:
        if self._sender is None:
            self._sender = GraphApiSender.from_settings(self._settings.resolved())
        return self._sender


def decision_listeners(settings: ReviewBridgeSettings, *, clock: Clock = utc_now) -> list[CaseListener]:
    """The listeners of the review Lambda: decisions answer waiting steps' task tokens; operators'
    questions are relayed to the WhatsApp user."""
    dynamodb = client_for("dynamodb", settings.aws)
    tokens = DynamoTokenStore(dynamodb, settings.ledger_table)
    bridge = TaskTokenBridge(
        tokens=tokens,
        sfn_client=client_for("stepfunctions", settings.aws),
        clock=clock,
        approval_ttl_seconds=settings.policy.approval_ttl_seconds,
    )
    relay = ClarificationRelay(
        tokens=tokens,
        questions=DynamoQuestionStore(dynamodb, settings.conversation_table),
        sender=_LazySender(settings.whatsapp),
        memory=DynamoConversationStore(dynamodb, settings.conversation_table),
        clock=clock,
        timeout_seconds=settings.policy.timeout_seconds,
        memory_ttl_seconds=settings.memory_ttl_seconds,
    )
    # The relay first: on a decision it withdraws an open question before the bridge deletes the
    # ledger item that maps the case to the user's thread.
    return [relay, bridge]
