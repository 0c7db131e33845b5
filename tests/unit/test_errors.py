"""Domain errors: each type's stable code and HTTP status, and the one place the webhook answers by them."""

from __future__ import annotations

import json

import pytest

from memo import errors
from memo.errors import MemoError
from memo.ingress.http import WebhookHttp


@pytest.mark.parametrize(
    ("error", "code", "status"),
    [
        (errors.MemoError, "MEMO_ERROR", 500),
        (errors.ConfigurationError, "CONFIGURATION_ERROR", 500),
        (errors.SignatureMissing, "SIGNATURE_MISSING", 401),
        (errors.SignatureInvalid, "SIGNATURE_INVALID", 403),
        (errors.VerificationFailed, "VERIFICATION_FAILED", 403),
        (errors.PayloadTooLarge, "PAYLOAD_TOO_LARGE", 413),
        (errors.MalformedPayload, "MALFORMED_JSON", 400),
        (errors.NotAWhatsAppPayload, "NOT_A_WHATSAPP_PAYLOAD", 400),
        (errors.EnqueueFailed, "ENQUEUE_FAILED", 503),  # 5xx: Meta delivers the webhook again
        (errors.ConditionFailed, "CONDITION_FAILED", 409),
        (errors.ServiceFault, "SERVICE_FAULT", 500),
        (errors.TransientFault, "TRANSIENT_FAULT", 503),
    ],
)
def test_each_error_type_has_its_code_and_http_status(error: type[MemoError], code: str, status: int) -> None:
    raised = error("what went wrong")
    assert (raised.code, raised.http_status, raised.message, str(raised)) == (
        code,
        status,
        "what went wrong",
        "what went wrong",
    )


def test_a_transient_fault_is_a_service_fault_that_may_be_retried() -> None:
    fault = errors.TransientFault("throttled")
    assert isinstance(fault, errors.ServiceFault)
    assert fault.http_status == 503 != errors.ServiceFault.http_status


def test_an_errors_own_code_does_not_change_its_type() -> None:
    raised = errors.ConditionFailed("lost", code="PENDING_EXISTS")
    assert raised.code == "PENDING_EXISTS"
    assert errors.ConditionFailed.code == errors.ConditionFailed("again").code == "CONDITION_FAILED"


def test_errors_that_carry_what_the_caller_needs() -> None:
    unprocessed = errors.UnprocessedWrites(3)
    assert (unprocessed.count, unprocessed.code, unprocessed.http_status) == (3, "UNPROCESSED_WRITES", 503)
    assert "3 writes" in unprocessed.message
    turned = errors.AlreadyTurned({"executionArn": "arn:x"})
    assert (turned.result, turned.code, turned.http_status) == (
        {"executionArn": "arn:x"},
        "ALREADY_TURNED",
        200,
    )


@pytest.mark.parametrize(
    "error",
    [
        errors.VerificationFailed,
        errors.SignatureMissing,
        errors.PayloadTooLarge,
        errors.EnqueueFailed,
        errors.ServiceFault,
    ],
)
def test_the_webhook_answers_an_error_by_its_type(error: type[MemoError]) -> None:
    def refuse() -> str:
        raise error("refused for a reason")

    http = WebhookHttp(app_secret=refuse, verify_token=refuse, queue=refuse, max_body_bytes=1024)  # type: ignore[arg-type]
    answer = http({"rawPath": "/webhook", "requestContext": {"http": {"method": "GET"}}})
    assert answer["statusCode"] == error.http_status
    assert json.loads(answer["body"]) == {"error": {"code": error.code, "message": "refused for a reason"}}
