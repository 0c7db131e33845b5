"""Wiring of the responder Lambda (`memo.wiring` pattern): the WhatsApp sender and the
conversation memory, built on first use."""

from __future__ import annotations

from functools import cached_property

from memo.aws.clients import client_for
from memo.aws.responder_memory import DynamoResponderMemory
from memo.aws.secrets import resolve_whatsapp
from memo.settings import ReplySettings
from memo.whatsapp.sender import GraphApiSender
from memo.wiring import LambdaRuntime


class ReplyRuntime(LambdaRuntime[ReplySettings]):
    settings_model = ReplySettings

    @cached_property
    def sender(self) -> GraphApiSender:
        return GraphApiSender.from_settings(resolve_whatsapp(self.settings.whatsapp))

    @cached_property
    def memory(self) -> DynamoResponderMemory:
        return DynamoResponderMemory(
            client_for("dynamodb", self.settings.aws),
            self.settings.conversation_table,
            message_ttl_seconds=self.settings.memory_ttl_seconds,
            appends=self.settings.latest_actions_appends,
            append_max_bytes=self.settings.latest_actions_append_max_bytes,
        )
