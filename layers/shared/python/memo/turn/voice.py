"""A voice note: transcribed and turned like text; a request that changes or asks something quotes
back what Memo heard, so a misheard word is seen before anything runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memo.errors import MemoError
from memo.ingress.inbound import InboundMessage
from memo.observability import count, logger
from memo.replies import Reply
from memo.turn import events
from memo.turn.outcome import TurnContext, TurnOutcome

if TYPE_CHECKING:
    from memo.whatsapp.media import Transcriber


def transcribe(transcriber: Transcriber | None, ctx: TurnContext) -> InboundMessage | TurnOutcome:
    """The message with the note's words as its text, or the answer when they cannot be had."""
    from memo.whatsapp.media import MediaTooLarge, VoiceUnavailable

    message = ctx.message
    language = ctx.profile.language

    def refused(text: str, result: str, **extra: object) -> TurnOutcome:
        logger.info("VOICE_NOTE", extra={"result": result, **extra})
        return TurnOutcome(reply=Reply.plain(text), outcome=f"voice_{result}")

    if transcriber is None or not message.media_id:
        return refused(events.voice_unavailable(language), "unavailable")
    try:
        text = transcriber.transcribe(
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


def quote_back(ctx: TurnContext, outcome: TurnOutcome, transcript: str) -> TurnOutcome:
    """A voice request that changes something or asks something: the transcript goes first."""
    if not risky(outcome):
        return outcome
    quote = events.heard(transcript, ctx.profile.language)
    if outcome.reply is None:
        return outcome.model_copy(update={"reply": Reply.plain(quote)})
    reply = outcome.reply.model_copy(update={"text": f"{quote}\n\n{outcome.reply.text}"})
    return outcome.model_copy(update={"reply": reply})


def risky(outcome: TurnOutcome) -> bool:
    """A turn that changes something or asks before it does: a voice request's transcript is quoted."""
    return outcome.outcome in ("executing", "awaiting_review") or outcome.reply_kind == "hitl_question"
