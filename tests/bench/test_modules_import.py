"""Every benchmark module imports: ``make bench`` is not in ``make test``, so a renamed name it uses
(``localcluster.nodes.NETWORK`` once) would otherwise only show when someone runs the benchmarks."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import tests.bench

MODULES = sorted(m.name for m in pkgutil.iter_modules(tests.bench.__path__) if not m.name.startswith("test_"))


@pytest.mark.parametrize("name", MODULES)
def test_a_benchmark_module_imports(name: str) -> None:
    importlib.import_module(f"tests.bench.{name}")


def test_the_benchmarks_are_found() -> None:
    assert {"embedded", "scorer", "throughput", "webhook"} <= set(MODULES)
