"""Compact storage of the JSON documents Memo writes on every turn.

Three documents ride on the turn path's reads and writes: the pending question's frozen turn state
(the `PENDING` item), the execution input a turn stores with its idempotency result (so a redelivery
can start it again) and the thread's latest actions (`RECENT_ACTIONS`, read by every turn). They
are small JSON documents whose bytes are mostly the same field names and values every time, which
plain compression cannot exploit at this size. `pack` compresses them with zlib and a preset
dictionary of those shared strings: the 1.9 KB turn state of an approval question packs to about
320 bytes, where zlib alone gives about 880.

A packed value is one format byte, then the compressed stream: format 1 wrapped it as zlib does
(a header naming the dictionary and a checksum: 10 bytes a value); format 2, written now, is the
bare deflate stream (the reader checks that the stream ends where the value does; what it holds is
JSON, parsed next), with a dictionary that also holds the fields in the order they are written. The dictionary of a format never changes
once it has been released: a better dictionary is a new format byte, and `unpack` keeps reading
every format ever written (DynamoDB keeps the latest actions for 12 hours, idempotency results for
8 days). Values written before packing existed are plain JSON text and are read as they are.
"""

from __future__ import annotations

import base64
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

# Format 2's: format 1's, then the latest actions and the execution input with their fields in the
# order they are written (format 1's has the execution input's in alphabetical order), the most
# frequent last. Changing this text breaks every stored value of format 2.
_DICTIONARY_V2 = (
    _DICTIONARY_V1
    + "".join(
        (
            # latest actions (memo.reply.memory)
            '[{"createdAt":"2026-","capability":"reminders","action":"create","summary":"reminder \u201c',
            '\u201d for ","when":"2026-","externalIds":{"reminderId":"',
            '"},"operationId":"wamid.HBgL:s1"},{"createdAt":"2026-","capability":"reminders",',
            '"action":"delete_all","summary":"deleted ',
            ' reminders","externalIds":{"reminderIds":["","',
            '"]},"operationId":"wamid.HBgL:s1"}]',
            # execution input (memo.executor.contracts.ExecutionInput)
            '{"trace_id":"wamid.HBgL","thread_id":"972","phone_number_id":"","timezone":"Asia/Jerusalem",',
            '"groups":[[{"trace_id":"wamid.HBgL',
            '","thread_id":"972","step_id":"s1","capability":"reminders","action":"delete_all",',
            '"args":{"reminderIds":["","',
            # (the args hashes left out as the turn stores a start: `memo.turn.recorder`)
            '"]},"approval":{"hitl_id":"","expires_at":"2026-","asked_at":"2026-',
            'Z"},"timezone":"Asia/Jerusalem","phone_number_id":"","titles":{"":"","',
        )
    ).encode()
)

FORMAT_V1 = 1
FORMAT_V2 = 2  # its own dictionary; the deflate stream without zlib's header and checksum
# Each format's dictionary and window bits (negative: a bare deflate stream).
_FORMATS = {FORMAT_V1: (_DICTIONARY_V1, zlib.MAX_WBITS), FORMAT_V2: (_DICTIONARY_V2, -zlib.MAX_WBITS)}
_LEVEL = 9


class UnreadablePacked(ValueError):
    """A stored value that is neither plain JSON text nor a packed value of a known format."""


def pack(document: str) -> bytes:
    """`document` (JSON text) compressed with the current format's dictionary."""
    dictionary, bits = _FORMATS[FORMAT_V2]
    compressor = zlib.compressobj(_LEVEL, zlib.DEFLATED, bits, 9, zlib.Z_DEFAULT_STRATEGY, dictionary)
    return bytes([FORMAT_V2]) + compressor.compress(document.encode()) + compressor.flush()


def unpack(value: bytes | str) -> str:
    """The JSON text of a packed value; plain text (a value stored before packing) as it is."""
    if isinstance(value, str):
        return value
    if not value:
        raise UnreadablePacked("an empty packed value")
    found = _FORMATS.get(value[0])
    if found is None:
        raise UnreadablePacked(f"unknown packing format {value[0]}")
    dictionary, bits = found
    try:
        decompressor = zlib.decompressobj(bits, dictionary)
        text = decompressor.decompress(value[1:]) + decompressor.flush()
        if not decompressor.eof or decompressor.unused_data:
            raise UnreadablePacked("a corrupt packed value: the stream does not end where the value does")
        return text.decode()
    except (zlib.error, UnicodeDecodeError) as exc:
        raise UnreadablePacked(f"a corrupt packed value: {exc}") from exc


def pack_text(document: str) -> str:
    """`pack` as ASCII, for a packed value inside a JSON document: base85 (5 characters for 4 bytes,
    none a JSON string escapes), where values packed before were base64 (4 for 3)."""
    return base64.b85encode(pack(document)).decode("ascii")


def unpack_text(value: str) -> str:
    """The JSON text of a `pack_text` value; JSON text (it never starts like a packed value does) as
    it is. A packed value starts with its format, a small byte: in base85 its text starts with "0",
    in base64 (values packed before) with "A"."""
    if value.lstrip()[:1] in ("{", "["):
        return value
    try:
        raw = base64.b85decode(value) if value[:1] == "0" else base64.b64decode(value, validate=True)
    except ValueError as exc:  # binascii.Error is one
        raise UnreadablePacked(f"neither JSON nor a packed value: {exc}") from exc
    return unpack(raw)
