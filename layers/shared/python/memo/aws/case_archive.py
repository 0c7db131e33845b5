"""Archived cases in an S3 bucket: `caseplatform.governance.retention.Archive` for the deployed
(DynamoDB) case store, one JSON object per case."""

from __future__ import annotations

from typing import Any

from caseplatform.model import canonical_json


class S3CaseArchive:
    """One object per archived case at `<adapter>/<case id>.json` (canonical JSON, encrypted at rest
    with the bucket's key)."""

    def __init__(self, bucket: str, client: Any) -> None:
        self._bucket = bucket
        self._client = client

    def put(self, key: str, document: dict[str, Any]) -> str:
        self._client.put_object(
            Bucket=self._bucket,
            Key=key,
            Body=canonical_json(document).encode("utf-8"),
            ContentType="application/json",
        )
        return f"s3://{self._bucket}/{key}"
