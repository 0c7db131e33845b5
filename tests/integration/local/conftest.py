"""The local runtime's tests reuse the executor stage's fixtures: moto (`aws`), its DynamoDB, ledger,
counting capabilities, clock and runtime."""

from tests.integration.executor.conftest import aws, capabilities, clock, dynamodb, ledger, runtime

__all__ = ["aws", "capabilities", "clock", "dynamodb", "ledger", "runtime"]
