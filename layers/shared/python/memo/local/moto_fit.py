"""In-process moto, fitted for the local stack and the tests.

moto stands in for DynamoDB, SQS, Step Functions and the rest when Memo runs locally (`make run`,
`make serve`, the tests, `make bench`). Three things about it would otherwise make local runs say
something untrue about Memo, or grow slower the longer they run:

- its backends are not thread-safe: requests are let in one at a time (`_serialise`);
- a TransactWriteItems deep-copies every table it names, once per entry, to be able to roll back:
  the cost grew with everything stored, so a turn's transaction slowed as a chat went on. The
  transaction's own items are saved and put back instead (`_roll_back_items_not_tables`);
- a Query of a table compares every item of the table with the partition key it asks for: each
  reads the partition it names (`_queries_read_one_partition`);
- its responses are built by walking botocore's model member by member, about a millisecond per
  item a Query returns. DynamoDB attribute values are stored as they travel on the wire, so they
  are answered as they are (`_attribute_values_as_stored`), checked against moto's own serializer
  by the tests;
- an SQS send and receive read every attribute of the queue (for its content-based deduplication,
  and for each message received its retention period), its message counts among them: a walk over
  every message queued, so a queue holding a flood was sent to and received from in quadratic time.
  The retention period is read as it is (`_retention_read_alone`), and a send counts no messages
  (`_sends_count_no_messages`: it reads none of the counts).

None of this changes what a request answers; `tests/integration/local/` pins each part.
"""

from __future__ import annotations

import base64
import copy
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_MOTO_LOCK = threading.RLock()
_UNLOCKED_HOST = re.compile(r"https?://lambda\.")


def fit_moto() -> None:
    """Fit in-process moto for the local stack and the tests (idempotent: once per process)."""
    _serialise()
    _roll_back_items_not_tables()
    _queries_read_one_partition()
    _attribute_values_as_stored()
    _retention_read_alone()
    _sends_count_no_messages()


def _serialise() -> None:
    """Let one request at a time into in-process moto.

    moto's backends are not thread-safe: a cancelled TransactWriteItems restored a snapshot of the
    table (before `_roll_back_items_not_tables`) and so erased what another thread wrote meanwhile,
    and its tables are plain dicts. Real DynamoDB does not lose writes, so without this lock a
    concurrency test, or the local stack under load, reports lost writes that production would
    never see.
    """
    from moto.core.botocore_stubber import BotocoreStubber

    if getattr(BotocoreStubber.process_request, "_memo_serialised", False):
        return
    unlocked = BotocoreStubber.process_request

    def process_request(self: BotocoreStubber, request: Any) -> Any:
        if _UNLOCKED_HOST.match(request.url):
            # A Lambda invoke runs one of our handlers (see memo.local.stepfunctions), whose own AWS
            # calls take the lock one by one; holding it for the whole handler would stall the
            # webhook and every other thread for the handler's duration.
            return unlocked(self, request)
        with _MOTO_LOCK:
            return unlocked(self, request)

    process_request._memo_serialised = True  # type: ignore[attr-defined]
    BotocoreStubber.process_request = process_request  # type: ignore[method-assign]


# --- moto's TransactWriteItems, rolled back item by item --------------------------------------------
#
# moto makes a transaction all-or-nothing by deep-copying each table it names, once per entry, before
# applying anything, and putting the copies back if an entry fails. That copy grows with everything
# the local stack has stored: after a few hundred messages a turn's one transaction spent most of
# its time copying the conversation table, and `make run` and the tests slowed as they went. Real
# DynamoDB does no such thing. Here moto's table copies are skipped and the items the transaction
# names (at most 100, one entry each) are saved before it runs and put back if it fails: the same
# all-or-nothing, at the cost of the transaction's own items.

_ROLLING_BACK_ITEMS = threading.local()


