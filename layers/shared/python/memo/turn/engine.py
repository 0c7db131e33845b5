"""The turn engine: one inbound message in, one reply out, with the thread's state kept in DynamoDB.

Order of a turn:
  load thread (pendingHITL item, recent messages, latest actions, user profile)
  pending & live    -> resume (fast path -> interpreter -> transition)
  pending & expired -> HITL_EXPIRED, delete, treat as fresh
  fresh             -> context -> reply context -> planner -> capability check -> HITL gate
                       -> resolvers -> entity resolution -> HITL gate -> executor
The steps after "context" are decided by a `TurnHandler` (the webhook's is
`memo.turn.control.TurnControl`); this module owns what every turn does around them: trace/thread
binding, read receipt, profile and language, memory, and the send.

What a message that is not typed text does comes from its row of the event table
(`memo.whatsapp.events`, documented in docs/whatsapp-events.md): silent events are logged and
answered by nothing; a group message never touches the member's private thread; a reaction or an
edit answers the open question only in the narrow cases of `memo.turn.events`; a voice note is
transcribed and turned like text; a changed number moves the user's data; a failed delivery is
followed up. Every message Memo sends carries a tracking tag (`memo.whatsapp.tracking`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel

from memo.conversation import smalltalk
from memo.conversation.model import MemoryKind, MemoryMessage, ThreadSnapshot, TurnRecorded, UserProfile
from memo.conversation.pending import PendingChange
from memo.conversation.store import ConversationStore
from memo.domain import NOTE_TEXT_REQUIRED, LatestAction
from memo.errors import AlreadyTurned, MemoError
from memo.executor.contracts import ExecutionInput, ExecutionPort
from memo.ingress.inbound import InboundMessage
from memo.observability import bind_turn, count, logger, mask_phone, unbind_turn
from memo.packing import pack_text, unpack_text
from memo.replies import Reply
from memo.text.language import detect_language
from memo.text.timezones import phone_timezone, timezone_set_reply, timezone_statement
from memo.turn import events
from memo.whatsapp.sender import Sender, WhatsAppSendError, log_send_failure
from memo.whatsapp.tracking import OutboundKind, OutboundLog, OutboundRecord, OutboundTag

if TYPE_CHECKING:
    from memo.whatsapp.media import Transcriber


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
    #: with `reply_kind` "reminder": the reminder the reply is about ("How much later?")
    reply_reminder_id: str | None = None
    user_kind: MemoryKind = "message"
    # The pending question's change, committed with the turn's memory (`ConversationStore.record_turn`).
    pending_change: PendingChange | None = None
    # The plan to run, started once that write is done (one execution per traceId).
    start: ExecutionInput | None = None


class TurnHandler(Protocol):
    """Decides one actionable turn: what to answer (or nothing) and how to remember it."""

    def handle(self, ctx: TurnContext) -> TurnOutcome: ...

    def lost_race(self, ctx: TurnContext, outcome: TurnOutcome) -> TurnOutcome:
        """What to answer instead of `outcome` when its pending change lost its condition (the
        question changed under the turn); the answer changes no pending question."""
        ...


class NumberMover(Protocol):
    def move(self, old_thread_id: str, new_wa_id: str, *, now: datetime) -> str:
        """Move the user's data to `new_wa_id` (idempotent); returns what happened ("moved", ...)."""


class FailedDeliveries(Protocol):
    def follow_up(self, record: OutboundRecord, codes: list[int], *, now: datetime) -> str:
        """What Memo does about one failed outbound message; returns the outcome's name."""


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

    def lost_race(self, ctx: TurnContext, outcome: TurnOutcome) -> TurnOutcome:
        return outcome.model_copy(update={"pending_change": None})


