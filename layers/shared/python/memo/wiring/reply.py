"""Wiring of the responder Lambda: its settings (read once) and its adapters (built on first use)."""

from __future__ import annotations

import os
from functools import cached_property, lru_cache

from pydantic import Field

from memo import tables
from memo.aws.clients import client_for
from memo.clock import Clock, utc_now
from memo.reply.memory import DynamoResponderMemory
from memo.settings import AwsSettings, FunctionSettings, WhatsAppSettings
from memo.whatsapp.sender import GraphApiSender


class ResponderSettings(FunctionSettings):
    resolve_whatsapp_on_load = True

    aws: AwsSettings
    whatsapp: WhatsAppSettings
    conversation_table: str = Field(default=tables.CONVERSATION.default_name, alias="CONVERSATION_TABLE_NAME")
    memory_ttl_seconds: int = Field(default=30 * 24 * 3600, alias="MEMO_MEMORY_TTL_SECONDS", ge=60)


class ResponderRuntime:
    """Adapters built on first use; `clock` is the seam the local runtime's fake clock replaces."""

    def __init__(self, settings: ResponderSettings, *, clock: Clock = utc_now) -> None:
        self.settings = settings
        self.clock = clock

    @cached_property
    def sender(self) -> GraphApiSender:
        return GraphApiSender.from_settings(self.settings.whatsapp)

    @cached_property
    def memory(self) -> DynamoResponderMemory:
        return DynamoResponderMemory(
            client_for("dynamodb", self.settings.aws),
            self.settings.conversation_table,
            message_ttl_seconds=self.settings.memory_ttl_seconds,
        )


@lru_cache(maxsize=1)
def runtime() -> ResponderRuntime:
    return ResponderRuntime(ResponderSettings.from_env(os.environ))
