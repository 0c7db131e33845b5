"""Fixtures for the turn's unit tests: the HITL tests' captured log events."""

from tests.unit.hitl.conftest import logs

__all__ = ["logs"]
