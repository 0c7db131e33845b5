"""The turn engine: one inbound message in, one reply out, with the thread's state kept in DynamoDB.

A turn reads, decides, then records:
  read    -> the thread (pendingHITL item, recent messages, latest actions, user profile) in one
             consistent query; the read receipt; the profile and language
  decide  -> what the message is (voice, "my timezone is ...", a caption, a welcome, text) and, for
             a request or an answer, the `TurnHandler`'s decision (the webhook's is
             `memo.turn.control.TurnControl`): one `TurnOutcome`, data, nothing written
  record  -> `memo.turn.recorder.TurnRecorder`: the turn's one conditional write, then the review
             wait, the start and the reply

What a message that is not typed text does comes from its row of the event table
(`memo.ingress.events`, documented in docs/whatsapp-events.md): silent events, a group message, a
changed number and a failed delivery are `memo.turn.other_events`; a reaction or an edit answers the
open question only in the narrow cases of `memo.turn.events`; a voice note is transcribed and turned
like text (`memo.turn.voice`). Every message Memo sends carries a tracking tag (`memo.whatsapp.tracking`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memo.conversation import smalltalk
from memo.conversation.model import ThreadSnapshot, UserProfile
from memo.conversation.pace import Admission, admit, sent_at, slow_down
from memo.conversation.store import ConversationStore
from memo.domain import NOTE_TEXT_REQUIRED, LatestAction
from memo.errors import AlreadyTurned
from memo.ingress.inbound import InboundMessage
from memo.observability import bind_turn, count, logger, unbind_turn
from memo.replies import Reply
from memo.text.language import detect_language
from memo.text.timezones import HOME, phone_timezone, timezone_statement
from memo.turn import events, voice
from memo.turn.other_events import OtherEvents, silent
from memo.turn.outcome import EngineConfig, TurnContext, TurnHandler, TurnOutcome, TurnResult
from memo.turn.recorder import TurnRecorder
from memo.whatsapp.sender import Sender, WhatsAppSendError, log_send_failure
from memo.whatsapp.tracking import OutboundLog

if TYPE_CHECKING:
    from memo.whatsapp.media import Transcriber


class TurnEngine:
    def __init__(
        self,
        *,
        store: ConversationStore,
        sender: Sender,
        handler: TurnHandler,
        recorder: TurnRecorder,
        clock: Callable[[], datetime],
        config: EngineConfig,
        others: OtherEvents,
        outbound: OutboundLog | None = None,
        transcriber: Transcriber | None = None,
    ) -> None:
        self._store = store
        self._sender = sender
        self._handler = handler
        self._recorder = recorder
        self._clock = clock
        self._config = config
        self._others = others
        self._outbound = outbound
        self._transcriber = transcriber

    def run(self, message: InboundMessage) -> TurnResult:
        trace_id = message.wamid  # immutable for the whole chain, across resumes
        bind_turn(trace_id, message.thread_id)
        try:
            return self._run(message, trace_id)
        finally:
            unbind_turn()

    def restart(self, stored: Mapping[str, Any]) -> None:
        """A redelivered message whose turn was done (`TurnRecorder.restart`)."""
        self._recorder.restart(stored)

    def _run(self, message: InboundMessage, trace_id: str) -> TurnResult:
        now = self._clock()
        count("Turns")
        other = self._others.handle(message, trace_id, now)
        if other is not None:
            return other
        read = self._read(message, trace_id, now)
        if isinstance(read, TurnResult):
            return read
        ctx, edited, admission = read
        ctx, outcome = self._decide(ctx, edited) if admission.turned else (ctx, _slow_down(ctx))
        logger.info(
            "TURN_DONE",
            extra={
                "outcome": outcome.outcome,
                "messageType": ctx.message.type,
                "event": ctx.message.event or ctx.message.type,
                "metaErrorCodes": ctx.message.error_codes or None,
            },
        )
        # Memory first, in one write with the reply's claim, the pending question's change and the
        # profile: a failed send never loses what the turn decided, and a rerun of the turn (SQS
        # redelivery after a crash) never answers twice.
        outcome, sent = self._recorder.apply(
            ctx,
            outcome,
            profile=ctx.profile,
            stored=ctx.snapshot.profile,
            lost_race=self._handler.lost_race,
        )
        return TurnResult(
            trace_id=trace_id,
            thread_id=ctx.message.thread_id,
            outcome=outcome.outcome,
            reply_text=outcome.reply.text if outcome.reply is not None else "",
            sent=sent,
        )

    # --- read -----------------------------------------------------------------------------------

    def _read(
        self, message: InboundMessage, trace_id: str, now: datetime
    ) -> tuple[TurnContext, list[LatestAction], Admission] | TurnResult:
        """The turn's context, what an edit of a request already carried out had done, and the
        message's admission at its sender's pace; a reaction or an edit that answers nothing is
        silent, and a message past the pace whose run was told already is dropped (no read receipt)."""
        edited: list[LatestAction] = []
        snapshot = self._load(message, now)
        if message.handling in ("reaction", "edit"):
            answer = self._answer_from(message, snapshot, now)
            if answer is not None:
                message = answer
            else:
                edited = events.edit_of_done(message, snapshot, now)
                if not edited:
                    return silent(message, trace_id, message.row.log)
        profile = self._profile(snapshot.profile, message, now)
        admission = admit(snapshot.pace, sent_at(message.timestamp, now), self._config.pace)
        if not admission.turned:
            _log_rate_limited(snapshot, admission)
            if not admission.notice:
                return TurnResult(
                    trace_id=trace_id,
                    thread_id=message.thread_id,
                    outcome="rate_limited",
                    reply_text="",
                    sent=False,
                )
        self._mark_read(message)
        ctx = TurnContext(
            message=message,
            trace_id=trace_id,
            profile=profile,
            snapshot=snapshot,
            now=now,
            pace=admission.pace or snapshot.pace,
        )
        return ctx, edited, admission

    def _load(self, message: InboundMessage, now: datetime) -> ThreadSnapshot:
        return self._store.load(message.thread_id, now=now, limit=self._config.recent_messages_limit)

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

    def _mark_read(self, message: InboundMessage) -> None:
        try:
            self._sender.mark_read(message.phone_number_id, message.wamid)
        except WhatsAppSendError as exc:
            log_send_failure(exc, what="read_receipt")

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

    # --- decide ---------------------------------------------------------------------------------

    def _decide(self, ctx: TurnContext, edited: list[LatestAction]) -> tuple[TurnContext, TurnOutcome]:
        """What the message is, and the turn's outcome (with the context it was decided in)."""
        message, profile = ctx.message, ctx.profile
        if edited:
            # Memo never re-runs a request because its text changed: it says what it had done.
            logger.info("EDIT_AFTER_DONE", extra={"targetId": message.target_id, "actions": len(edited)})
            text = events.edited_after_done(edited, profile.language)
            return ctx, TurnOutcome(reply=Reply.plain(text), outcome="edit_after_done")
        if message.handling == "voice":
            return self._voice(ctx)
        if message.actionable and (zone := timezone_statement(message.text)) is not None:
            if zone == HOME:  # "I'm back home": the zone of the user's number (else Memo's default)
                home = phone_timezone(message.wa_id or profile.wa_id) or self._config.default_timezone
                profile = profile.model_copy(update={"timezone": home, "timezone_source": "phone"})
            else:
                profile = profile.model_copy(update={"timezone": zone, "timezone_source": "user"})
            moved = _with_profile(ctx, profile)
            return moved, self._handler.zone_changed(moved, ctx.profile.timezone)
        if message.actionable:
            return ctx, self._text(ctx)
        if message.handling == "welcome":
            logger.info("WELCOME_SENT", extra={"language": profile.language})
            text = events.welcome(profile.language, profile.name)
            return ctx, TurnOutcome(reply=Reply.plain(text), outcome="welcome")
        return ctx, _unsupported(message, profile)

    def _handle(self, ctx: TurnContext) -> TurnOutcome:
        """The handler's decision, settled (`TurnRecorder.settle`) where it depends on another
        system's answer."""
        return self._recorder.settle(self._handler.handle(ctx))

    def _text(self, ctx: TurnContext) -> TurnOutcome:
        outcome = self._handle(ctx)
        if not ctx.message.row.key.endswith(".caption") or outcome.outcome != "hitl_clarification":
            return outcome
        if _asks_the_notes_text(outcome) and outcome.reply is not None:
            # "save this as a note" under a picture: the file cannot be kept, its words can.
            kept = f"{smalltalk.file_not_kept(ctx.profile.language)} {outcome.reply.text}"
            return outcome.model_copy(update={"reply": Reply.plain(kept)})
        # A caption that asks nothing ("look", "from the trip"): it is about the picture, which Memo
        # does not see; the "text only" reply, not "what would you like me to do?".
        return _unsupported(ctx.message, ctx.profile)

    def _voice(self, ctx: TurnContext) -> tuple[TurnContext, TurnOutcome]:
        transcribed = voice.transcribe(self._transcriber, ctx)
        if isinstance(transcribed, TurnOutcome):
            return ctx, transcribed
        profile = self._profile(ctx.profile, transcribed, ctx.now)
        heard = replace(ctx, message=transcribed, profile=profile)
        return heard, voice.quote_back(heard, self._handle(heard), transcribed.text)

    # --- when the turn keeps failing ------------------------------------------------------------

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
            reply = Reply.plain(smalltalk.turn_failed(profile.language))
            outcome = TurnOutcome(reply=reply, outcome="turn_failed")
            ctx = TurnContext(
                message=message,
                trace_id=message.wamid,
                profile=profile,
                snapshot=ThreadSnapshot(thread_id=message.thread_id),
                now=now,
            )
            try:
                recorded = self._recorder.record(ctx, outcome, profile, profile)
            except AlreadyTurned:
                recorded = "already_recorded"  # the turn wrote before it failed: its reply is claimed
            count("TurnsGivenUp")
            logger.error("TURN_GAVE_UP", extra={"answered": recorded == "recorded"})
            if recorded == "recorded":
                self._recorder.send(message, reply, kind="reply", now=now)
        finally:
            unbind_turn()