class _CopyKeepingTables:
    """moto.dynamodb.models' `copy`: deep copies as usual, except a table inside one of our
    transactions, whose items are saved one by one instead."""

    table: type = type(None)  # moto's Table, set when installed (moto is imported only then)

    @classmethod
    def deepcopy(cls, value: Any, memo: dict[int, Any] | None = None) -> Any:
        if isinstance(value, cls.table) and getattr(_ROLLING_BACK_ITEMS, "active", False):
            return value
        return copy.deepcopy(value, memo)


@contextmanager
def _tables_not_copied() -> Iterator[None]:
    _ROLLING_BACK_ITEMS.active = True
    try:
        yield
    finally:
        _ROLLING_BACK_ITEMS.active = False


def _saved_items(backend: Any, transact_items: list[dict[str, Any]]) -> list[tuple[Any, Any, Any, Any]]:
    """(table, hash key, range key, a copy of the item or None) for every item the transaction names;
    an entry moto will refuse (unknown table, malformed key) changes nothing and is skipped."""
    from moto.dynamodb.exceptions import MockValidationException

    saved = []
    for entry in transact_items:
        for op in entry.values():
            table = backend.tables.get(op.get("TableName"))
            if table is None:
                continue
            key = op.get("Key")
            if key is None and isinstance(op.get("Item"), dict):
                key = {
                    name: op["Item"][name]
                    for name in (table.hash_key_attr, table.range_key_attr)
                    if name is not None and name in op["Item"]
                }
            try:
                hash_key, range_key = backend.get_keys_value(table, key or {})
            except MockValidationException:
                continue  # moto refuses this entry with its own error, having changed nothing
            saved.append((table, hash_key, range_key, copy.deepcopy(table.get_item(hash_key, range_key))))
    return saved


def _put_back(saved: list[tuple[Any, Any, Any, Any]]) -> None:
    for table, hash_key, range_key, item in reversed(saved):
        if item is None:
            table.delete_item(hash_key, range_key)
        elif range_key is not None:
            table.items[hash_key][range_key] = item
        else:
            table.items[hash_key] = item


def _roll_back_items_not_tables() -> None:
    import moto.dynamodb.models as models

    if getattr(models.DynamoDBBackend.transact_write_items, "_memo_item_rollback", False):
        return
    all_tables = models.DynamoDBBackend.transact_write_items

    def transact_write_items(self: Any, transact_items: list[dict[str, Any]]) -> None:
        saved = _saved_items(self, transact_items)
        try:
            with _tables_not_copied():
                all_tables(self, transact_items)
        except Exception:  # any refusal, moto's or ours: the items go back as they were, and it is raised
            _put_back(saved)
            raise

    transact_write_items._memo_item_rollback = True  # type: ignore[attr-defined]
    _CopyKeepingTables.table = models.Table
    models.copy = _CopyKeepingTables  # type: ignore[assignment]
    models.DynamoDBBackend.transact_write_items = transact_write_items  # type: ignore[method-assign]


# --- a Query reads its partition ----------------------------------------------------------------------


