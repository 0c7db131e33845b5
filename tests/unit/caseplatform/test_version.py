"""The version the platform reports is the installed distribution's, or `0+unknown` where none is."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import metadata

import pytest

from caseplatform import version


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    version.platform_version.cache_clear()
    yield
    version.platform_version.cache_clear()


def test_the_version_is_the_memo_distributions() -> None:
    assert version.platform_version() == metadata.version("memo")


def test_without_distribution_metadata_the_version_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(version.metadata, "version", missing)
    assert version.platform_version() == "0+unknown"
