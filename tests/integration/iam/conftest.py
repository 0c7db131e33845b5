"""The IAM tests' fixtures: one synthesis of the app per session (as the infra tests make it: bundling
off, the test-only placeholder layer), and the local stack under IAM enforcement per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.infra.conftest import Synthesized, synthesize
from tests.integration.iam.harness import IamStack
from tests.support.clock import TEST_NOW, FakeClock

IAM_DIR = Path(__file__).parent


@pytest.fixture(scope="session")
def synthesized(tmp_path_factory: pytest.TempPathFactory) -> Synthesized:
    return synthesize(tmp_path_factory.mktemp("cdk.out.iam"))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(TEST_NOW)


@pytest.fixture
def iam(synthesized: Synthesized, clock: FakeClock) -> Iterator[IamStack]:
    with IamStack(synthesized, clock=clock) as running:
        yield running


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`--dist loadgroup`) each module of the IAM tests keeps to one worker: one
    synthesis per module and run, and the flows and the removed grants on two workers."""
    for item in items:
        if IAM_DIR in item.path.parents:
            item.add_marker(pytest.mark.xdist_group(f"iam-{item.path.stem}"))
