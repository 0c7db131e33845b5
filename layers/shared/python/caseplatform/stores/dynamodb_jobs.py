"""Where a scheduled job on the DynamoDB case table stopped: `JOB#<name> / CURSOR` holds the cursor the
job's last run answered (none: the run got through every case), so the next scheduled run resumes
there instead of starting again from the first case. The item carries no index key (no query of the
platform sees it); a run writes it once at its end."""

from __future__ import annotations

from caseplatform.stores.dynamodb_table import DynamoTable

JOB_SK = "CURSOR"


def job_pk(name: str) -> str:
    return f"JOB#{name}"


class DynamoJobCursors(DynamoTable):
    """The job cursors of one case table."""

    def job_cursor(self, name: str) -> str | None:
        """Where the job `name` resumes; None: from the start."""
        item = self._get(job_pk(name), JOB_SK)
        cursor = None if item is None else item.get("cursor")
        return cursor if isinstance(cursor, str) and cursor else None

    def save_job_cursor(self, name: str, cursor: str | None, now_ms: int) -> None:
        """Record where the job resumes (`cursor`), or that its last run was complete (None)."""
        item: dict[str, object] = {"pk": job_pk(name), "sk": JOB_SK, "updated_at_ms": now_ms}
        if cursor is not None:
            item["cursor"] = cursor
        self._client.put_item(**self._put(item))
