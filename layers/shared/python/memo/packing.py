"""Compact storage of the JSON documents Memo writes on every turn.

Three documents ride on the turn path's reads and writes: the pending question's frozen turn state
(the `PENDING` item), the execution input a turn stores with its idempotency result (so a redelivery
can start it again) and the thread's latest actions (`RECENT_ACTIONS`, read by every turn). They
are small JSON documents whose bytes are mostly the same field names and values every time, which
plain compression cannot exploit at this size. `pack` compresses them with zlib and a preset
dictionary of those shared strings: the 1.9 KB turn state of an approval question packs to 351
bytes, where zlib alone gives 889.

A packed value is one format byte, then the zlib stream. The dictionary of a format never changes
once it has been released: a better dictionary is a new format byte, and `unpack` keeps reading
every format ever written (DynamoDB keeps the latest actions for 12 hours, idempotency results for
8 days). Values written before packing existed are plain JSON text and are read as they are.
"""

from __future__ import annotations

import base64
import binascii
import zlib

# The strings the packed documents share, from the least to the most frequent: zlib finds a match
# nearer the end of its window in fewer bits. Changing this text breaks every stored value of
# format 1: append a new dictionary and format byte instead.
_DICTIONARY_V1 = "".join(
    (
        # execution input (memo.executor.contracts.ExecutionInput)
        '{"groups":[[{"action":"create","approval":{"approved_by":"user","args_hash":"',
        '","asked_at":"","expires_at":"","hitl_id":""},"args":{"reminderIds":["',
        '"]},"args_hash":"","capability":"reminders","language":"en","phone_number_id":"',
        '","step_id":"s1","thread_id":"","timezone":"Asia/Jerusalem","trace_id":"wamid.HBgL',
        '"}]],"language":"he","phone_number_id":"","thread_id":"","timezone":"UTC","trace_id":"wamid.',
        # latest actions (memo.reply.memory)
        '[{"createdAt":"","capability":"lists","action":"add_items","summary":"reminder \u201c',
        '\u201d for ","when":"","externalIds":{"noteId":"","listId":"","reminderId":"',
        '"},"operationId":"wamid.HBgL:s1"}]',
        # turn state (memo.domain.TurnState)
        '{"traceId":"wamid.HBgL","threadId":"972","input":{"message":"","timezone":"Asia/Jerusalem",',
        '"whatsappMessageId":"wamid.HBgL"},"plannerOutput":{"intentType":"operation","confidence":0.9,',
        '"riskLevel":"high","needsApproval":true,"plan":[{"id":"s1","capability":"reminders","action":"',
        'delete_all","args":{"title":"","dueAt":""},"dependsOn":["s1"]}]},"routingSuggestions":[{',
        '"capability":"reminders","action":"","confidence":0.9,"reason":""}],"resolverResults":{"s1":{',
        '"stepId":"s1","capability":"reminders","action":"","fingerprint":"","args":{},"target":null,',
        '"errorCode":null,"error":null}},"executorArgs":{"s1":{"reminderIds":["","',
        '"]}},"disambiguation":{"hitlResults":{"approvedHITL":{"pendingHITL":{"hitlId":"',
        '","kind":"approval","source":"planner","reason":"high_risk","originStepId":"s1",',
        '"returnTo":{"node":"resolver_router","mode":"continue"},"expectedInput":"yes_no",',
        '"question":"Before I go ahead: I\'m about to delete all your reminders',
        '\\nApprove, edit or reject? You can also keep only some, e.g. \\"only 1 and 3\\" or \\"not 2\\".",',
        '"options":[{"id":"approve","label":"Approve"},{"id":"edit","label":"Edit"},',
        '{"id":"reject","label":"Reject"}],"policySource":"planner","expiresAt":"2026-',
        '","context":{"resolverStepId":"s1","candidates":[{"id":"","label":"","description":"',
        '","data":{"day":"2026-"}}],"stepFingerprint":""},"createdAt":"2026-',
    )
).encode()

FORMAT_V1 = 1
_DICTIONARIES = {FORMAT_V1: _DICTIONARY_V1}
_LEVEL = 9


class UnreadablePacked(ValueError):
    """A stored value that is neither plain JSON text nor a packed value of a known format."""


def pack(document: str) -> bytes:
    """`document` (JSON text) compressed with the current format's dictionary."""
    compressor = zlib.compressobj(
        _LEVEL, zlib.DEFLATED, zlib.MAX_WBITS, 9, zlib.Z_DEFAULT_STRATEGY, _DICTIONARY_V1
    )
    return bytes([FORMAT_V1]) + compressor.compress(document.encode()) + compressor.flush()


def unpack(value: bytes | str) -> str:
    """The JSON text of a packed value; plain text (a value stored before packing) as it is."""
    if isinstance(value, str):
        return value
    if not value:
        raise UnreadablePacked("an empty packed value")
    dictionary = _DICTIONARIES.get(value[0])
    if dictionary is None:
        raise UnreadablePacked(f"unknown packing format {value[0]}")
    try:
        decompressor = zlib.decompressobj(zlib.MAX_WBITS, dictionary)
        return (decompressor.decompress(value[1:]) + decompressor.flush()).decode()
    except (zlib.error, UnicodeDecodeError) as exc:
        raise UnreadablePacked(f"a corrupt packed value: {exc}") from exc


def pack_text(document: str) -> str:
    """`pack` as ASCII, for a packed value inside a JSON document."""
    return base64.b64encode(pack(document)).decode("ascii")


def unpack_text(value: str) -> str:
    """The JSON text of a `pack_text` value; JSON text (it never starts like base64 does) as it is."""
    if value.lstrip()[:1] in ("{", "["):
        return value
    try:
        return unpack(base64.b64decode(value, validate=True))
    except binascii.Error as exc:
        raise UnreadablePacked(f"neither JSON nor a packed value: {exc}") from exc
