"""Language detection: a hint in a language without data files is never guessed at."""

from __future__ import annotations

import asyncio

import pytest

from shared.sanitise import sanitise
from webhook.analysers.base import analyse
from webhook.analysers.embedded import EmbeddedAnalyser
from webhook.analysers.embedded.langdata import languages
from webhook.analysers.embedded.language import REQUIRED, detect, supported
from webhook.analysers.embedded.rules import lower


@pytest.mark.parametrize(("hint", "code"), [
    ("keep the pods off rack-4 please", "en"),
    ("por favor nada en el rack-4", "es"),
    ("bitte nicht auf Knoten worker-9", "de"),
    ("rack-4", "en"),  # names alone: nothing to tell, read as the default
    ("2x A100, NVMe, 100 Gbps", "en"),
])
def test_supported_languages_are_read(hint: str, code: str) -> None:
    verdict = detect(lower(hint))
    assert verdict.supported and verdict.code == code


@pytest.mark.parametrize(("hint", "code"), [
    ("non mettere il pod sul nodo worker-9 per favore", "it"),
    ("por favor não coloque no nó worker-9, obrigado", "pt"),
    ("liever niet op de machine worker-9 graag", "nl"),
    ("ワーカー9のノードは避けてください", None),  # another script: no supported language is written so
])
def test_other_languages_are_not_guessed_at(hint: str, code: str | None) -> None:
    verdict = detect(lower(hint))
    assert not verdict.supported and verdict.code == code


def test_supported_means_the_required_files_exist() -> None:
    assert set(supported()) <= set(languages())
    assert {"en", "es", "de"} <= set(supported())
    assert "it" in languages() and "it" not in supported()  # words to recognise it by, none to read it
    assert "negation_before" in REQUIRED


def test_an_unsupported_hint_gives_no_intent_and_says_why() -> None:
    hint = "per favore evita il nodo worker-9 e la zona us-east-1a"
    outcome = asyncio.run(analyse(EmbeddedAnalyser(), sanitise(hint).text))
    assert outcome.error is None and outcome.document is not None
    assert outcome.document.intents == ()
    assert outcome.reason is not None and outcome.reason.startswith("language-not-supported")
    assert "'it'" in outcome.reason and "en" in outcome.reason
    assert outcome.reason in outcome.notes  # `semaff analyze -v` shows it


def test_a_supported_hint_has_no_reason() -> None:
    outcome = asyncio.run(analyse(EmbeddedAnalyser(), "avoid the zone us-east-1a"))
    assert [i.name for i in outcome.document.intents] == ["avoid_zones"] and outcome.reason is None


@pytest.mark.parametrize(("hint", "expected"), [
    ("surtout pas sur le nœud gpu-7", [("avoid_nodes", 1.0, {"avoid_nodes": ["gpu-7"]})]),
    ("evitez la zone eu-west-3b svp", [("avoid_zones", 1.0, {"avoid_zones": ["eu-west-3b"]})]),
    ("idéalement 4 cœurs et 32 Go de RAM", [("prefer_cpu_cores", 0.5, {"prefer_cpu_cores": 4.0}),
                                           ("prefer_memory_gb", 0.5, {"prefer_memory_gb": 32.0})]),
    ("répartir sur plusieurs racks", [("spread_racks", 1.0, {})]),
])
def test_french_is_read_from_its_data_files(hint: str, expected: list) -> None:
    """French was added as lang/fr/*.txt only: the same pipeline reads it."""
    assert "fr" in supported()
    raw = EmbeddedAnalyser().analyse_sync(hint)
    assert [(i["intent"], i["strength"], i["metadata"]) for i in raw] == expected
