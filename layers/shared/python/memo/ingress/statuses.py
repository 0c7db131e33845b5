"""Statuses and account-level errors of a webhook batch: logged with Meta's codes, counted per code.

`sent`, `delivered`, `read` and `played` are logged (`WHATSAPP_STATUS`, with what Memo's tracking tag in
`biz_opaque_callback_data` says the message carried, and its send token). A `failed` status is a warning
(`WHATSAPP_DELIVERY_FAILED`) with Meta's code, title, details and the message id, counted in the
`DeliveryFailed_<code>` metric, and becomes a follow-up `QueuedMessage` (event `status.failed`, the tag kept) for
the turn path: that is where a reminder's failed delivery is marked and retried, exactly once (the
FIFO dedup id and the turn's idempotency key are `status.failed.<message id>`). Account-level errors
(`value.errors` of the `messages` field, e.g. 130429 rate limit) are logged (`WHATSAPP_ACCOUNT_ERROR`) and
counted per code; changes of other webhook fields (templates, account updates, calls: their `errors` and
`statuses` are not the account's nor a message's) are logged by name only (`WEBHOOK_FIELD_IGNORED`).
"""

from __future__ import annotations

from memo.ingress.ids import DEFAULT_MAX_ID_BYTES
from memo.ingress.messages import QueuedMessage, bound_ids
from memo.ingress.wire import WaError, WaStatus, WebhookPayload
from memo.observability import count, logger, mask_phone
from memo.whatsapp.tags import TAG_LIMIT, OutboundTag

FAILED_PREFIX = "status.failed."


def _codes(errors: tuple[WaError, ...]) -> list[int]:
    return [e.code for e in errors if e.code is not None]


def report(payload: WebhookPayload, *, max_id_bytes: int = DEFAULT_MAX_ID_BYTES) -> list[QueuedMessage]:
    """Log every status and account-level error; the follow-ups of `failed` statuses, their ids
    bounded as a message's are (`memo.ingress.messages.bound_ids`: an over-long id, none)."""
    follow_ups: list[QueuedMessage] = []
    for entry in payload.entry:
        for change in entry.changes:
            value = change.value
            if change.field != "messages":  # its errors and statuses (a call's) are not the account's
                logger.info("WEBHOOK_FIELD_IGNORED", extra={"field": change.field})
                continue
            for error in value.errors:
                count(f"AccountError_{error.code}")
                logger.warning(
                    "WHATSAPP_ACCOUNT_ERROR",
                    extra={
                        "metaErrorCode": error.code,
                        "title": error.title,
                        "errorMessage": error.message,
                        "details": error.details,
                    },
                )
            phone_number_id = value.metadata.phone_number_id if value.metadata else entry.id
            for status in value.statuses:
                follow_up = _status(status, phone_number_id)
                if follow_up is not None:
                    follow_up = bound_ids(follow_up, max_id_bytes)
                if follow_up is not None:
                    follow_ups.append(follow_up)
    return follow_ups


def _tag_fields(status: WaStatus) -> dict[str, object]:
    tag = OutboundTag.decode(status.biz_opaque_callback_data, recipient=status.recipient_id)
    if tag is None:
        return {"tracked": False}
    return {
        "tracked": True,
        "carried": tag.kind,
        "sendToken": tag.token,
        "part": tag.part,
        "reminderId": tag.reminder_id,
    }


def _status(status: WaStatus, phone_number_id: str) -> QueuedMessage | None:
    if status.status != "failed":
        # With Memo's tag, this confirms the send (`sendToken` matches a SEND_OUTCOME_UNKNOWN line).
        logger.info(
            "WHATSAPP_STATUS",
            extra={
                "status": status.status,
                "messageId": status.id,
                "recipient": mask_phone(status.recipient_id),
                **_tag_fields(status),
            },
        )
        return None
    codes = _codes(status.errors)
    first = status.errors[0] if status.errors else WaError()
    for code in codes or [0]:
        count(f"DeliveryFailed_{code}")
    logger.warning(
        "WHATSAPP_DELIVERY_FAILED",
        extra={
            "messageId": status.id,
            "metaErrorCode": first.code,
            "metaErrorCodes": codes,
            "title": first.title,
            "errorMessage": first.message,
            "details": first.details,
            "recipient": mask_phone(status.recipient_id),
            **_tag_fields(status),
        },
    )
    if not status.recipient_id:
        return None
    try:
        timestamp = int(status.timestamp)
    except ValueError:
        timestamp = 0
    return QueuedMessage(
        wamid=f"{FAILED_PREFIX}{status.id}",
        thread_id=status.recipient_id,
        wa_id=status.recipient_id if status.recipient_id.isdigit() else None,
        phone_number_id=phone_number_id,
        timestamp=timestamp,
        type="status",
        event="status.failed",
        target_id=status.id,
        error_codes=tuple(codes),
        reply_unsupported=False,
        outbound_tag=tag if (tag := status.biz_opaque_callback_data) and len(tag) <= TAG_LIMIT else None,
    )
