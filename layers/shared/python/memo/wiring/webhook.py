"""Wiring of the webhook Lambda: adapters built lazily from settings, once per process.

Handlers ask `WebhookRuntime.current()`; tests and the local stack build their own runtime (or call
`reset_runtime()` after changing the environment).
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from memo.aws.clients import client_for
from memo.aws.queue import SqsTurnQueue
from memo.clock import Clock, utc_now
from memo.errors import MemoError
from memo.settings import LlmSettings, WebhookSettings

# The turn path's modules are imported when the turn path first needs them, not at cold start.
if TYPE_CHECKING:
    from memo.capabilities.store import DynamoItemsRepository
    from memo.conversation.pending import DynamoPendingStore
    from memo.conversation.store import DynamoConversationStore
    from memo.executor.contracts import ExecutionInput
    from memo.operator_review.clarify import CaseClarifications
    from memo.turn.control import ExecutionPort
    from memo.turn.engine import Responder, TurnEngine
    from memo.whatsapp.sender import GraphApiSender


class ConfigurationError(MemoError):
    code = "CONFIGURATION_ERROR"
    http_status = 500


class _ExecutorNotConfigured:
    """Without EXECUTOR_STATE_MACHINE_ARN a plan cannot run: say so at the first plan, not at import."""

    def start(self, execution: ExecutionInput) -> None:
        raise ConfigurationError("EXECUTOR_STATE_MACHINE_ARN is not set: plans cannot be executed")


class WebhookRuntime:
    def __init__(self, settings: WebhookSettings, *, clock: Clock = utc_now) -> None:
        self.settings = settings
        self.clock = clock

    @cached_property
    def whatsapp(self) -> Any:
        return self.settings.whatsapp.resolved()

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
        from memo.conversation.store import DynamoConversationStore

        return DynamoConversationStore(self.dynamodb, self.settings.conversation_table)

    @cached_property
    def sender(self) -> GraphApiSender:
        from memo.whatsapp.sender import GraphApiSender

        return GraphApiSender.from_settings(self.whatsapp)

    @cached_property
    def pending(self) -> DynamoPendingStore:
        from memo.conversation.pending import DynamoPendingStore

        return DynamoPendingStore(self.dynamodb, self.settings.conversation_table)

    @cached_property
    def items(self) -> DynamoItemsRepository:
        from memo.capabilities.store import DynamoItemsRepository

        return DynamoItemsRepository(self.dynamodb, self.settings.items_table)

    @cached_property
    def executions(self) -> ExecutionPort:
        arn = self.settings.executor_state_machine_arn
        if not arn:
            return _ExecutorNotConfigured()
        from memo.executor.starter import ExecutionStarter

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
        return self.settings.llm.resolved()

    @cached_property
    def responder(self) -> Responder:
        from memo.hitl.interpreter import build_interpreter
        from memo.operator_review.policy import load_policy
        from memo.planner import build_planner
        from memo.turn.control import PlanningResponder

        return PlanningResponder(
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
            responder=self.responder,
            clock=self.clock,
            config=EngineConfig(
                default_timezone=self.settings.default_timezone,
                memory_ttl_seconds=self.settings.memory_ttl_seconds,
                recent_messages_limit=self.settings.recent_messages_limit,
            ),
        )

    @classmethod
    def current(cls) -> WebhookRuntime:
        global _current
        if _current is None:
            _current = cls(WebhookSettings.load())
        return _current


_current: WebhookRuntime | None = None


def reset_runtime() -> None:
    global _current
    _current = None


def use_runtime(runtime: WebhookRuntime) -> None:
    """The local stack installs a runtime with its own clock."""
    global _current
    _current = runtime
