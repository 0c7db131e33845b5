"""DynamoDB tables, built from the specs in `memo.tables` that the local stack uses too.

Every spec of `ALL_TABLES` becomes a table here, so a table added there (the case platform's, for
example) is deployed without touching this module. Callers look tables up by spec and grant each
function only the tables it uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from aws_cdk import RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from constructs import Construct

from memo.tables import ALL_TABLES, TableSpec


def _string_attribute(name: str) -> dynamodb.Attribute:
    return dynamodb.Attribute(name=name, type=dynamodb.AttributeType.STRING)


def build_table(scope: Construct, spec: TableSpec) -> dynamodb.TableV2:
    """One table: on-demand, point-in-time recovery, TTL and GSIs from the spec, retained on delete."""
    return dynamodb.TableV2(
        scope,
        spec.logical_id,
        partition_key=_string_attribute(spec.partition_key),
        sort_key=_string_attribute(spec.sort_key) if spec.sort_key else None,
        billing=dynamodb.Billing.on_demand(),
        point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
            point_in_time_recovery_enabled=True
        ),
        time_to_live_attribute=spec.ttl_attribute,
        global_secondary_indexes=[
            dynamodb.GlobalSecondaryIndexPropsV2(
                index_name=gsi.name,
                partition_key=_string_attribute(gsi.partition_key),
                sort_key=_string_attribute(gsi.sort_key) if gsi.sort_key else None,
                projection_type=dynamodb.ProjectionType.ALL,
            )
            for gsi in spec.gsis
        ]
        or None,
        encryption=dynamodb.TableEncryptionV2.aws_managed_key(),
        removal_policy=RemovalPolicy.RETAIN,
    )


class ConversationStore(Construct):
    """All DynamoDB tables of Memo, one per `TableSpec`."""

    def __init__(
        self, scope: Construct, construct_id: str, *, specs: Sequence[TableSpec] = ALL_TABLES
    ) -> None:
        super().__init__(scope, construct_id)
        self._tables: dict[str, dynamodb.TableV2] = {}
        for spec in specs:
            if spec.logical_id in self._tables:
                raise ValueError(f"two table specs share the logical id {spec.logical_id!r}")
            self._tables[spec.logical_id] = build_table(self, spec)

    @property
    def tables(self) -> Mapping[str, dynamodb.TableV2]:
        """Tables by spec logical id."""
        return dict(self._tables)

    def table(self, spec: TableSpec) -> dynamodb.TableV2:
        try:
            return self._tables[spec.logical_id]
        except KeyError:
            raise KeyError(f"no table was built for spec {spec.logical_id!r}") from None

    def environment(self, *specs: TableSpec) -> dict[str, str]:
        """`{spec.env_var: table name}` for the given specs, for a function's environment."""
        return {spec.env_var: self.table(spec).table_name for spec in specs}
