"""The one NVLink rule every source (DCGM, HAMi, nvidia-smi topo -m) is reduced to."""

from __future__ import annotations

import pytest

from shared.nvlink import verdict


@pytest.mark.parametrize(("linked", "expected"), [
    ({}, None), ({"0": True}, False), ({"0": True, "1": True}, True), ({"0": False, "1": False}, False),
    ({"0": True, "1": True, "2": False}, None),
])
def test_verdict(linked: dict[str, bool], expected: bool | None) -> None:
    assert verdict(linked) is expected
