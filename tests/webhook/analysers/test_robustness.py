"""A hint in any supported language reads the same after a missing accent or a typing slip (issue 12).

The hints are our own wording, one per mechanism mix and language; every word of six or more letters
gets every adjacent-letter swap in turn, and the whole hint is also written without accents or ß.
"""

from __future__ import annotations

import re
import unicodedata

import pytest

from webhook.analysers.embedded import EmbeddedAnalyser

HINTS = (
    "Evita la región eu-west-3; si se puede, distribuye los pods por varias zonas.",
    "Necesita 2 GPUs y 64 GB de memoria, misma zona que billing-api.",
    "Möglichst nicht auf Knoten mit GPUs, und bitte über mehrere Zonen verteilen.",
    "Bitte auf Knoten mit wenig Last, mindestens 16 Kerne.",
    "Nicht im Rack 4, am liebsten in der Nähe der redis-Pods.",
    "Évitez le nœud worker-9 et répartissez les répliques sur plusieurs zones.",
    "Idéalement sur des nœuds peu chargés avec 32 Go de mémoire.",
    "Surtout pas dans la zone eu-west-1c, de préférence près des pods redis-main.",
    "Keep the replicas apart and avoid rack-7, preferably in eu-central-1.",
    "Needs 4 GPUs with NVLink, must avoid the zone us-east-1b.",
)
_LONG_WORD = re.compile(r"(?<![\w-])[^\W\d_]{6,}(?![\w-])")
_ANALYSER = EmbeddedAnalyser()


def _read(hint: str) -> list[tuple[str, float, str]]:
    return sorted((i["intent"], i["strength"], repr(i["metadata"])) for i in _ANALYSER.analyse_sync(hint))


def _without_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn").replace("ß", "ss")


@pytest.mark.parametrize("hint", HINTS)
def test_a_missing_accent_changes_nothing(hint: str) -> None:
    assert _read(hint), "the hint must say something for the test to mean anything"
    assert _read(_without_accents(hint)) == _read(hint)


@pytest.mark.parametrize("hint", HINTS)
def test_a_swapped_pair_of_letters_changes_nothing(hint: str) -> None:
    expected = _read(hint)
    for match in _LONG_WORD.finditer(hint):
        word = match.group(0)
        for i in range(1, len(word) - 2):
            slipped = word[:i] + word[i + 1] + word[i] + word[i + 2:]
            typed = hint[:match.start()] + slipped + hint[match.end():]
            assert _read(typed) == expected, typed
