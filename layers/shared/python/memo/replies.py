"""What Memo says back, independent of WhatsApp's wire format.

A reply is plain text, text with up to three reply buttons, or text with a list of up to ten rows.
`memo.whatsapp.outbound` turns a `Reply` into Graph API message bodies.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class Choice(BaseModel):
    id: str = Field(min_length=1, max_length=200)
    title: str = Field(min_length=1)
    description: str | None = None


class Reply(BaseModel):
    text: str = Field(min_length=1)
    kind: Literal["text", "buttons", "list"] = "text"
    choices: list[Choice] = Field(default_factory=list)
    list_button: str = "Choose"

    @classmethod
    def plain(cls, text: str) -> Reply:
        return cls(text=text)

    @classmethod
    def with_choices(cls, text: str, choices: list[Choice], *, list_button: str = "Choose") -> Reply:
        """Buttons when 1-3 short choices fit, otherwise a list message."""
        fits_buttons = 0 < len(choices) <= 3 and all(
            len(c.title) <= 20 and not c.description for c in choices
        )
        return cls(
            text=text, kind="buttons" if fits_buttons else "list", choices=choices, list_button=list_button
        )
