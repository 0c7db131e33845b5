"""Wiring of the webhook Lambda's turn path (`memo.wiring` pattern): its adapters, built on first use.

The ingress path (GET/POST /webhook) has its own runtime, `memo.wiring.ingress`, read without pydantic;
this module is imported by the first SQS batch, and the turn path's modules when the turn path first
asks for its adapters.
"""

from __future__ import annotations

from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any

from memo.aws.clients import client_for
from memo.settings import ConfigurationError, LlmSettings, WebhookSettings, WhatsAppSettings
from memo.tables import WITHDRAWAL_QUEUE_ENV_VAR
from memo.wiring import LambdaRuntime

# The turn path's modules are imported when the turn path first needs them, not at cold start.
if TYPE_CHECKING:
    from caseplatform.service import CaseService
    from memo.aws.conversation_pending import DynamoPendingStore
    from memo.aws.conversation_quotes import DynamoQuotes
    from memo.aws.conversation_thread import DynamoConversationStore
    from memo.aws.group_replies import DynamoGroupReplies
    from memo.aws.idempotency import TurnIdempotency
    from memo.aws.items_table import DynamoItemsRepository
    from memo.aws.number_move import DynamoNumberMove
    from memo.aws.outbound_log import DynamoOutboundLog
    from memo.executor.contracts import ExecutionInput, ExecutionPort
    from memo.operator_review.clarify import CaseClarifications
    from memo.operator_review.withdraw import WithdrawalNotices, Withdrawals
    from memo.text.language import Language
    from memo.turn.consumer import TurnProcessor
    from memo.turn.deliveries import FailedDeliveryFollowUp
    from memo.turn.engine import TurnEngine
    from memo.turn.outcome import TurnHandler
    from memo.turn.recorder import TurnRecorder
    from memo.whatsapp.media import OpenAITranscriber
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
    def turns(self) -> TurnProcessor:
        """The turn path: a FIFO batch, each message turned once (idempotency keyed by its wamid)."""
        from memo.turn.consumer import TurnProcessor

        return TurnProcessor(
            self.engine.run,
            persistence=self.idempotency,
            expiry_seconds=self.settings.idempotency_expiry_seconds,
            on_duplicate=self.engine.restart,
            on_last_failure=self.engine.give_up,
            max_receives=self.settings.turn_max_receives,
        )

    @cached_property
    def idempotency(self) -> TurnIdempotency:
        """The turn's Powertools idempotency records; the turn's own write completes them."""
        from memo.aws.idempotency import idempotency_store

        return idempotency_store(self.dynamodb, self.settings.idempotency_table)

    @cached_property
    def dynamodb(self) -> Any:
        return client_for("dynamodb", self.settings.aws)

    @cached_property
    def store(self) -> DynamoConversationStore:
        from memo.aws.conversation_thread import DynamoConversationStore

        return DynamoConversationStore(
            self.dynamodb, self.settings.conversation_table, records=self.idempotency
        )

    @cached_property
    def sender(self) -> GraphApiSender:
        from memo.whatsapp.sender import GraphApiSender

        return GraphApiSender.from_settings(self.whatsapp)

    @cached_property
    def pending(self) -> DynamoPendingStore:
        from memo.aws.conversation_pending import DynamoPendingStore

        return DynamoPendingStore(self.dynamodb, self.settings.conversation_table)

    @cached_property
    def withdrawals(self) -> Withdrawals:
        """ "cancel that" on a request waiting for an operator: the case, the wait, and the case handed
        to the review Lambda (which alone answers the waiting step's task token)."""
        from memo.aws.review_waits import DynamoReviewWaits
        from memo.operator_review.withdraw import Withdrawals

        def notices() -> WithdrawalNotices:
            from memo.aws.queue import SqsWithdrawalNotices

            url = self.settings.withdrawal_queue_url
            if not url:
                raise ConfigurationError(
                    f"{WITHDRAWAL_QUEUE_ENV_VAR} is not set: requests cannot be withdrawn"
                )
            return SqsWithdrawalNotices(client_for("sqs", self.settings.aws), url)

        return Withdrawals(
            waits=DynamoReviewWaits(self.dynamodb, self.settings.conversation_table),
            cases=lambda: self.case_service,
            notices=notices,
        )

    @cached_property
    def quotes(self) -> DynamoQuotes:
        """The items each message Memo sent named (for replies that quote one)."""
        from memo.aws.conversation_quotes import DynamoQuotes

        return DynamoQuotes(self.dynamodb, self.settings.conversation_table)

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
    def case_service(self) -> CaseService:
        """The case platform on its cases table (operators' questions answered, requests withdrawn)."""
        from caseplatform.redaction import REDACTORS
        from caseplatform.service import build_case_service
        from caseplatform.stores.dynamodb import DynamoCaseStore

        redact = self.settings.cases_redact
        if redact not in REDACTORS:
            raise ConfigurationError(f"HITL_REDACT must be one of {sorted(REDACTORS)}")
        store = DynamoCaseStore(self.settings.cases_table, self.dynamodb)
        return build_case_service(store, redact=redact)

    @cached_property
    def operator_answers(self) -> CaseClarifications:
        """The user's answers to operators' questions, recorded on the case platform's cases table."""
        from memo.operator_review.clarify import CaseClarifications

        return CaseClarifications(self.case_service)

    @cached_property
    def llm(self) -> LlmSettings:
        from memo.aws.secrets import resolve_llm

        return resolve_llm(self.settings.llm)

    @cached_property
    def turn_handler(self) -> TurnHandler:
        """The turn's decisions, over read-only ports: they write nothing (`memo.turn.control`)."""
        from memo.capabilities.limits import UserCaps
        from memo.hitl.interpreter import build_interpreter
        from memo.hitl.request_rules import RequestRules
        from memo.operator_review.policy import load_policy
        from memo.planner import build_planner
        from memo.planner.rules import RulePlanner
        from memo.turn.control import TurnControl
        from memo.turn.reads import DecisionPorts

        rules = RulePlanner()  # reads whether an answer to a question is a request of its own
        limits = self.settings.limits
        return TurnControl(
            DecisionPorts(
                planner=build_planner(self.llm),
                interpreter=build_interpreter(self.llm, rules),
                rules=rules,
                items=self.items,
                pending=self.pending,
                hitl_ttl_seconds=self.settings.hitl_ttl_seconds,
                review_policy=load_policy(
                    self.settings.review_policy_source, timeout_seconds=self.settings.review_timeout_seconds
                ),
                quotes=self.quotes,
                reviews=self.withdrawals,
                recurrence_limits=self.settings.recurrence.limits,
                note_max_chars=self.settings.texts.note_max_chars,
                message_max_chars=self.settings.texts.message_max_chars,
                title_max_chars=self.settings.texts.title_max_chars,
                caps=UserCaps(
                    reminders=limits.max_reminders,
                    repeating_reminders=limits.max_repeating_reminders,
                    list_add_items=limits.max_list_add_items,
                    list_items=limits.max_list_items,
                ),
                zone_move_listed=limits.zone_move_listed,
                request_rules=RequestRules(
                    same_minute_reminders=limits.rule_same_minute_reminders,
                    max_days_ahead=limits.rule_max_days_ahead,
                    blocked_words=limits.blocked_words,
                ),
                asks_llm=self.llm.enabled,
            )
        )

    @cached_property
    def recorder(self) -> TurnRecorder:
        """The turn's one recorder: its write, then the review wait, the start and the reply."""
        from memo.turn.recorder import TurnRecorder

        return TurnRecorder(
            store=self.store,
            sender=self.sender,
            clock=self.clock,
            memory_ttl_seconds=self.settings.memory_ttl_seconds,
            executions=self.executions,
            outbound=self.outbound,
            case_answers=self.operator_answers,
            reviews=self.withdrawals,
        )

    @cached_property
    def engine(self) -> TurnEngine:
        from memo.conversation.pace import PaceLimits
        from memo.turn.engine import TurnEngine
        from memo.turn.other_events import OtherEvents
        from memo.turn.outcome import EngineConfig

        limits = self.settings.limits
        return TurnEngine(
            store=self.store,
            sender=self.sender,
            handler=self.turn_handler,
            recorder=self.recorder,
            clock=self.clock,
            config=EngineConfig(
                default_timezone=self.settings.default_timezone,
                memory_ttl_seconds=self.settings.memory_ttl_seconds,
                recent_messages_limit=self.settings.recent_messages_limit,
                pace=PaceLimits(burst=limits.rate_burst, per_minute=limits.rate_per_minute),
            ),
            others=OtherEvents(
                sender=self.sender,
                outbound=self.outbound,
                number_mover=self.number_mover,
                failed_deliveries=self.failed_deliveries,
                turned_check=self.idempotency.check,
                group_replies=self.group_replies,
            ),
            outbound=self.outbound,
            transcriber=self.transcriber,
        )

    @cached_property
    def group_replies(self) -> DynamoGroupReplies:
        """How many answers each WhatsApp group heard lately (one counter per group and window)."""
        from memo.aws.group_replies import DynamoGroupReplies

        limits = self.settings.limits
        return DynamoGroupReplies(
            self.dynamodb,
            self.settings.conversation_table,
            limit=limits.group_replies,
            window_seconds=limits.group_reply_window_seconds,
        )

    @cached_property
    def failed_deliveries(self) -> FailedDeliveryFollowUp:
        """A `failed` status: a reminder is marked undelivered and, outside the 24-hour window,
        sent again once as its template."""
        from memo.aws.reminder_failures import DynamoReminderFailures
        from memo.reminders.template import TemplateSender
        from memo.turn.deliveries import FailedDeliveryFollowUp

        def language(thread_id: str, now: datetime) -> Language:
            profile = self.store.load(thread_id, now=now, limit=1).profile
            return profile.language if profile is not None else "en"

        return FailedDeliveryFollowUp(
            outbound=self.outbound,
            reminders=DynamoReminderFailures(self.dynamodb, self.settings.items_table),
            sender=TemplateSender.from_settings(self.whatsapp),
            language=language,
            template_name=self.settings.reminder_template_name,
            template_languages=self.settings.reminder_template_languages,
        )

    @cached_property
    def number_mover(self) -> DynamoNumberMove:
        """`user_changed_number`: the user's items, schedules and thread move to the new number."""
        from memo.aws.number_move import DynamoNumberMove

        scheduler = None
        if self.settings.schedule_target_arn and self.settings.schedule_role_arn:
            from memo.aws.scheduler import EventBridgeReminderScheduler

            scheduler = EventBridgeReminderScheduler(
                client_for("scheduler", self.settings.aws),
                group_name=self.settings.schedule_group,
                target_arn=self.settings.schedule_target_arn,
                role_arn=self.settings.schedule_role_arn,
                delivery=self.settings.schedule_delivery,
            )
        return DynamoNumberMove(
            self.dynamodb,
            conversation_table=self.settings.conversation_table,
            items_table=self.settings.items_table,
            scheduler=scheduler,
        )

    @cached_property
    def outbound(self) -> DynamoOutboundLog:
        """What each sent WhatsApp message carried, by its message id (delivery tracking)."""
        from memo.aws.outbound_log import DynamoOutboundLog

        return DynamoOutboundLog(self.dynamodb, self.settings.conversation_table)

    @cached_property
    def transcriber(self) -> OpenAITranscriber:
        """Voice notes: Graph API media download (the token only to the Graph API and the allowed
        media hosts), OpenAI transcription (refused without a key)."""
        from memo.whatsapp.media import GraphMedia, OpenAITranscriber

        return OpenAITranscriber(
            GraphMedia.from_settings(self.settings, whatsapp=self.whatsapp),
            self.llm,
            model=self.settings.transcription_model,
        )
