"""`make cost` prices each function at the memory it is deployed with: the figures it uses are the
template's."""

from __future__ import annotations

from benchmarks.cost import MEMORY_MB
from tests.infra.conftest import Synthesized


def test_the_cost_model_uses_every_functions_deployed_memory(synthesized: Synthesized) -> None:
    deployed = {}
    for function in synthesized.resources("AWS::Lambda::Function").values():
        props = function["Properties"]
        service = props.get("Environment", {}).get("Variables", {}).get("POWERTOOLS_SERVICE_NAME", "")
        if service.startswith("memo-"):
            deployed[service.removeprefix("memo-").replace("-", "_")] = props.get("MemorySize", 128)
    assert deployed == MEMORY_MB
