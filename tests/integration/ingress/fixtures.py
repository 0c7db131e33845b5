"""Webhook payloads of every row of the event table, written from Meta's documented shapes.

Each fixture is one `messages` change's message (or a whole `value` for statuses and account-level
fields), as the WhatsApp Cloud API sends it; `memo.local.whatsapp_user.WhatsAppUser` wraps messages
in the envelope and signs nothing itself (the tests post them signed through the webhook handler).
"""

from __future__ import annotations

from typing import Any

from memo.local.whatsapp_user import DEFAULT_DISPLAY_NUMBER, DEFAULT_PHONE_NUMBER_ID, WhatsAppUser, envelope

QUESTION_ID = "wamid.HBgLOTcyNTAxMjM0NTY3FQIAERgSQURFRjQ5QkE0RTk5NkFGMDA0AA=="


def message_fixtures(user: WhatsAppUser) -> dict[str, dict[str, Any]]:
    """One inbound message per row of `memo.ingress.events.MESSAGE_EVENTS` (key -> message)."""
    m = user.message
    return {
        "text": user.text("Hello!"),
        "interactive.button_reply": user.button_reply("hitl:approve", "Approve"),
        "interactive.list_reply": user.list_reply("hitl:pick:1", "call mom"),
        "interactive.nfm_reply": m(
            "interactive",
            {
                "context": {"from": DEFAULT_DISPLAY_NUMBER, "id": QUESTION_ID},
                "interactive": {
                    "type": "nfm_reply",
                    "nfm_reply": {
                        "name": "flow",
                        "body": "Sent",
                        "response_json": '{"flow_token": "t1", "choice": "a"}',
                    },
                },
            },
        ),
        "interactive.call_permission_reply": m(
            "interactive",
            {
                "context": {"from": DEFAULT_DISPLAY_NUMBER, "id": QUESTION_ID},
                "interactive": {
                    "type": "call_permission_reply",
                    "call_permission_reply": {"response": "accept", "is_permanent": False},
                },
            },
        ),
        "button": m("button", {"button": {"payload": "STOP", "text": "Stop promotions"}}),
        "reaction": m("reaction", {"reaction": {"message_id": QUESTION_ID, "emoji": "\U0001f44d"}}),
        "image": m(
            "image",
            {"image": {"mime_type": "image/jpeg", "sha256": "aGFzaA==", "id": "1479537139650973"}},
        ),
        "image.caption": m(
            "image",
            {
                "image": {
                    "caption": "remind me to pay this bill tomorrow at 9",
                    "mime_type": "image/jpeg",
                    "sha256": "aGFzaA==",
                    "id": "1479537139650978",
                }
            },
        ),
        "video.caption": m(
            "video",
            {
                "video": {
                    "caption": "תזכיר לי לשלוח את זה לסבתא מחר ב-10",
                    "mime_type": "video/mp4",
                    "sha256": "aGFzaA==",
                    "id": "1479537139650979",
                }
            },
        ),
        "document.caption": m(
            "document",
            {
                "document": {
                    "caption": "add to my todo list: sign this",
                    "filename": "lease.pdf",
                    "mime_type": "application/pdf",
                    "sha256": "aGFzaA==",
                    "id": "1479537139650980",
                }
            },
        ),
        "video": m(
            "video", {"video": {"mime_type": "video/mp4", "sha256": "aGFzaA==", "id": "1479537139650974"}}
        ),
        "audio": m(
            "audio",
            {
                "audio": {
                    "mime_type": "audio/ogg; codecs=opus",
                    "sha256": "aGFzaA==",
                    "id": "1479537139650975",
                    "voice": True,
                }
            },
        ),
        "document": m(
            "document",
            {
                "document": {
                    "filename": "invoice.pdf",
                    "mime_type": "application/pdf",
                    "sha256": "aGFzaA==",
                    "id": "1479537139650976",
                }
            },
        ),
        "sticker": m(
            "sticker",
            {
                "sticker": {
                    "mime_type": "image/webp",
                    "sha256": "aGFzaA==",
                    "id": "1479537139650977",
                    "animated": False,
                }
            },
        ),
        "location": m(
            "location",
            {
                "location": {
                    "latitude": 32.0853,
                    "longitude": 34.7818,
                    "name": "Tel Aviv",
                    "address": "Rothschild",
                }
            },
        ),
        "contacts": m(
            "contacts",
            {
                "contacts": [
                    {
                        "name": {"formatted_name": "Noa Levi", "first_name": "Noa"},
                        "phones": [{"phone": "+972 50-000-0002", "wa_id": "972500000002", "type": "CELL"}],
                    }
                ]
            },
        ),
        "order": m(
            "order",
            {
                "order": {
                    "catalog_id": "123",
                    "product_items": [
                        {
                            "product_retailer_id": "sku1",
                            "quantity": "1",
                            "item_price": "10",
                            "currency": "ILS",
                        }
                    ],
                    "text": "please",
                }
            },
        ),
        "system.user_changed_number": m(
            "system",
            {
                "system": {
                    "body": "User Dana changed from 972501234567 to 972509999999",
                    "wa_id": "972509999999",  # webhooks before v12: `new_wa_id`
                    "type": "user_changed_number",
                }
            },
        ),
        "system.customer_identity_changed": m(
            "system",
            {
                "system": {
                    "body": "Dana's security code changed",
                    "identity": "c0ffee",
                    "type": "customer_identity_changed",
                    "customer": user.wa_id,
                },
                "identity": {"acknowledged": True, "created_timestamp": 1700000000, "hash": "c0ffee"},
            },
        ),
        "system": m("system", {"system": {"body": "A notice", "type": "customer_changed_something"}}),
        "request_welcome": m("request_welcome", {}),
        "edit": m(
            "edit",
            {
                "edit": {
                    "original_message_id": "wamid.HBgLOLDMESSAGE",
                    "message": {"type": "text", "text": {"body": "see you at 6"}},
                }
            },
        ),
        "revoke": m("revoke", {"revoke": {"original_message_id": "wamid.HBgLOLDMESSAGE"}}),
        "unsupported": m(
            "unsupported",
            {
                "errors": [
                    {
                        "code": 131051,
                        "title": "Message type unknown",
                        "message": "Message type unknown",
                        "error_data": {"details": "Message type is currently not supported."},
                    }
                ]
            },
        ),
        "other": m("ephemeral", {"ephemeral": {"id": "x"}}),
    }


