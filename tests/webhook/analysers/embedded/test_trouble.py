"""A place the hint complains about is never preferred ("m04 keeps crashing" is no wish for m04)."""

from __future__ import annotations

import pytest

from webhook.analysers.embedded import EmbeddedAnalyser

ANALYSER = EmbeddedAnalyser()


def places(hint: str) -> dict[str, list[str]]:
    """intent -> its place names, for the place intents of ``hint``."""
    found = {}
    for intent in ANALYSER.analyse_sync(hint):
        names = [v for values in (intent.get("metadata") or {}).values() if isinstance(values, list) for v in values]
        if names:
            found[intent["intent"]] = sorted(names)
    return found


@pytest.mark.parametrize("hint", [
    "m04 keeps crashing",
    "worker-9 has been flaky all week",
    "us-east-1b is down again",
    "rack r7 is overheating lately",
    "der knoten gpu-host-8 spinnt",
    "k-4 ist total kaputt",
    "el nodo w-3 falla mucho",
    "w-3 se cuelga cada noche",
    "le nœud n-12 est instable",
    "n-12 rame depuis ce matin",
])
def test_a_complained_about_place_is_not_preferred(hint: str) -> None:
    assert not any(name.startswith("prefer_") for name in places(hint)), places(hint)


def test_only_the_complained_about_place_is_dropped() -> None:
    assert places("put it on m07, m04 keeps crashing") == {"prefer_nodes": ["m07"]}
    assert places("rack-3 is flaky, use rack-4") == {"prefer_racks": ["rack-4"]}
    assert places("bitte auf m07, m04 ist kaputt") == {"prefer_nodes": ["m07"]}


def test_a_plain_wish_for_a_place_still_counts() -> None:
    assert places("run on m07") == {"prefer_nodes": ["m07"]}
    assert places("m07 pls") == {"prefer_nodes": ["m07"]}
    assert places("en el nodo w-3 por favor") == {"prefer_nodes": ["w-3"]}
