"""Domain errors raised below the handlers and turned into HTTP answers in one place, by type."""

from __future__ import annotations


class MemoError(Exception):
    """Base of Memo's domain errors; `code` is stable and machine-readable."""

    code = "MEMO_ERROR"
    http_status = 500

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


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
