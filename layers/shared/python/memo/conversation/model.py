"""Conversation domain: the thread's profile, recent messages and what a turn loads."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from memo.text.language import Language

MemoryKind = Literal["message", "hitl_question", "hitl_reply", "reminder"]


class UserProfile(BaseModel):
    thread_id: str
    language: Language = "en"
    timezone: str = "UTC"
    #: where `timezone` came from: the deployment's default, the phone number's country, or the user
    #: ("my timezone is London"); only the user's own choice is never replaced.
    timezone_source: Literal["default", "phone", "user"] = "default"
    wa_id: str | None = None
    user_id: str | None = None
    name: str | None = None
    created_at: datetime


class MemoryMessage(BaseModel):
    role: Literal["user", "assistant"]
    text: str
    at: datetime
    kind: MemoryKind = "message"
    wamid: str | None = None


# What `ConversationStore.record_turn` did: wrote the turn, found it written by an earlier run of
# the same message, lost the condition of the pending question's change, or found an item the
# answered question showed changed (the last three write nothing).
TurnRecorded = Literal["recorded", "already_recorded", "pending_conflict", "items_changed"]


class ThreadSnapshot(BaseModel):
    """Everything a turn needs about its thread, loaded with one consistent query."""

    thread_id: str
    profile: UserProfile | None = None
    recent: list[MemoryMessage] = Field(default_factory=list)  # oldest first
    pending: dict[str, Any] | None = None  # the raw pendingHITL item, if any
    latest_actions: list[dict[str, Any]] = Field(default_factory=list)  # most recent first
