"""The layer contracts of pyproject.toml ([tool.importlinter]) catch what they say they catch.

``make lint`` proves the code keeps every contract; this proves each contract can fail: a copy of
the packages' sources gets one violating import per contract, and ``lint-imports`` must report
every contract broken (and exit non-zero, which is what fails ``make lint`` and CI).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]

# contract id -> (file in the copy, the import appended to it)
VIOLATIONS = {
    "shared-pure": ("shared/normalise.py", "import aiohttp"),
    "observability-below-services": ("observability/logs.py", "import scorer.metrics"),
    "services-independent": ("scorer/settings.py", "import webhook.patch"),
    "scorer-no-analyser": ("scorer/sources/prometheus.py", "import botocore"),
    "scorer-layers": ("scorer/podset.py", "import scorer.handler"),
    "scoring-math": ("scorer/scoring.py", "import scorer.table"),
    "evaluators-pure": ("scorer/evaluators/_common.py", "import yaml"),
    "cli-composes": ("localcluster/kube.py", "import webhook.events"),
    "cli-on-top": ("webhook/results.py", "import semaff.cli"),
    "tests-private": ("hack/demo.py", "import tests.scorer.builders"),
}


def _sources_only(directory: str, names: list[str]) -> set[str]:
    return {n for n in names if not n.endswith(".py") and not os.path.isdir(os.path.join(directory, n))}


def test_every_contract_has_a_violation_here() -> None:
    assert {c["id"] for c in CONFIG["contracts"]} == set(VIOLATIONS)


def test_each_contract_fails_on_its_violation(tmp_path: Path) -> None:
    for package in CONFIG["root_packages"]:
        shutil.copytree(REPO / package, tmp_path / package, ignore=_sources_only)
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    for path, statement in VIOLATIONS.values():
        with (tmp_path / path).open("a") as handle:
            handle.write(f"\n{statement}  # a layer violation\n")
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint), "--config", "pyproject.toml", "--no-cache"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300,
                            env={**os.environ, "COLUMNS": "1000", "NO_COLOR": "1"})
    assert result.returncode != 0, result.stdout
    names = {c["id"]: c["name"] for c in CONFIG["contracts"]}
    kept = [i for i, name in names.items() if f"{name} BROKEN" not in result.stdout]
    assert not kept, f"contracts not broken by their violation: {kept}\n{result.stdout}{result.stderr}"
