"""The user's notes on the items table (`sk = NOTE#<id>`): the notes half of the `ItemsRepository`
port. A note's text is replaced only while it still reads what the person saw; given a `Revision`, the
same write keeps the text it replaces for undo (`memo.aws.items_revisions`)."""

from __future__ import annotations

from datetime import datetime

from memo.aws.items_keys import CHANGED_AT, NOTE_PREFIX, PREVIOUS, dump, iso, model_of, note_sk, user_pk
from memo.aws.items_revisions import added_slot
from memo.aws.items_tombstones import TombstoningItems
from memo.capabilities.items import Note, Revision, Tombstone


class DynamoNotes(TombstoningItems):
    """Notes: created once, listed newest first, rewritten, deleted or tombstoned."""

    def put_note(self, note: Note, *, undo: Tombstone | None = None) -> bool:
        """Save the note; False if it exists already (a retried save). With `undo`, its turn's undo
        deletes it again (`memo.aws.items_revisions.added_slot`), unless it was changed since."""
        values = dump(note)
        if undo is not None:
            values[CHANGED_AT] = iso(note.created_at)
            values[PREVIOUS] = added_slot(undo, note.created_at)
        return self._put_new(user_pk(note.thread_id), note_sk(note.note_id), "note", values)

    def list_notes(self, thread_id: str) -> list[Note]:
        """All notes, newest first."""
        notes = [model_of(Note, raw) for raw in self._query(user_pk(thread_id), NOTE_PREFIX)]
        return sorted(notes, key=lambda n: n.created_at, reverse=True)

    def update_note(
        self,
        thread_id: str,
        note_id: str,
        *,
        text: str,
        expected: str,
        changed_at: datetime,
        revision: Revision[Note] | None = None,
    ) -> Note | None:
        """The note's text replaced, if it still reads `expected` (or already reads `text`: an
        earlier attempt of the same step); stamped as the person's change, and with `revision` the
        text it had kept for undo. None if it is gone or was changed meanwhile."""
        return self._rewrite_text(
            user_pk(thread_id),
            note_sk(note_id),
            Note,
            text=text,
            expected=expected,
            changed_at=changed_at,
            revision=revision,
        )

    def delete_note(self, thread_id: str, note_id: str, *, undo: Tombstone | None = None) -> Note | None:
        return self._delete_existing(user_pk(thread_id), note_sk(note_id), Note, undo)
