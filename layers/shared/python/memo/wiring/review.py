"""Wiring of the review Lambda (`memo.wiring` pattern): the review service on the configured
case store, Memo's decision listeners and edit check, and the API resolver, built on first use.

The listeners: a decision on a `memo_operation` case answers the waiting step's task token, and an
operator's question is relayed to the WhatsApp user (the WhatsApp secrets are resolved on the first
relayed question, not at cold start).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver

from caseplatform.notifications import EventBridgeSink, NotifyingListener
from caseplatform.ports import CaseListener, CaseStore
from caseplatform.review.api import ApiConfig, build_app
from caseplatform.review.approvals import ReviewService, ensure_review_adapters
from caseplatform.service import build_case_service
from memo.aws.clients import client_for
from memo.aws.conversation_pending import DynamoPendingStore
from memo.aws.conversation_thread import DynamoConversationStore
from memo.aws.items_table import DynamoItemsRepository
from memo.aws.ledger_table import DynamoTokenStore
from memo.aws.secrets import resolve_whatsapp
from memo.aws.stepfunctions import StepFunctionsTasks
from memo.operator_review.cases import ADAPTER_ID
from memo.operator_review.clarify import ClarificationRelay, PendingQuestionStore
from memo.operator_review.edits import check_edit
from memo.operator_review.listener import TaskTokenBridge
from memo.operator_review.policy import ReviewPolicy, load_policy
from memo.operator_review.view import MemoCaseView
from memo.operator_review.withdraw import WithdrawnSteps
from memo.settings import ReviewSettings, WhatsAppSettings
from memo.whatsapp.sender import GraphApiSender, Sender
from memo.wiring import LambdaRuntime


class _LazySender:
    """The WhatsApp sender, built (secrets resolved) on the first relayed question."""

    def __init__(self, settings: WhatsAppSettings) -> None:
        self._settings = settings
        self._sender: GraphApiSender | None = None

    def __call__(self) -> Sender:
        if self._sender is None:
            self._sender = GraphApiSender.from_settings(resolve_whatsapp(self._settings))
        return self._sender


class ReviewRuntime(LambdaRuntime[ReviewSettings]):
    settings_model = ReviewSettings

    @cached_property
    def dynamodb(self) -> Any:
        return client_for("dynamodb", self.settings.aws)

    @cached_property
    def policy(self) -> ReviewPolicy:
        return load_policy(self.settings.policy_source, timeout_seconds=self.settings.timeout_seconds)

    @cached_property
    def store(self) -> CaseStore:
        if self.settings.store == "sqlite":
            from caseplatform.stores.sqlite import SqliteCaseStore

            return SqliteCaseStore(self.settings.sqlite_path)
        from caseplatform.stores.dynamodb import DynamoCaseStore

        return DynamoCaseStore(str(self.settings.cases_table_name), self.dynamodb)

    @cached_property
    def listeners(self) -> list[CaseListener]:
        """Decisions answer waiting steps' task tokens; operators' questions are relayed to the user."""
        settings = self.settings
        tokens = DynamoTokenStore(self.dynamodb, settings.ledger_table)
        sender = _LazySender(settings.whatsapp)  # one per container: the secret is resolved once
        bridge = TaskTokenBridge(
            tokens=tokens,
            tasks=StepFunctionsTasks(client_for("stepfunctions", settings.aws)),
            clock=self.clock,
            approval_ttl_seconds=self.policy.approval_ttl_seconds,
            sender=sender,  # tells the user when an operator's edit changed the step
        )
        relay = ClarificationRelay(
            tokens=tokens,
            questions=PendingQuestionStore(DynamoPendingStore(self.dynamodb, settings.conversation_table)),
            sender=sender,
            memory=DynamoConversationStore(self.dynamodb, settings.conversation_table),
            clock=self.clock,
            timeout_seconds=self.policy.timeout_seconds,
            memory_ttl_seconds=settings.memory_ttl_seconds,
        )
        # The relay first: on a decision it withdraws an open question before the bridge deletes the
        # ledger item that maps the case to the user's thread.
        listeners: list[CaseListener] = [relay, bridge]
        if settings.event_bus:
            # Then agents are told, on the stack's bus (a failed put is logged, never raised).
            events = EventBridgeSink(client_for("events", settings.aws), settings.event_bus)
            listeners.append(NotifyingListener([events]))
        return listeners

    @cached_property
    def withdrawn_steps(self) -> WithdrawnSteps:
        """A user's withdrawal, handed over by the turn on the withdrawals queue: the waiting step's
        task token is failed (this Lambda alone may answer task tokens)."""
        settings = self.settings
        return WithdrawnSteps(
            cases=build_case_service(self.store, redact=settings.redact),
            tokens=DynamoTokenStore(self.dynamodb, settings.ledger_table),
            tasks=StepFunctionsTasks(client_for("stepfunctions", settings.aws)),
        )

    @cached_property
    def review(self) -> ReviewService:
        """The review service; the default adapters and `human_input` registered on first use."""
        cases = build_case_service(
            self.store,
            redact=self.settings.redact,
            listeners=self.listeners,
            # An operator's edit of a Memo step may only narrow it (refused when recorded otherwise).
            edit_checks={ADAPTER_ID: check_edit},
        )
        cases.ensure_default_adapters()
        ensure_review_adapters(cases)
        items = DynamoItemsRepository(self.dynamodb, self.settings.items_table)
        view = MemoCaseView(
            DynamoTokenStore(self.dynamodb, self.settings.ledger_table),
            items,
            conversation=DynamoConversationStore(self.dynamodb, self.settings.conversation_table),
            clock=self.clock,
        )
        return ReviewService(cases, views={ADAPTER_ID: view})

    @cached_property
    def app(self) -> APIGatewayHttpResolver:
        config = ApiConfig(dev_secret=self.settings.dev_jwt_secret, login_url=self.settings.login_url)
        return build_app(lambda: self.review, config)