def _queries_read_one_partition() -> None:
    from moto.dynamodb.models.table import Table

    if getattr(Table.query, "_memo_one_partition", False):
        return
    whole_table = Table.query
    index_at = 6  # `index_name`, the 8th positional parameter of moto's `Table.query` (after hash_key)

    def query(self: Any, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
        index_name = args[index_at] if len(args) > index_at else kwargs.get("index_name")
        if index_name or hash_key is None or self.range_key_attr is None:
            return whole_table(self, hash_key, *args, **kwargs)
        partition = self.items.get(hash_key, {})
        # moto's query filters `self.all_items()` by the partition key: hand it the partition only.
        self.all_items = lambda: list(partition.values())
        try:
            return whole_table(self, hash_key, *args, **kwargs)
        finally:
            del self.all_items

    query._memo_one_partition = True  # type: ignore[attr-defined]
    query._memo_whole_table = whole_table  # type: ignore[attr-defined]
    Table.query = query  # type: ignore[method-assign]


# --- DynamoDB attribute values, answered as stored ---------------------------------------------------


def _wire(value: dict[str, Any]) -> dict[str, Any]:
    """One stored attribute value as moto's JSON serializer writes it: binaries in base64, maps
    and lists value by value, everything else as it is."""
    wire: dict[str, Any] = {}
    for kind, inner in value.items():
        if inner is None:
            continue
        if kind in ("S", "N"):
            wire[kind] = inner if isinstance(inner, str) else str(inner)
        elif kind == "B":
            wire[kind] = _base64(inner)
        elif kind == "BS":
            wire[kind] = [_base64(member) for member in inner]
        elif kind in ("SS", "NS"):
            wire[kind] = [str(member) for member in inner]
        elif kind == "M":
            wire[kind] = {name: _wire(member) for name, member in inner.items()}
        elif kind == "L":
            wire[kind] = [_wire(member) for member in inner]
        elif kind in ("BOOL", "NULL"):
            wire[kind] = inner
        else:
            raise _NotAsStored(kind)
    return wire


def _base64(value: str | bytes) -> str:
    return base64.b64encode(value.encode() if isinstance(value, str) else value).decode()


class _NotAsStored(Exception):
    """A value that is not a stored DynamoDB attribute value: moto's serializer takes it."""


def _attribute_values_as_stored() -> None:
    from moto.core.serialize import BaseJSONSerializer

    if getattr(BaseJSONSerializer._serialize_type_structure, "_memo_as_stored", False):
        return
    by_member = BaseJSONSerializer._serialize_type_structure

    def _serialize_type_structure(self: Any, serialized: Any, value: Any, shape: Any, key: str) -> None:
        if shape.name == "AttributeValue" and isinstance(value, dict) and key:
            try:
                self._default_serialize(serialized, _wire(value), shape, key)
                return
            except _NotAsStored:
                pass
        by_member(self, serialized, value, shape, key)

    _serialize_type_structure._memo_as_stored = True  # type: ignore[attr-defined]
    _serialize_type_structure._memo_by_member = by_member  # type: ignore[attr-defined]
    BaseJSONSerializer._serialize_type_structure = _serialize_type_structure  # type: ignore[method-assign]


# --- an SQS receive reads the retention period alone ---------------------------------------------------


def _retention_read_alone() -> None:
    from moto.core.utils import unix_time
    from moto.sqs.models import SQSBackend

    if getattr(SQSBackend.is_message_valid_based_on_retention_period, "_memo_alone", False):
        return
    every_attribute = SQSBackend.is_message_valid_based_on_retention_period

    def is_message_valid_based_on_retention_period(self: Any, queue_name: str, message: Any) -> bool:
        retention_period = int(self.get_queue(queue_name).message_retention_period)
        return bool(retention_period + message.sent_timestamp / 1000 > unix_time())

    is_message_valid_based_on_retention_period._memo_alone = True  # type: ignore[attr-defined]
    is_message_valid_based_on_retention_period._memo_every_attribute = every_attribute  # type: ignore[attr-defined]
    SQSBackend.is_message_valid_based_on_retention_period = is_message_valid_based_on_retention_period  # type: ignore[method-assign]


_SENDING = threading.local()
_COUNTS = (
    "approximate_number_of_messages",
    "approximate_number_of_messages_delayed",
    "approximate_number_of_messages_not_visible",
)


def _sends_count_no_messages() -> None:
    from moto.sqs.models import Queue, SQSBackend

    if getattr(SQSBackend.send_message, "_memo_uncounted", False):
        return
    for name in _COUNTS:
        counted = getattr(Queue, name)

        def count(self: Any, counted: Any = counted) -> int:
            return 0 if getattr(_SENDING, "active", False) else int(counted.fget(self))

        setattr(Queue, name, property(count))
    for name in ("send_message", "send_message_batch"):
        counting = getattr(SQSBackend, name)

        def send(self: Any, *args: Any, counting: Any = counting, **kwargs: Any) -> Any:
            outer = getattr(_SENDING, "active", False)
            _SENDING.active = True
            try:
                return counting(self, *args, **kwargs)
            finally:
                _SENDING.active = outer

        send._memo_uncounted = True  # type: ignore[attr-defined]
        setattr(SQSBackend, name, send)
