"""A stand-in for ``nvidia-smi`` that answers ``topo -m`` with a real published output (no GPU here)."""

from __future__ import annotations

import stat
from pathlib import Path

TOPO_FIXTURES = Path(__file__).parents[1] / "fixtures" / "nvidia-smi-topo"


def fake_nvidia_smi(directory: Path, fixture: str | None, status: int = 0) -> str:
    """An executable that prints ``fixture`` for ``topo -m`` (or fails like a broken driver when None)."""
    script = directory / f"nvidia-smi-{fixture or 'broken'}-{status}"
    body = f"cat '{TOPO_FIXTURES / fixture}'\n" if fixture else "echo 'NVIDIA-SMI has failed' >&2\n"
    script.write_text(f"#!/bin/sh\n[ \"$1 $2\" = 'topo -m' ] || exit 64\n{body}exit {status}\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)
