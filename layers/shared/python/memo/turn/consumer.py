"""The turn path: SQS FIFO batch -> Powertools idempotency (key = wamid) -> turn engine.

FIFO partial failures: a failed record fails only its own message group (the thread) for this batch;
other threads go on. A message already turned (same wamid, redelivered by Meta or by SQS) is turned
again up to its one write, which finds the message's record and records and sends nothing
(`memo.aws.idempotency`: the record is written by the turn's own transaction); the result the first
run stored is returned, and its plan's start issued again (`on_duplicate`). One that a Lambda of an
earlier release is turning (its INPROGRESS record) fails its record so SQS redelivers it after the
first finishes. A turn that fails on the queue's last receive (the next
stop is the dead-letter queue) tells the person it could not handle the message, once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.batch import SqsFifoPartialProcessor, process_partial_response
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.idempotency import IdempotencyConfig, idempotent_function
from aws_lambda_powertools.utilities.idempotency.exceptions import IdempotencyAlreadyInProgressError
from aws_lambda_powertools.utilities.idempotency.persistence.base import BasePersistenceLayer
from aws_lambda_powertools.utilities.typing import LambdaContext

from memo.errors import AlreadyTurned
from memo.ingress.inbound import InboundMessage
from memo.observability import count, logger
from memo.turn.outcome import TurnResult


class TurnProcessor:
    """One per runtime: holds the idempotency config and the idempotent turn function.

    `turn` runs one message's turn (the engine's `run`); `persistence` is where Powertools keeps the
    idempotency records (`memo.aws.idempotency`), each kept `expiry_seconds`.
    """

    def __init__(
        self,
        turn: Callable[[InboundMessage], TurnResult],
        *,
        persistence: BasePersistenceLayer,
        expiry_seconds: int,
        on_duplicate: Callable[[dict[str, Any]], None] | None = None,
        on_last_failure: Callable[[InboundMessage], None] | None = None,
        max_receives: int | None = None,
    ) -> None:
        self._on_duplicate = on_duplicate
        self._on_last_failure = on_last_failure
        self._max_receives = max_receives
        self.config = IdempotencyConfig(
            event_key_jmespath="wamid",
            raise_on_no_idempotency_key=True,
            expires_after_seconds=expiry_seconds,
        )
        self._local = threading.local()

        def run_turn(message: InboundMessage) -> dict[str, Any]:
            self._local.ran = True
            return turn(message).model_dump(mode="json")

        # Powertools prefixes idempotency keys with the function's qualified name: keep it stable so
        # records written before a deploy still match after it.
        run_turn.__qualname__ = "turn"
        run_turn = idempotent_function(
            data_keyword_argument="message", persistence_store=persistence, config=self.config
        )(run_turn)

        self._run_turn: Callable[..., dict[str, Any]] = run_turn

    def record(self, record: SQSRecord) -> dict[str, Any]:
        message = InboundMessage.model_validate_json(record.body)
        self._local.ran = False
        try:
            result = self._run_turn(message=message)
        except AlreadyTurned as turned:
            count("DuplicatesSkipped")
            logger.info("DUPLICATE_SKIPPED", extra={"traceId": message.wamid})
            if self._on_duplicate is not None:
                self._on_duplicate(turned.result)
            return turned.result
        except IdempotencyAlreadyInProgressError:
            count("DuplicatesInProgress")
            logger.info("TURN_IN_PROGRESS_ELSEWHERE", extra={"traceId": message.wamid})
            raise
        except Exception:
            # Only a turn that started has this message's claim to answer with (a failure inside
            # Powertools' own claim leaves nothing to claim the reply by).
            if self._local.ran and self._last_receive(record):
                self._give_up(message)
            raise
        return result

    def _last_receive(self, record: SQSRecord) -> bool:
        """The queue moves this message to its dead-letter queue if this receive fails too."""
        if self._on_last_failure is None or self._max_receives is None:
            return False
        try:
            return int(record.attributes.approximate_receive_count) >= self._max_receives
        except (KeyError, ValueError):
            return False

    def _give_up(self, message: InboundMessage) -> None:
        """The turn failed on the last receive: the person is told (`TurnEngine.give_up`); a failure
        of that too is logged, and the turn's own error goes on to the dead-letter queue."""
        assert self._on_last_failure is not None
        try:
            self._on_last_failure(message)
        except Exception:  # noqa: BLE001 - the turn's own error must still reach the dead-letter queue
            logger.exception("TURN_FAILURE_REPLY_FAILED", extra={"traceId": message.wamid})

    def batch(self, event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        self.config.register_lambda_context(context)
        processor = SqsFifoPartialProcessor(skip_group_on_error=True)
        # With ReportBatchItemFailures, "every record failed" is answered like any partial failure.
        processor.raise_on_entire_batch_failure = False
        response = process_partial_response(
            event=event, record_handler=self.record, processor=processor, context=context
        )
        return dict(response)
