"""WhatsApp template messages, for reminders due while the 24-hour customer-service window is closed.

Outside the window WhatsApp only delivers pre-approved templates. The reminder template (its name is
configuration, e.g. WHATSAPP_REMINDER_TEMPLATE) has one body parameter: the reminder's title.

`TemplateSender` is the Graph API sender plus `send_template`: it posts through `GraphApiSender`'s
own request path (same URL, token, transport, retry/backoff, tracking tag and `WhatsAppSendError`),
so a template send fails, and is tracked, exactly like any other send.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from memo.whatsapp.sender import GraphApiSender, SentMessage
from memo.whatsapp.tracking import OutboundTag

# Meta refuses template parameters with newlines, tabs or more than four consecutive spaces.
PARAMETER_LIMIT = 1024


class TemplateMessage(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str = Field(min_length=1, max_length=512)
    language_code: str = Field(min_length=2, max_length=15)  # "en", "en_US", "he"
    body_parameters: list[str] = Field(default_factory=list)


def template_parameter(text: str) -> str:
    """One line, single spaces, at most 1024 characters (Meta's rules for a text parameter)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= PARAMETER_LIMIT else flat[: PARAMETER_LIMIT - 1].rstrip() + "…"


def template_body(to: str, template: TemplateMessage) -> dict[str, Any]:
    """The Graph API body of a template message to `to` (phone number, or a business-scoped id)."""
    recipient = {"to": to} if to.isdigit() else {"recipient": to}
    content: dict[str, Any] = {"name": template.name, "language": {"code": template.language_code}}
    if template.body_parameters:
        content["components"] = [
            {
                "type": "body",
                "parameters": [
                    {"type": "text", "text": template_parameter(p)} for p in template.body_parameters
                ],
            }
        ]
    return {
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        **recipient,
        "type": "template",
        "template": content,
    }


class TemplateSender(GraphApiSender):
    """`GraphApiSender` that can also send template messages."""

    def send_template(
        self, phone_number_id: str, to: str, template: TemplateMessage, *, tag: OutboundTag | None = None
    ) -> SentMessage:
        # GraphApiSender's request path: retries, Meta error codes, the tracking tag, unknown outcomes.
        return self.send_tagged(
            phone_number_id,
            template_body(to, template),
            tag or OutboundTag.new("reminder", to, mode="template"),
        )
