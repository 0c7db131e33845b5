"""Wiring of the reminders Lambda: its settings (read once) and adapters (built on first use)."""

from __future__ import annotations

import os
from functools import cached_property, lru_cache
from typing import Any

from pydantic import Field, field_validator

from memo import tables
from memo.aws.clients import client_for
from memo.clock import Clock, utc_now
from memo.reminders.store import DynamoReminderConversation, DynamoReminderItems
from memo.reminders.template import TemplateSender
from memo.settings import AwsSettings, FunctionSettings, WhatsAppSettings

DEFAULT_TEMPLATE = "memo_reminder"


class ReminderSettings(FunctionSettings):
    resolve_whatsapp_on_load = True

    aws: AwsSettings
    whatsapp: WhatsAppSettings
    items_table: str = Field(default=tables.ITEMS.default_name, alias="ITEMS_TABLE_NAME")
    conversation_table: str = Field(default=tables.CONVERSATION.default_name, alias="CONVERSATION_TABLE_NAME")
    memory_ttl_seconds: int = Field(default=30 * 24 * 3600, alias="MEMO_MEMORY_TTL_SECONDS", ge=60)
    template_name: str = Field(default=DEFAULT_TEMPLATE, alias="WHATSAPP_REMINDER_TEMPLATE", min_length=1)
    # "en=en_US,he=he": the profile's language -> the template's language code.
    template_languages: dict[str, str] = Field(
        default_factory=lambda: {"en": "en", "he": "he"}, alias="WHATSAPP_REMINDER_TEMPLATE_LANGUAGES"
    )
    default_phone_number_id: str | None = Field(default=None, alias="WHATSAPP_PHONE_NUMBER_ID")

    @field_validator("template_languages", mode="before")
    @classmethod
    def _pairs(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        pairs = [part.split("=", 1) for part in value.split(",") if part.strip()]
        if any(len(pair) != 2 or not pair[0].strip() or not pair[1].strip() for pair in pairs):
            raise ValueError("expected language=code pairs, e.g. en=en_US,he=he")
        return {k.strip(): v.strip() for k, v in pairs}


class ReminderRuntime:
    """Adapters built on first use; `clock` is the seam the local runtime's fake clock replaces."""

    def __init__(self, settings: ReminderSettings, *, clock: Clock = utc_now) -> None:
        self.settings = settings
        self.clock = clock

    @cached_property
    def dynamodb(self) -> Any:
        return client_for("dynamodb", self.settings.aws)

    @cached_property
    def sender(self) -> TemplateSender:
        return TemplateSender.from_settings(self.settings.whatsapp)

    @cached_property
    def items(self) -> DynamoReminderItems:
        return DynamoReminderItems(self.dynamodb, self.settings.items_table)

    @cached_property
    def conversation(self) -> DynamoReminderConversation:
        return DynamoReminderConversation(
            self.dynamodb,
            self.settings.conversation_table,
            message_ttl_seconds=self.settings.memory_ttl_seconds,
        )


@lru_cache(maxsize=1)
def runtime() -> ReminderRuntime:
    return ReminderRuntime(ReminderSettings.from_env(os.environ))
