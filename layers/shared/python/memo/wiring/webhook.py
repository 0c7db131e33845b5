"""Wiring of the webhook Lambda (`memo.wiring` pattern): its adapters, built on first use.

The ingress path needs only the WhatsApp secrets and the queue; the turn path's modules are imported
when the turn path first asks for its adapters, not at cold start.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from memo.aws.clients import client_for
from memo.aws.queue import SqsTurnQueue
from memo.settings import ConfigurationError, LlmSettings, WebhookSettings, WhatsAppSettings
from memo.wiring import LambdaRuntime

# The turn path's modules are imported when the turn path first needs them, not at cold start.
if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler import APIGatewayHttpResolver

    from memo.aws.conversation_table import DynamoConversationStore, DynamoPendingStore
    from memo.aws.items_table import DynamoItemsRepository
    from memo.executor.contracts import ExecutionInput, ExecutionPort
    from memo.operator_review.clarify import CaseClarifications
    from memo.turn.consumer import TurnProcessor
    from memo.turn.engine import TurnEngine, TurnHandler
    from memo.whatsapp.sender import GraphApiSender


class _ExecutorNotConfigured:
    """Without EXECUTOR_STATE_MACHINE_ARN a plan cannot run: say so at the first plan, not at import."""

    def start(self, execution: ExecutionInput) -> None:
        raise ConfigurationError("EXECUTOR_STATE_MACHINE_ARN is not set: plans cannot be executed")


class WebhookRuntime(LambdaRuntime[WebhookSettings]):
    settings_model = WebhookSettings

    @cached_property
    def whatsapp(self) -> WhatsAppSettings:
        from memo.aws.secrets import resolve_whatsapp

        return resolve_whatsapp(self.settings.whatsapp)

    @cached_property
    def http_app(self) -> APIGatewayHttpResolver:
        """The ingress path: GET/POST /webhook."""
        from memo.ingress.http import build_app

        return build_app(
            whatsapp=lambda: self.whatsapp,
            queue=lambda: self.queue,
            max_body_bytes=self.settings.max_body_bytes,
        )

    @cached_property
    def turns(self) -> TurnProcessor:
        """The turn path: a FIFO batch, each message turned once (idempotency keyed by its wamid)."""
        from memo.aws.idempotency import idempotency_store
        from memo.turn.consumer import TurnProcessor

        return TurnProcessor(
            self.engine.run,
            persistence=idempotency_store(self.dynamodb, self.settings.idempotency_table),
            expiry_seconds=self.settings.idempotency_expiry_seconds,
        )

    @cached_property
    def dynamodb(self) -> Any:
        return client_for("dynamodb", self.settings.aws)

    @cached_property
    def queue(self) -> SqsTurnQueue:
        if not self.settings.turn_queue_url:
            raise ConfigurationError("TURN_QUEUE_URL is not set")
        return SqsTurnQueue(client_for("sqs", self.settings.aws), self.settings.turn_queue_url)

    @cached_property
    def store(self) -> DynamoConversationStore:
        from memo.aws.conversation_table import DynamoConversationStore

        return DynamoConversationStore(self.dynamodb, self.settings.conversation_table)

    @cached_property
    def sender(self) -> GraphApiSender:
        from memo.whatsapp.sender import GraphApiSender

        return GraphApiSender.from_settings(self.whatsapp)

    @cached_property
    def pending(self) -> DynamoPendingStore:
        from memo.aws.conversation_table import DynamoPendingStore

        return DynamoPendingStore(self.dynamodb, self.settings.conversation_table)

    @cached_property
    def items(self) -> DynamoItemsRepository:
        from memo.aws.items_table import DynamoItemsRepository

        return DynamoItemsRepository(self.dynamodb, self.settings.items_table)

    @cached_property
    def executions(self) -> ExecutionPort:
        arn = self.settings.executor_state_machine_arn
        if not arn:
            return _ExecutorNotConfigured()
        from memo.aws.stepfunctions import ExecutionStarter

        return ExecutionStarter(client_for("stepfunctions", self.settings.aws), arn)

    @cached_property
    def operator_answers(self) -> CaseClarifications:
        """The user's answers to operators' questions, recorded on the case platform's cases table."""
        from caseplatform.redaction import REDACTORS
        from caseplatform.service import CaseService
        from caseplatform.stores.dynamodb import DynamoCaseStore
        from memo.operator_review.clarify import CaseClarifications

        redact = self.settings.cases_redact
        if redact not in REDACTORS:
            raise ConfigurationError(f"HITL_REDACT must be one of {sorted(REDACTORS)}")
        store = DynamoCaseStore(self.settings.cases_table, self.dynamodb)
        return CaseClarifications(CaseService(store, redactor=REDACTORS[redact]))

    @cached_property
    def llm(self) -> LlmSettings:
        from memo.aws.secrets import resolve_llm

        return resolve_llm(self.settings.llm)

    @cached_property
    def turn_handler(self) -> TurnHandler:
        from memo.hitl.interpreter import build_interpreter
        from memo.operator_review.policy import load_policy
        from memo.planner import build_planner
        from memo.turn.control import TurnControl

        return TurnControl(
            pending=self.pending,
            planner=build_planner(self.llm),
            interpreter=build_interpreter(self.llm),
            items=self.items,
            executions=self.executions,
            hitl_ttl_seconds=self.settings.hitl_ttl_seconds,
            review_policy=load_policy(
                self.settings.review_policy_source, timeout_seconds=self.settings.review_timeout_seconds
            ),
            operator_answers=self.operator_answers,
        )

    @cached_property
    def engine(self) -> TurnEngine:
        from memo.turn.engine import EngineConfig, TurnEngine

        return TurnEngine(
            store=self.store,
            sender=self.sender,
            handler=self.turn_handler,
            clock=self.clock,
            config=EngineConfig(
                default_timezone=self.settings.default_timezone,
                memory_ttl_seconds=self.settings.memory_ttl_seconds,
                recent_messages_limit=self.settings.recent_messages_limit,
            ),
        )
