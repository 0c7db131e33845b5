"""An archived case in S3 (moto): one canonical JSON object per case at `<adapter>/<case id>.json`,
answered with where it went; writing it again replaces it (a retention run repeated after a failed
purge archives the same case again)."""

from __future__ import annotations

import json

import boto3
from moto import mock_aws

from memo.aws.case_archive import S3CaseArchive


def test_a_case_is_one_json_object_at_its_key() -> None:
    with mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket="hitl-archive")
        archive = S3CaseArchive("hitl-archive", client)
        key = "lgv_troubleshooting/HITL-1.json"
        assert archive.put(key, {"case_id": "HITL-1", "payload": {"site": "Plant Haifa"}}) == (
            f"s3://hitl-archive/{key}"
        )
        archive.put(key, {"case_id": "HITL-1", "payload": {"site": "Plant Haifa, hall B"}})
        stored = client.get_object(Bucket="hitl-archive", Key=key)
        assert stored["ContentType"] == "application/json"
        assert json.loads(stored["Body"].read())["payload"] == {"site": "Plant Haifa, hall B"}
        assert [o["Key"] for o in client.list_objects_v2(Bucket="hitl-archive")["Contents"]] == [key]
