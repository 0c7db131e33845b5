"""What travels through the executor state machine: execution names and the args hash an approval binds."""

from __future__ import annotations

import re

from memo.executor.contracts import EXECUTION_NAME_PREFIX, args_hash, execution_name


def test_an_execution_name_fits_step_functions_for_any_trace_id() -> None:
    name = execution_name("wamid." + "x" * 500 + "/+=")
    assert name.startswith(EXECUTION_NAME_PREFIX) and len(name) <= 80
    assert re.fullmatch(r"[A-Za-z0-9_-]+", name)
    assert execution_name("wamid.1") == execution_name("wamid.1") != execution_name("wamid.2")


def test_the_args_hash_ignores_key_order_and_sees_every_value() -> None:
    assert args_hash({"a": 1, "b": ["x"]}) == args_hash({"b": ["x"], "a": 1})
    assert args_hash({"a": 1, "b": ["x"]}) != args_hash({"a": 1, "b": ["y"]})
    assert args_hash({"title": "חלב"}) != args_hash({"title": "milk"})
