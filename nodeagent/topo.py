"""Parse ``nvidia-smi topo -m`` (``--matrix``): which GPU pairs are NVLink-connected.

The output is a matrix: a header row of device names (``GPU0 GPU1 ... NIC0 mlx5_0 ... CPU Affinity
NUMA Affinity GPU NUMA ID``), one row per device, cells ``X`` (self), ``NV<n>`` (a bonded set of n
NVLinks) or a PCIe path (``PIX``, ``PXB``, ``PHB``, ``NODE``, ``SYS``, ``PSB``), then a legend.
Columns are separated by tabs or runs of spaces depending on how the output was captured. Only the
``GPU<n>`` rows and columns are read; NIC rows, affinity columns, legends and anything else are
ignored (fixtures: tests/fixtures/nvidia-smi-topo).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shared.nvlink import verdict

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_GPU = re.compile(r"^GPU\d+$")
_NVLINK = re.compile(r"^NV(\d+)$")


class TopoError(ValueError):
    """The text is not a ``nvidia-smi topo -m`` matrix."""


@dataclass(frozen=True, slots=True)
class Topology:
    """GPU-to-GPU links of one node: ``links[(a, b)]`` is the matrix cell of row a, column b."""

    gpus: tuple[str, ...]
    links: dict[tuple[str, str], str]

    def nvlinks(self, a: str, b: str) -> int:
        """How many NVLinks join GPUs ``a`` and ``b`` (0: a PCIe path)."""
        match = _NVLINK.match(self.links.get((a, b), ""))
        return int(match.group(1)) if match else 0

    def nvlink(self) -> bool | None:
        """The node's NVLink fact (shared.nvlink.verdict): every GPU has an NVLink peer, none has, or some do."""
        return verdict({a: any(self.nvlinks(a, b) for b in self.gpus if b != a) for a in self.gpus})


def parse(text: str) -> Topology:
    """The GPU part of a ``nvidia-smi topo -m`` output."""
    lines = [_ANSI.sub("", line).rstrip() for line in text.splitlines()]
    header_at = next((i for i, line in enumerate(lines) if line.split()[:1] == ["GPU0"]), None)
    if header_at is None:
        raise TopoError("no header row starting with GPU0")
    columns: list[str] = []
    for token in lines[header_at].split():
        if token in ("CPU", "NUMA", "GPU") or token.endswith("Affinity"):
            break  # "CPU Affinity", "NUMA Affinity", "GPU NUMA ID": the device columns are over
        columns.append(token)
    gpus = tuple(c for c in columns if _GPU.match(c))
    links: dict[tuple[str, str], str] = {}
    rows: set[str] = set()
    for line in lines[header_at + 1:]:
        cells = line.split()
        if not cells:
            if links:
                break  # the blank line before the legend
            continue
        if cells[0] == "Legend:":
            break
        if not _GPU.match(cells[0]) or cells[0] not in gpus:
            continue  # NIC rows and the like
        if len(cells) < len(columns) + 1:
            raise TopoError(f"row {cells[0]} has {len(cells) - 1} cells for {len(columns)} columns")
        rows.add(cells[0])
        for column, cell in zip(columns, cells[1:], strict=False):
            if column in gpus and column != cells[0]:
                links[cells[0], column] = cell
    if not gpus or rows != set(gpus):
        raise TopoError(f"GPU rows {sorted(rows)} do not match the header's GPUs {list(gpus)}")
    return Topology(gpus, links)