def _with_profile(ctx: TurnContext, profile: UserProfile) -> TurnContext:
    return replace(ctx, profile=profile)


def _log_rate_limited(snapshot: ThreadSnapshot, admission: Admission) -> None:
    """A message past its sender's pace: never dropped silently (a log line and a metric each)."""
    count("MessagesRateLimited")
    full_at = snapshot.pace.full_at.isoformat() if snapshot.pace is not None else None
    log = logger.warning if admission.notice else logger.info  # the first of a run stands out
    log("RATE_LIMITED", extra={"notice": admission.notice, "paceFullAt": full_at})


def _slow_down(ctx: TurnContext) -> TurnOutcome:
    """The first message past its sender's pace: the run's one notice, nothing else done."""
    return TurnOutcome(reply=Reply.plain(slow_down(ctx.profile.language)), outcome="rate_limited_notice")


def _unsupported(message: InboundMessage, profile: UserProfile) -> TurnOutcome:
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


def _asks_the_notes_text(outcome: TurnOutcome) -> bool:
    """The turn asks what a note to save should say ("save this as a note" with nothing after it)."""
    change = outcome.pending_change
    output = change.state.planner_output if change is not None and change.state is not None else None
    return output is not None and output.missing_fields == [NOTE_TEXT_REQUIRED]
