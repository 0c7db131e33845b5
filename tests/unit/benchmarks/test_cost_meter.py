"""The capacity units `make cost` counts follow DynamoDB's billing rules, for any item size."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from benchmarks.cost import seconds_billed
from benchmarks.cost_meter import Usage, read_units, write_units

KEY = {"pk": {"S": "USER#1"}, "sk": {"S": "NOTE#1"}}


def item(text: str) -> dict[str, Any]:
    return {**KEY, "body": {"S": text}}


def size(document: dict[str, Any]) -> int:
    return sum(len(name) + len(value["S"].encode()) for name, value in document.items())


def nothing_stored(_table: str, _key: dict[str, Any]) -> int:
    return 0


@given(st.integers(min_value=0, max_value=20_000))
def test_a_put_costs_one_unit_per_started_kilobyte(length: int) -> None:
    put = item("x" * length)
    units = write_units("PutItem", {"TableName": "t", "Item": put}, nothing_stored)
    assert units == max(1, math.ceil(size(put) / 1024))


@given(st.integers(min_value=0, max_value=20_000), st.integers(min_value=0, max_value=20_000))
def test_a_put_over_a_larger_item_costs_the_larger_one(length: int, stored: int) -> None:
    put = item("x" * length)
    units = write_units("PutItem", {"TableName": "t", "Item": put}, lambda _t, _k: stored)
    assert units == max(1, math.ceil(max(size(put), stored) / 1024))


def test_a_transaction_costs_twice_each_item_and_its_condition_checks() -> None:
    small = item("x")
    params = {
        "TransactItems": [
            {"Put": {"TableName": "t", "Item": small}},
            {"ConditionCheck": {"TableName": "t", "Key": KEY}},
            {"Delete": {"TableName": "t", "Key": KEY}},
        ]
    }
    assert write_units("TransactWriteItems", params, lambda _t, _k: 3000) == 2 * (1 + 3 + 3)


@given(st.lists(st.integers(min_value=0, max_value=9000), max_size=8), st.booleans())
def test_a_query_is_billed_on_the_sum_of_its_items(lengths: list[int], consistent: bool) -> None:
    items = [item("y" * n) for n in lengths]
    units = read_units("Query", {"ConsistentRead": consistent}, {"Items": items})
    blocks = max(1, math.ceil(sum(size(i) for i in items) / 4096))
    assert units == blocks * (1.0 if consistent else 0.5)


def test_a_get_of_nothing_still_costs_a_read() -> None:
    assert read_units("GetItem", {}, {}) == 0.5
    assert read_units("GetItem", {"ConsistentRead": True}, {}) == 1.0


def test_usage_adds_and_scales_every_figure() -> None:
    one = Usage(http_requests=2, write_units=3)
    one.lambda_invocations["webhook"] = 2
    total = (one + one).scaled(0.5)
    assert total.http_requests == 2 and total.write_units == 3
    assert total.lambda_invocations["webhook"] == 2
    assert total.traces == 2  # each webhook invocation enters from outside a trace


def test_lambda_duration_is_billed_per_started_millisecond() -> None:
    assert seconds_billed(0.0101, 1) == 0.011
    assert seconds_billed(0, 0) == 0