def status_value(status: dict[str, Any]) -> dict[str, Any]:
    return {
        "messaging_product": "whatsapp",
        "metadata": {
            "display_phone_number": DEFAULT_DISPLAY_NUMBER,
            "phone_number_id": DEFAULT_PHONE_NUMBER_ID,
        },
        "statuses": [status],
    }


def status(message_id: str, state: str, recipient: str, **extra: Any) -> dict[str, Any]:
    return {"id": message_id, "status": state, "timestamp": 1700000000, "recipient_id": recipient, **extra}


FAILED_131047 = [
    {
        "code": 131047,
        "title": "Re-engagement message",
        "message": "Re-engagement message",
        "error_data": {"details": "Message failed to send because more than 24 hours have passed."},
    }
]


def status_fixtures(recipient: str) -> dict[str, dict[str, Any]]:
    """One webhook body per row of `memo.ingress.events.STATUS_EVENTS` (key -> body)."""
    return {
        "status.sent": envelope(
            [
                status_value(
                    status(
                        "wamid.OUT1",
                        "sent",
                        recipient,
                        conversation={"id": "c1", "origin": {"type": "service"}},
                        pricing={"billable": False, "pricing_model": "PMP", "category": "service"},
                    )
                )
            ]
        ),
        "status.delivered": envelope([status_value(status("wamid.OUT1", "delivered", recipient))]),
        "status.read": envelope([status_value(status("wamid.OUT1", "read", recipient))]),
        "status.played": envelope([status_value(status("wamid.OUT1", "played", recipient))]),
        "status.failed": envelope(
            [status_value(status("wamid.OUT2", "failed", recipient, errors=FAILED_131047))]
        ),
        "account.errors": envelope(
            [
                {
                    "messaging_product": "whatsapp",
                    "metadata": {
                        "display_phone_number": DEFAULT_DISPLAY_NUMBER,
                        "phone_number_id": DEFAULT_PHONE_NUMBER_ID,
                    },
                    "errors": [
                        {
                            "code": 130429,
                            "title": "Rate limit hit",
                            "message": "(#130429) Rate limit hit",
                            "error_data": {"details": "Cloud API message throughput has been reached."},
                        }
                    ],
                }
            ]
        ),
        "account.other_field": {
            "object": "whatsapp_business_account",
            "entry": [
                {
                    "id": "200000000000002",
                    "time": 1700000000,
                    "changes": [
                        {
                            "field": "message_template_status_update",
                            "value": {
                                "event": "APPROVED",
                                "message_template_id": 1234,
                                "message_template_name": "memo_reminder",
                                "message_template_language": "en",
                                "reason": "NONE",
                            },
                        }
                    ],
                }
            ],
        },
    }
