"""The fake backend registered as ``fake`` for the command-line tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.semaff.fakes import FakeAnalyser
from webhook.analysers import register, unregister


@pytest.fixture
def fake() -> Iterator[FakeAnalyser]:
    analyser = FakeAnalyser()
    register("fake", lambda settings: analyser)
    yield analyser
    unregister("fake")