class TurnEngine:
    def __init__(
        self,
        *,
        store: ConversationStore,
        sender: Sender,
        handler: TurnHandler,
        clock: Callable[[], datetime],
        config: EngineConfig,
        outbound: OutboundLog | None = None,
        transcriber: Transcriber | None = None,
        number_mover: NumberMover | None = None,
        failed_deliveries: FailedDeliveries | None = None,
        executions: ExecutionPort | None = None,
        turned_check: Callable[[], None] | None = None,
    ) -> None:
        self._executions = executions
        self._turned_check = turned_check
        self._store = store
        self._sender = sender
        self._handler = handler
        self._clock = clock
        self._config = config
        self._outbound = outbound
        self._transcriber = transcriber
        self._mover = number_mover
        self._failed = failed_deliveries

    def _unsupported(self, message: InboundMessage, profile: UserProfile) -> TurnOutcome:
        """The polite "text only" reply (once per batch and user)."""
        count("UnsupportedMessages")
        logger.info(
            "UNSUPPORTED_MESSAGE",
            extra={
                "messageType": message.type,
                "event": message.event or message.type,
                "metaErrorCodes": message.error_codes or None,
                "answered": message.reply_unsupported,
            },
        )
        if not message.reply_unsupported:
            return TurnOutcome(reply=None, outcome="unsupported_type_already_answered")
        return TurnOutcome(
            reply=Reply.plain(smalltalk.unsupported_type(profile.language)), outcome="unsupported_type"
        )

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
        handling = message.handling
        if message.group_id is not None:
            return self._group(message, trace_id)
        if handling == "silent":
            return self._silent(message, trace_id, message.row.log)
        if handling == "changed_number":
            return self._changed_number(message, trace_id, now)
        if handling == "delivery_failed":
            return self._delivery_failed(message, trace_id, now)
        edited: list[LatestAction] = []  # what an edit of a request already carried out had done
        if handling in ("reaction", "edit"):
            snapshot = self._store.load(message.thread_id, now=now, limit=self._config.recent_messages_limit)
            answer = self._answer_from(message, snapshot, now)
            if answer is not None:
                message = answer
            else:
                edited = events.edit_of_done(message, snapshot, now)
                if not edited:
                    return self._silent(message, trace_id, message.row.log)
        else:
            snapshot = None
        self._mark_read(message)
        if snapshot is None:
            snapshot = self._store.load(message.thread_id, now=now, limit=self._config.recent_messages_limit)
        profile = self._profile(snapshot.profile, message, now)
        ctx = TurnContext(message=message, trace_id=trace_id, profile=profile, snapshot=snapshot, now=now)
        heard: str | None = None
        if edited:
            # Memo never re-runs a request because its text changed: it says what it had done.
            logger.info("EDIT_AFTER_DONE", extra={"targetId": message.target_id, "actions": len(edited)})
            outcome = TurnOutcome(
                reply=Reply.plain(events.edited_after_done(edited, profile.language)),
                outcome="edit_after_done",
            )
        elif message.handling == "voice":
            transcribed = self._transcribe(ctx)
            if isinstance(transcribed, TurnOutcome):
                outcome = transcribed
            else:
                heard = transcribed.text
                message = transcribed
                profile = self._profile(profile, message, now)
                ctx = TurnContext(
                    message=message, trace_id=trace_id, profile=profile, snapshot=snapshot, now=now
                )
                outcome = self._handler.handle(ctx)
        elif message.actionable and (zone := timezone_statement(message.text)) is not None:
            profile = profile.model_copy(update={"timezone": zone, "timezone_source": "user"})
            outcome = self._set_timezone(profile, now)
        elif message.actionable:
            outcome = self._handler.handle(ctx)
            if message.row.key.endswith(".caption") and outcome.outcome == "hitl_clarification":
                if _asks_the_notes_text(outcome) and outcome.reply is not None:
                    # "save this as a note" under a picture: the file cannot be kept, its words can.
                    kept = f"{smalltalk.file_not_kept(profile.language)} {outcome.reply.text}"
                    outcome = outcome.model_copy(update={"reply": Reply.plain(kept)})
                else:
                    # A caption that asks nothing ("look", "from the trip"): it is about the picture,
                    # which Memo does not see; the "text only" reply, not "what would you like me
                    # to do?".
                    outcome = self._unsupported(message, profile)
        elif message.handling == "welcome":
            logger.info("WELCOME_SENT", extra={"language": profile.language})
            outcome = TurnOutcome(
                reply=Reply.plain(events.welcome(profile.language, profile.name)), outcome="welcome"
            )
        else:
            outcome = self._unsupported(message, profile)
        if heard is not None and _risky(outcome):
            outcome = self._quote_back(ctx, outcome, heard)
        logger.info(
            "TURN_DONE",
            extra={
                "outcome": outcome.outcome,
                "messageType": message.type,
                "event": message.event or message.type,
                "metaErrorCodes": message.error_codes or None,
            },
        )
        # Memory first, in one write with the reply's claim, the pending question's change and the
        # profile: a failed send never loses what the turn decided, and a rerun of the turn (SQS
        # redelivery after a crash) never answers twice.
        recorded = self._record(ctx, outcome, profile, snapshot.profile)
        if recorded == "pending_conflict":
            count("PendingConflicts")
            logger.warning(
                "HITL_PENDING_CONFLICT",
                extra={"outcome": outcome.outcome, "change": _change_kind(outcome.pending_change)},
            )
            outcome = self._handler.lost_race(ctx, outcome).model_copy(
                update={"pending_change": None, "start": None}
            )
            recorded = self._record(ctx, outcome, profile, snapshot.profile)
        first = recorded == "recorded"
        if not first:
            count("TurnRepliesSuppressed")
            logger.info("TURN_ALREADY_ANSWERED", extra={"outcome": outcome.outcome})
        elif outcome.start is not None:
            # After the write: a crash between the two is redelivered, found done, and the start is
            # issued again from the stored result (`TurnProcessor`); Step Functions runs it once.
            self.start(outcome.start)
        sent = (
            self._send(
                message,
                outcome.reply,
                kind=_outbound_kind(outcome),
                now=now,
                reaction=_reaction_may_answer(outcome),
            )
            if outcome.reply is not None and first
            else False
        )
        return TurnResult(
            trace_id=trace_id,
            thread_id=message.thread_id,
            outcome=outcome.outcome,
            reply_text=outcome.reply.text if outcome.reply is not None else "",
            sent=sent,
        )

    def _record(
        self, ctx: TurnContext, outcome: TurnOutcome, profile: UserProfile, stored: UserProfile | None
    ) -> TurnRecorded:
        message, now = ctx.message, ctx.now
        remembered = [
            MemoryMessage(
                role="user",
                text=message.text or f"[{message.type}]",
                at=now,
                kind=outcome.user_kind,
                wamid=message.wamid,
                started=outcome.start.trace_id if outcome.start is not None else None,
            )
        ]
        if outcome.reply is not None:
            remembered.append(
                MemoryMessage(
                    role="assistant",
                    text=outcome.reply.text,
                    at=now,
                    kind=outcome.reply_kind,
                    reminder_id=outcome.reply_reminder_id,
                )
            )
        # The message's record holds what a redelivery of it needs (`AlreadyTurned.result`): the
        # plan's start, issued again in case this run dies between its write and the start. What
        # the turn did is its memory and its TURN_DONE log line, not repeated here.
        result: dict[str, object] = {}
        if outcome.start is not None:
            result["start"] = pack_text(
                outcome.start.model_dump_json(exclude_none=True, exclude_defaults=True)
            )
        return self._store.record_turn(
            message.thread_id,
            message.wamid,
            remembered,
            ttl_seconds=self._config.memory_ttl_seconds,
            result=result,
            pending=outcome.pending_change,
            profile=profile if profile != stored else None,
        )

    def start(self, execution: ExecutionInput) -> None:
        """Start the turn's plan (a second start of the same traceId is a no-op)."""
        if self._executions is None:
            raise ValueError("the turn has a plan to run but no executor is wired")
        self._executions.start(execution)

    def give_up(self, message: InboundMessage) -> None:
        """The last receive of a message whose turn kept failing (the queue moves it to its
        dead-letter queue next): the person is told once, truthfully, instead of hearing nothing.
        The reply is claimed with the turn's one write, as any reply is: a redrive from the
        dead-letter queue finds the message answered. If that write fails, nothing is sent."""
        if message.group_id is not None or message.handling == "silent":
            return  # nothing was asked of Memo
        bind_turn(message.wamid, message.thread_id)
        try:
            now = self._clock()
            # The thread is not loaded (loading it may be what keeps failing): the profile a new
            # thread would get, in the message's language, and the turn's own one write.
            profile = self._profile(None, message, now)
            outcome = TurnOutcome(
                reply=Reply.plain(smalltalk.turn_failed(profile.language)), outcome="turn_failed"
            )
            ctx = TurnContext(
                message=message,
                trace_id=message.wamid,
                profile=profile,
                snapshot=ThreadSnapshot(thread_id=message.thread_id),
                now=now,
            )
            try:
                recorded = self._record(ctx, outcome, profile, profile)
            except AlreadyTurned:
                recorded = "already_recorded"  # the turn wrote before it failed: its reply is claimed
            count("TurnsGivenUp")
            logger.error("TURN_GAVE_UP", extra={"answered": recorded == "recorded"})
            if recorded == "recorded" and outcome.reply is not None:
                self._send(message, outcome.reply, kind="reply", now=now)
        finally:
            unbind_turn()

    def restart(self, stored: Mapping[str, Any]) -> None:
        """A redelivered message whose turn was done: its start again, in case the first run died
        between its write and the start."""
        execution = stored.get("start")
        if isinstance(execution, str):  # packed (`memo.packing`)
            logger.info("TURN_START_REISSUED")
            self.start(ExecutionInput.model_validate_json(unpack_text(execution)))
        elif isinstance(execution, dict):  # stored before starts were packed
            logger.info("TURN_START_REISSUED")
            self.start(ExecutionInput.model_validate(execution))

    # --- events that are not a turn of the private conversation ---------------------------------

    def _not_turned_before(self) -> None:
        """Before a side effect that no write of the turn claims (a group's reply, a number move, a
        failed delivery's follow-up): raises `AlreadyTurned` when an earlier run turned the message."""
        if self._turned_check is not None:
            self._turned_check()

    def _silent(
        self, message: InboundMessage, trace_id: str, event: str, outcome: str = "silent"
    ) -> TurnResult:
        count("SilentEvents")
        logger.info(
            event,
            extra={
                "event": message.event or message.type,
                "targetId": message.target_id,
                "emoji": message.emoji,
                "metaErrorCodes": message.error_codes or None,
            },
        )
        return TurnResult(
            trace_id=trace_id, thread_id=message.thread_id, outcome=outcome, reply_text="", sent=False
        )

    def _group(self, message: InboundMessage, trace_id: str) -> TurnResult:
        """A group message never reaches the member's private thread: no load, no memory, no question."""
        addressed = message.actionable and events.addressed_to_memo(message.text)
        logger.info(
            "GROUP_MESSAGE" if addressed else "GROUP_MESSAGE_IGNORED",
            extra={
                "groupId": message.group_id,
                "event": message.event or message.type,
                "addressed": addressed,
            },
        )
        if not addressed or message.group_id is None:
            return TurnResult(
                trace_id=trace_id,
                thread_id=message.thread_id,
                outcome="group_ignored",
                reply_text="",
                sent=False,
            )
        language = detect_language(message.text, "en")
        reply = Reply.plain(events.group_reply(language))
        self._not_turned_before()
        try:
            self._sender.send_to_group(message.phone_number_id, message.group_id, reply)
        except WhatsAppSendError as exc:
            log_send_failure(exc, what="group_reply")
            sent = False
        else:
            sent = True
        return TurnResult(
            trace_id=trace_id,
            thread_id=message.thread_id,
            outcome="group_answered",
            reply_text=reply.text,
            sent=sent,
        )

    def _changed_number(self, message: InboundMessage, trace_id: str, now: datetime) -> TurnResult:
        if not message.new_wa_id or self._mover is None:
            logger.error("NUMBER_CHANGE_NOT_MOVED", extra={"hasNewNumber": bool(message.new_wa_id)})
            return TurnResult(
                trace_id=trace_id,
                thread_id=message.thread_id,
                outcome="number_not_moved",
                reply_text="",
                sent=False,
            )
        self._not_turned_before()
        result = self._mover.move(message.thread_id, message.new_wa_id, now=now)
        logger.info("NUMBER_CHANGED", extra={"newNumber": mask_phone(message.new_wa_id), "result": result})
        return TurnResult(
            trace_id=trace_id,
            thread_id=message.thread_id,
            outcome=f"number_{result}",
            reply_text="",
            sent=False,
        )

    def _delivery_failed(self, message: InboundMessage, trace_id: str, now: datetime) -> TurnResult:
        """A `failed` status: its tracking tag says what the message carried (no read); a status of a
        message sent before tags existed is looked up in the outbound log."""
        tag = OutboundTag.decode(message.outbound_tag, recipient=message.thread_id)
        record: OutboundRecord | None = None
        if tag is not None and message.target_id:
            record = tag.record(message.target_id, at=now, phone_number_id=message.phone_number_id)
        elif self._outbound is not None and message.target_id:
            record = self._outbound.get(message.target_id)
        if record is None:
            logger.info("DELIVERY_FAILED_UNTRACKED", extra={"messageId": message.target_id})
            outcome = "delivery_failed_untracked"
        elif self._failed is None:
            logger.error("DELIVERY_FAILED_NOT_FOLLOWED_UP", extra={"messageId": message.target_id})
            outcome = "delivery_failed_not_followed_up"
        else:
            self._not_turned_before()
            outcome = self._failed.follow_up(record, message.error_codes, now=now)
        return TurnResult(
            trace_id=trace_id, thread_id=message.thread_id, outcome=outcome, reply_text="", sent=False
        )

    def _answer_from(
        self, message: InboundMessage, snapshot: ThreadSnapshot, now: datetime
    ) -> InboundMessage | None:
        """A reaction or an edit, as the answer to the open question when it may be one."""
        if message.handling == "edit":
            answer = events.edit_answer(message, snapshot, now)
        else:
            question = (
                self._outbound.get(message.target_id)
                if self._outbound is not None and message.target_id and message.emoji
                else None
            )
            answer = events.reaction_answer(message, snapshot, question, now)
        if answer is not None:
            logger.info(
                "EVENT_ANSWERS_QUESTION", extra={"event": message.event, "targetId": message.target_id}
            )
        return answer

    def _transcribe(self, ctx: TurnContext) -> InboundMessage | TurnOutcome:
        from memo.whatsapp.media import MediaTooLarge, VoiceUnavailable

        message = ctx.message
        language = ctx.profile.language

        def refused(text: str, result: str, **extra: object) -> TurnOutcome:
            logger.info("VOICE_NOTE", extra={"result": result, **extra})
            return TurnOutcome(reply=Reply.plain(text), outcome=f"voice_{result}")

        if self._transcriber is None or not message.media_id:
            return refused(events.voice_unavailable(language), "unavailable")
        try:
            text = self._transcriber.transcribe(
                message.media_id, mime_type=message.media_mime, declared_size=message.media_size
            )
        except VoiceUnavailable:
            return refused(events.voice_unavailable(language), "unavailable")
        except MediaTooLarge:
            return refused(events.voice_too_long(language), "too_large", declaredSize=message.media_size)
        except MemoError as exc:
            return refused(events.voice_not_understood(language), "not_transcribed", code=exc.code)
        count("VoiceTranscribed")
        logger.info("VOICE_NOTE", extra={"result": "transcribed", "chars": len(text)})
        return message.model_copy(update={"text": text})

    def _quote_back(self, ctx: TurnContext, outcome: TurnOutcome, transcript: str) -> TurnOutcome:
        """A voice request that changes something or asks something: the transcript goes first."""
        quote = events.heard(transcript, ctx.profile.language)
        if outcome.reply is None:
            return outcome.model_copy(update={"reply": Reply.plain(quote)})
        reply = outcome.reply.model_copy(update={"text": f"{quote}\n\n{outcome.reply.text}"})
        return outcome.model_copy(update={"reply": reply})

    def _profile(self, stored: UserProfile | None, message: InboundMessage, now: datetime) -> UserProfile:
        current = stored or UserProfile(
            thread_id=message.thread_id,
            timezone=self._config.default_timezone,
            created_at=now,
            language=events.country_language(message.wa_id, "en"),
        )
        if current.timezone_source == "default":
            zone = phone_timezone(message.wa_id or current.wa_id)
            if zone is not None:
                current = current.model_copy(update={"timezone": zone, "timezone_source": "phone"})
        return current.model_copy(
            update={
                "language": detect_language(message.text, current.language)
                if message.text
                else current.language,
                "wa_id": message.wa_id or current.wa_id,
                "user_id": message.user_id or current.user_id,
                "name": message.profile_name or current.name,
            }
        )

    def _set_timezone(self, profile: UserProfile, now: datetime) -> TurnOutcome:
        """ "my timezone is London": the profile (saved with the turn) keeps the user's zone from now on."""
        zone = profile.timezone
        logger.info("TIMEZONE_SET", extra={"timezone": zone})
        return TurnOutcome(
            reply=Reply.plain(timezone_set_reply(zone, profile.language, now)), outcome="timezone_set"
        )

    def _mark_read(self, message: InboundMessage) -> None:
        try:
            self._sender.mark_read(message.phone_number_id, message.wamid)
        except WhatsAppSendError as exc:
            log_send_failure(exc, what="read_receipt")

    def _send(
        self,
        message: InboundMessage,
        reply: Reply,
        *,
        kind: OutboundKind,
        now: datetime,
        reaction: bool = False,
    ) -> bool:
        """Send the turn's reply, tagged (`memo.whatsapp.tracking`); its claim was written with the
        turn, so an unknown outcome is never sent again. Only a question a 👍/✅ may answer
        (`reaction`) is recorded by its outbound id: the reaction names nothing else."""
        tag = OutboundTag.new(kind, message.thread_id, seed=message.wamid)
        try:
            sent = self._sender.send(message.phone_number_id, message.thread_id, reply, tag=tag)
        except WhatsAppSendError as exc:
            log_send_failure(exc, what="reply")
            return False
        if reaction and kind == "hitl_question" and self._outbound is not None:
            self._outbound.record(
                [
                    OutboundRecord(
                        message_id=message_id,
                        thread_id=message.thread_id,
                        kind=kind,
                        at=now,
                        phone_number_id=message.phone_number_id,
                        token=tag.token,
                    )
                    for message_id in sent.message_ids
                    if message_id
                ]
            )
        return True


def _change_kind(change: PendingChange | None) -> str | None:
    return change.kind if change is not None else None


def _outbound_kind(outcome: TurnOutcome) -> OutboundKind:
    return "hitl_question" if outcome.reply_kind == "hitl_question" else "reply"


def _reaction_may_answer(outcome: TurnOutcome) -> bool:
    """The turn asks a question whose one safe default a 👍/✅ may give (`events.reaction_answer`)."""
    change = outcome.pending_change
    if outcome.reply_kind != "hitl_question" or change is None or change.state is None:
        return False
    pending = change.state.pending_hitl
    return pending is not None and events.has_single_safe_default(change.state, pending)


def _asks_the_notes_text(outcome: TurnOutcome) -> bool:
    """The turn asks what a note to save should say ("save this as a note" with nothing after it)."""
    change = outcome.pending_change
    output = change.state.planner_output if change is not None and change.state is not None else None
    return output is not None and output.missing_fields == [NOTE_TEXT_REQUIRED]


def _risky(outcome: TurnOutcome) -> bool:
    """A turn that changes something or asks before it does: a voice request's transcript is quoted."""
    return outcome.outcome in ("executing", "awaiting_review") or outcome.reply_kind == "hitl_question"


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")
