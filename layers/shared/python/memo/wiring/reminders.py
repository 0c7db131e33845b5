"""Wiring of the reminders Lambda (`memo.wiring` pattern): the template sender, the items,
the conversation and the schedules of deleted reminders, built on first use."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from memo.aws.clients import client_for
from memo.aws.conversation_thread import DynamoConversationStore
from memo.aws.reminder_deliveries import DynamoReminderItems
from memo.aws.reminder_failures import DynamoReminderFailures
from memo.aws.scheduler import LeftoverSchedules
from memo.aws.secrets import resolve_whatsapp
from memo.reminders.store import ReminderConversation
from memo.reminders.template import TemplateSender
from memo.settings import RemindersSettings
from memo.wiring import LambdaRuntime

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


class RemindersRuntime(LambdaRuntime[RemindersSettings]):
    settings_model = RemindersSettings

    @cached_property
    def dynamodb(self) -> DynamoDBClient:
        return client_for("dynamodb", self.settings.aws)

    @cached_property
    def sender(self) -> TemplateSender:
        return TemplateSender.from_settings(resolve_whatsapp(self.settings.whatsapp))

    @cached_property
    def unconfirmed(self) -> DynamoReminderFailures:
        """Marks a delivery whose send had an unknown outcome (Meta's statuses settle it by its tag)."""
        return DynamoReminderFailures(self.dynamodb, self.settings.items_table)

    @cached_property
    def leftovers(self) -> LeftoverSchedules:
        """Deletes the schedule that fired for a deleted reminder."""
        return LeftoverSchedules(
            client_for("scheduler", self.settings.aws), group_name=self.settings.schedule_group
        )

    @cached_property
    def items(self) -> DynamoReminderItems:
        return DynamoReminderItems(self.dynamodb, self.settings.items_table)

    @cached_property
    def conversation(self) -> ReminderConversation:
        return ReminderConversation(
            DynamoConversationStore(self.dynamodb, self.settings.conversation_table),
            message_ttl_seconds=self.settings.memory_ttl_seconds,
        )
