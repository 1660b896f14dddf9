"""The node agent's ``nvidia-smi topo -m`` parser on real published outputs (tests/fixtures/nvidia-smi-topo)."""

from __future__ import annotations

from pathlib import Path

import pytest

from nodeagent.topo import TopoError, parse

FIXTURES = Path(__file__).parents[1] / "fixtures" / "nvidia-smi-topo"


@pytest.mark.parametrize(("name", "gpus", "nvlink"), [
    ("p4d.24xlarge-8xA100-NV12.txt", 8, True),
    ("dgx1-8xV100-NV1-NV2.txt", 8, True),
    ("g6e.12xlarge-4xL40S-NODE.txt", 4, False),
    ("2xRTX5090-PHB.txt", 2, False),
    ("1xTeslaP4.txt", 1, False),
])
def test_real_outputs(name: str, gpus: int, nvlink: bool) -> None:
    topology = parse((FIXTURES / name).read_text())
    assert len(topology.gpus) == gpus
    assert topology.nvlink() is nvlink


def test_link_counts_and_paths() -> None:
    hgx = parse((FIXTURES / "p4d.24xlarge-8xA100-NV12.txt").read_text())
    assert hgx.nvlinks("GPU0", "GPU7") == 12 and hgx.links["GPU3", "GPU5"] == "NV12"
    dgx1 = parse((FIXTURES / "dgx1-8xV100-NV1-NV2.txt").read_text())
    assert (dgx1.nvlinks("GPU0", "GPU3"), dgx1.nvlinks("GPU0", "GPU1"), dgx1.nvlinks("GPU0", "GPU5")) == (2, 1, 0)
    assert dgx1.links["GPU0", "GPU5"] == "SYS" and ("GPU0", "mlx5_0") not in dgx1.links  # NICs are not GPUs
    assert parse((FIXTURES / "2xRTX5090-PHB.txt").read_text()).links == {("GPU0", "GPU1"): "PHB",
                                                                         ("GPU1", "GPU0"): "PHB"}


def test_pairs_only_and_colour_codes() -> None:
    """Two NVLink bridges over four GPUs: each GPU has a linked peer (a 2-GPU pod can get a pair)."""
    text = ("\x1b[4m\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\x1b[0m\n"
            "GPU0\t X \tNV4\tSYS\tSYS\t0-15\nGPU1\tNV4\t X \tSYS\tSYS\t0-15\n"
            "GPU2\tSYS\tSYS\t X \tPHB\t16-31\nGPU3\tSYS\tSYS\tPHB\t X \t16-31\n")
    assert parse(text).nvlink() is None  # GPU2 and GPU3 have no NVLink peer: unknown, not yes
    assert parse(text.replace("PHB", "NV4")).nvlink() is True


@pytest.mark.parametrize("bad", ["", "No devices were found", "\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \n"])
def test_not_a_matrix(bad: str) -> None:
    with pytest.raises(TopoError):
        parse(bad)
