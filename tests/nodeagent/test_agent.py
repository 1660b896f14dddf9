"""The node agent's round: run the command, parse, merge-patch the label (the API side is a recording stub here;
tests/scorer/test_dra_e2e.py runs the agent against the real kube-apiserver)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from nodeagent.__main__ import label_value, read_topology, run_once
from tests.nodeagent.fakes import fake_nvidia_smi


class Api:
    def __init__(self, labels: dict[str, str]) -> None:
        self.labels = labels
        self.patches: list[dict[str, Any]] = []

    async def read_node(self, name: str) -> Any:
        return SimpleNamespace(metadata=SimpleNamespace(labels=dict(self.labels)))

    async def patch_node(self, name: str, body: dict[str, Any]) -> None:
        self.patches.append(body)


async def test_read_topology(tmp_path: Path) -> None:
    assert await read_topology(fake_nvidia_smi(tmp_path, "p4d.24xlarge-8xA100-NV12.txt")) is True
    assert await read_topology(fake_nvidia_smi(tmp_path, "2xRTX5090-PHB.txt")) is False
    with pytest.raises(RuntimeError, match="exited 9"):
        await read_topology(fake_nvidia_smi(tmp_path, None, 9))


async def test_rounds_patch_only_on_change(tmp_path: Path) -> None:
    api = Api({"kubernetes.io/hostname": "n"})
    label = "semantic-affinity.io/nvlink"
    assert await run_once(api, "n", label, fake_nvidia_smi(tmp_path, "dgx1-8xV100-NV1-NV2.txt"))
    assert api.patches == [{"metadata": {"labels": {label: "true"}}}]
    api.labels[label] = "true"
    assert await run_once(api, "n", label, fake_nvidia_smi(tmp_path, "dgx1-8xV100-NV1-NV2.txt"))
    assert len(api.patches) == 1  # already right: no write
    assert not await run_once(api, "n", label, fake_nvidia_smi(tmp_path, None, 1))  # failure: nothing written
    assert len(api.patches) == 1
    assert await run_once(api, "n", label, fake_nvidia_smi(tmp_path, "1xTeslaP4.txt"))
    assert api.patches[-1] == {"metadata": {"labels": {label: "false"}}}


def test_label_values() -> None:
    assert (label_value(True), label_value(False), label_value(None)) == ("true", "false", None)
