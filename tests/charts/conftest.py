"""Fixtures for the chart tests: the helm binary (fetched once into the user cache)."""

from __future__ import annotations

from pathlib import Path

import pytest

from localcluster import tools


@pytest.fixture(scope="session")
def helm() -> Path:
    return tools.helm()
