"""The turn engine: one inbound message in, one reply out, with the thread's state kept in DynamoDB.

Order of a turn (DESIGN.md):
  load thread (pendingHITL item, recent messages, latest actions, user profile)
  pending & live    -> resume (fast path -> interpreter -> transition)
  pending & expired -> HITL_EXPIRED, delete, treat as fresh
  fresh             -> context -> reply context -> planner -> capability check -> HITL gate
                       -> resolvers -> entity resolution -> HITL gate -> executor
The steps after "context" are decided by a `TurnHandler` (the webhook's is
`memo.turn.control.TurnControl`); this module owns what every turn does around them: trace/thread
binding, read receipt, profile and language, memory, and the send.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel

from memo.conversation import smalltalk
from memo.conversation.model import MemoryKind, MemoryMessage, ThreadSnapshot, UserProfile
from memo.conversation.store import ConversationStore
from memo.ingress.inbound import InboundMessage
from memo.observability import bind_turn, count, logger, unbind_turn
from memo.replies import Reply
from memo.text.language import detect_language
from memo.whatsapp.sender import Sender, WhatsAppSendError, log_send_failure


@dataclass(frozen=True)
class TurnContext:
    """What the turn handler sees: the message, who sent it, and the thread as loaded."""

    message: InboundMessage
    trace_id: str
    profile: UserProfile
    snapshot: ThreadSnapshot
    now: datetime

    @property
    def local_now(self) -> datetime:
        return self.now.astimezone(_zone(self.profile.timezone))


class TurnOutcome(BaseModel):
    """What the turn handler decided: the reply and how it should be remembered."""

    reply: Reply | None  # None: nothing to say (a lost race must not send a second answer)
    outcome: str
    reply_kind: MemoryKind = "message"
    user_kind: MemoryKind = "message"


class TurnHandler(Protocol):
    """Decides one actionable turn: what to answer (or nothing) and how to remember it."""

    def handle(self, ctx: TurnContext) -> TurnOutcome: ...


class TurnResult(BaseModel):
    trace_id: str
    thread_id: str
    outcome: str
    reply_text: str
    sent: bool


@dataclass(frozen=True)
class EngineConfig:
    default_timezone: str
    memory_ttl_seconds: int
    recent_messages_limit: int


class SmallTalkHandler:
    """Conversation-only turn handler: friendly small talk, honest about what it did not understand."""

    def handle(self, ctx: TurnContext) -> TurnOutcome:
        language = ctx.profile.language
        kind = smalltalk.classify(ctx.message.text)
        if kind is None:
            return TurnOutcome(
                reply=Reply.plain(smalltalk.not_understood(language)), outcome="not_understood"
            )
        text = smalltalk.reply(kind, language=language, local_now=ctx.local_now, name=ctx.profile.name)
        return TurnOutcome(reply=Reply.plain(text), outcome=f"smalltalk_{kind}")


class TurnEngine:
    def __init__(
        self,
        *,
        store: ConversationStore,
        sender: Sender,
        handler: TurnHandler,
        clock: Callable[[], datetime],
        config: EngineConfig,
    ) -> None:
        self._store = store
        self._sender = sender
        self._handler = handler
        self._clock = clock
        self._config = config

    def run(self, message: InboundMessage) -> TurnResult:
        trace_id = message.wamid  # immutable for the whole chain, across resumes
        bind_turn(trace_id, message.thread_id)
        try:
            return self._run(message, trace_id)
        finally:
            unbind_turn()

    def _run(self, message: InboundMessage, trace_id: str) -> TurnResult:
        now = self._clock()
        count("Turns")
        self._mark_read(message)
        snapshot = self._store.load(message.thread_id, now=now, limit=self._config.recent_messages_limit)
        profile = self._profile(snapshot.profile, message, now)
        ctx = TurnContext(message=message, trace_id=trace_id, profile=profile, snapshot=snapshot, now=now)
        if message.actionable:
            outcome = self._handler.handle(ctx)
        else:
            count("UnsupportedMessages")
            outcome = TurnOutcome(
                reply=Reply.plain(smalltalk.unsupported_type(profile.language)), outcome="unsupported_type"
            )
        logger.info("TURN_DONE", extra={"outcome": outcome.outcome, "messageType": message.type})
        # Memory first: a failed send must never lose what the turn decided.
        remembered = [
            MemoryMessage(
                role="user",
                text=message.text or f"[{message.type}]",
                at=now,
                kind=outcome.user_kind,
                wamid=message.wamid,
            )
        ]
        if outcome.reply is not None:
            remembered.append(
                MemoryMessage(role="assistant", text=outcome.reply.text, at=now, kind=outcome.reply_kind)
            )
        self._store.append(message.thread_id, remembered, ttl_seconds=self._config.memory_ttl_seconds)
        sent = self._send(message, outcome.reply) if outcome.reply is not None else False
        return TurnResult(
            trace_id=trace_id,
            thread_id=message.thread_id,
            outcome=outcome.outcome,
            reply_text=outcome.reply.text if outcome.reply is not None else "",
            sent=sent,
        )

    def _profile(self, stored: UserProfile | None, message: InboundMessage, now: datetime) -> UserProfile:
        current = stored or UserProfile(
            thread_id=message.thread_id, timezone=self._config.default_timezone, created_at=now
        )
        updated = current.model_copy(
            update={
                "language": detect_language(message.text, current.language)
                if message.actionable
                else current.language,
                "wa_id": message.wa_id or current.wa_id,
                "user_id": message.user_id or current.user_id,
                "name": message.profile_name or current.name,
            }
        )
        if stored is None or updated != stored:
            self._store.save_profile(updated)
        return updated

    def _mark_read(self, message: InboundMessage) -> None:
        try:
            self._sender.mark_read(message.phone_number_id, message.wamid)
        except WhatsAppSendError as exc:
            log_send_failure(exc, what="read_receipt")

    def _send(self, message: InboundMessage, reply: Reply) -> bool:
        try:
            self._sender.send(message.phone_number_id, message.thread_id, reply)
        except WhatsAppSendError as exc:
            log_send_failure(exc, what="reply")
            return False
        return True


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")
