"""Shared fixtures: a clean environment per test and the local stack on moto."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from memo.local.moto_fit import fit_moto
from tests.support.clock import freeze_process_clock
from tests.support.shared_parsing import share_parsed_definitions

# Every in-process moto in the suite takes one request at a time, as real AWS would look to a
# caller (otherwise concurrency tests would report moto's own races), and rolls transactions back
# item by item (see memo.local.moto_fit).
fit_moto()
# botocore's JSON models and the state machine definition are parsed once per process, not once per
# local stack (most of a stack's start-up otherwise; see tests/support/shared_parsing.py).
share_parsed_definitions()

pytest_plugins = ["tests.support.stack", "tests.support.conversation"]


def pytest_configure(config: pytest.Config) -> None:
    """No test reads the real clock: the process's clock starts at `TEST_NOW` (tests/support/clock.py)
    before the first test module is imported and ticks on from there, never backwards (a token or a
    record made by an earlier test is never dated in a later test's future)."""
    config.stash[_FROZEN] = freeze_process_clock()


def pytest_unconfigure(config: pytest.Config) -> None:
    frozen = config.stash.get(_FROZEN, None)
    if frozen is not None:
        frozen.stop()


_FROZEN = pytest.StashKey["object"]()


TEST_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SECURITY_TOKEN": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_REGION": "us-east-1",
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_DISABLED": "true",
    "POWERTOOLS_LOG_LEVEL": "INFO",
    # A test's conversation may run dozens of turns at one instant of a fake clock, faster than any
    # person writes: the sender's pace is not what it tests. The pace's own tests set it
    # (tests/adversarial/test_limits.py, with the default of memo.settings.LimitsSettings).
    "MEMO_RATE_BURST": "100000",
}
# Configuration a developer may have exported must not leak into tests.
CLEARED = (
    "AWS_ENDPOINT_URL",
    "AWS_PROFILE",
    "WHATSAPP_APP_SECRET",
    "WHATSAPP_VERIFY_TOKEN",
    "WHATSAPP_ACCESS_TOKEN",
    "WHATSAPP_API_BASE_URL",
    "WHATSAPP_SECRET_ID",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_SECRET_ID",
    "MEMO_PLANNER_MODEL",
    "MEMO_INTERPRETER_MODEL",
    "HITL_TTL_SECONDS",
    "TURN_QUEUE_URL",
    "CONVERSATION_TABLE_NAME",
    "IDEMPOTENCY_TABLE_NAME",
)


@pytest.fixture(autouse=True)
def clean_env() -> Iterator[None]:
    saved = dict(os.environ)
    for key in CLEARED:
        os.environ.pop(key, None)
    os.environ.update(TEST_ENV)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
