"""Domain errors raised below the handlers and turned into HTTP answers in one place, by type."""

from __future__ import annotations

from typing import Any


class MemoError(Exception):
    """Base of Memo's domain errors; `code` is stable and machine-readable."""

    code = "MEMO_ERROR"
    http_status = 500

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class ConfigurationError(MemoError):
    """The configuration is invalid, or a setting a runtime needs is missing; the message names it.
    (Also importable from `memo.settings`; defined here so that settings read without pydantic raise it too.)"""

    code = "CONFIGURATION_ERROR"
    http_status = 500


class SignatureMissing(MemoError):
    code = "SIGNATURE_MISSING"
    http_status = 401


class SignatureInvalid(MemoError):
    code = "SIGNATURE_INVALID"
    http_status = 403


class VerificationFailed(MemoError):
    code = "VERIFICATION_FAILED"
    http_status = 403


class PayloadTooLarge(MemoError):
    code = "PAYLOAD_TOO_LARGE"
    http_status = 413


class MalformedPayload(MemoError):
    code = "MALFORMED_JSON"
    http_status = 400


class NotAWhatsAppPayload(MemoError):
    code = "NOT_A_WHATSAPP_PAYLOAD"
    http_status = 400


class EnqueueFailed(MemoError):
    """Some messages could not be put on the queue: answer 5xx so Meta retries (dedup makes it safe)."""

    code = "ENQUEUE_FAILED"
    http_status = 503


class ConditionFailed(MemoError):
    """A conditional write lost: the item was not in the state the write required. Adapters turn it
    into the caller's own outcome (a domain error such as `PendingExists`, or a plain result)."""

    code = "CONDITION_FAILED"
    http_status = 409


class ItemTooLarge(MemoError):
    """An item would be over DynamoDB's item size limit (`memo.aws.dynamo`): refused before the
    request goes out, so the caller answers clearly instead of meeting the service's refusal.
    `what` names the kind of item, `size` and `limit` are in bytes."""

    code = "ITEM_TOO_LARGE"
    http_status = 413

    def __init__(self, what: str, size: int, limit: int) -> None:
        super().__init__(f"the {what} item would be {size} bytes; DynamoDB's limit is {limit}")
        self.what = what
        self.size = size
        self.limit = limit


class ServiceFault(MemoError):
    """An AWS call failed for a reason no adapter turns into a domain outcome (access denied, a
    missing table, a rejected request, or a `TransientFault`)."""

    code = "SERVICE_FAULT"
    http_status = 500


class TransientFault(ServiceFault):
    """Throttling, a 5xx answer, a timeout or a lost connection: the same call may succeed if retried."""

    code = "TRANSIENT_FAULT"
    http_status = 503


class UnprocessedWrites(MemoError):
    """DynamoDB kept returning unprocessed items of a batch write after the bounded retries."""

    code = "UNPROCESSED_WRITES"
    http_status = 503

    def __init__(self, count: int) -> None:
        super().__init__(f"{count} writes left unprocessed")
        self.count = count


class AlreadyTurned(MemoError):
    """The turn's write found the message's idempotency record completed by an earlier run: this run
    records and sends nothing. `result` is what that run stored (its plan's start, issued again)."""

    code = "ALREADY_TURNED"
    http_status = 200

    def __init__(self, result: dict[str, Any]) -> None:
        super().__init__("the message was turned by an earlier run")
        self.result = result
