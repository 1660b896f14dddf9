"""Places named without a level word, and levels whose name is a bare number or letter (session 10, bare), in
en/es/de/fr.

The rules (slots.py, one definition of each shape):
- a zone known only by its level word and a number ("zone 3", "la zona 2", "Zone 2 meiden", "az 2") is zone-3, as
  "rack 3" is rack-3 (one spaced-list shape for both levels, "zones 2 and 3"); after a plural zone word a single
  number counts something ("over the azs 3 replicas each"), it names no zone;
- a name that spells its zone level word ("zone-4", "az1", "zone_b") is that zone as written, never a node;
- a bare name keeps the level its shape gives: a short dashed host name ("ws-40") is a node after a refusal or
  before one, "to be" between ("ws-40 is best avoided"); a bare "r14" or "c7" with no level word and no rack named
  before it in its shape is no place of a known level: no intent;
- a lone letter after a spaced zone word ("zone a", "zona y", "la zone a des latences") is no name: the English
  and Spanish article or conjunction, the French verb; "in a rack" names nothing.
A refusal is never read as a preference.

The probes are our own wording (no evaluation row), labelled by the rules of tests/data/eval/README.md before
reading the answer. An expected intent is written ``name`` (strength 1.0), ``name@0.5`` or ``name@1.5``, with its
metadata value (the catalogue's one key) or None.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import Labels, expected_of, problems, score
from webhook.evaluation import EvalRow

# a zone said by its level word and a number, in every language
SPACED_ZONES: list[tuple[str, Labels]] = [
    ("zone 4 please", {"prefer_zones": ["zone-4"]}),
    ("keep it out of zone 4", {"avoid_zones": ["zone-4"]}),
    ("run in availability zone 2 if possible", {"prefer_zones@0.5": ["zone-2"]}),
    ("avoid az 3", {"avoid_zones": ["zone-3"]}),
    ("zones 1 and 2 please", {"prefer_zones": ["zone-1", "zone-2"]}),
    ("not in zone 5, prefer zone 6", {"avoid_zones": ["zone-5"], "prefer_zones@0.5": ["zone-6"]}),
    ("zone 2 w/ 16 cores", {"prefer_zones": ["zone-2"], "prefer_cpu_cores": 16}),
    ("en la zona 4 por favor", {"prefer_zones": ["zone-4"]}),
    ("nada en la zona 1", {"avoid_zones": ["zone-1"]}),
    ("preferiblemente zona 3", {"prefer_zones@0.5": ["zone-3"]}),
    ("bitte in Zone 4", {"prefer_zones": ["zone-4"]}),
    ("Zone 1 bitte meiden", {"avoid_zones": ["zone-1"]}),
    ("nicht in zone 3 oder 4", {"avoid_zones": ["zone-3", "zone-4"]}),
    ("dans la zone 2 si possible", {"prefer_zones@0.5": ["zone-2"]}),
    ("pas dans la zone 5", {"avoid_zones": ["zone-5"]}),
    ("évitez la zone 1", {"avoid_zones": ["zone-1"]}),
]

# a name that spells its zone word: that zone as written, never a node
SPELLED_ZONES: list[tuple[str, Labels]] = [
    ("avoid zone-4", {"avoid_zones": ["zone-4"]}),
    ("stay off zone-7 and zone-8", {"avoid_zones": ["zone-7", "zone-8"]}),
    ("run it in az2", {"prefer_zones": ["az2"]}),
    ("keep away from az3 pls", {"avoid_zones": ["az3"]}),
    ("zone_b preferably", {"prefer_zones@0.5": ["zone_b"]}),
    ("no en zone-6", {"avoid_zones": ["zone-6"]}),
    ("nicht in az1", {"avoid_zones": ["az1"]}),
    ("de préférence en az2", {"prefer_zones@0.5": ["az2"]}),
]

# bare names: a short dashed host is a node; a bare letters-and-digits name of no known level is nothing
BARE_NAMES: list[tuple[str, Labels]] = [
    ("ht-22 is best avoided", {"avoid_nodes": ["ht-22"]}),
    ("qx-9 should be avoided", {"avoid_nodes": ["qx-9"]}),
    ("stay off ht-22 pls", {"avoid_nodes": ["ht-22"]}),
    ("ht-22 meiden", {"avoid_nodes": ["ht-22"]}),
    ("use p31", {}),
    ("p31 pls", {}),
    ("keep off d8", {}),
    ("evita j5", {}),
    ("rack 9 or rack 10", {"prefer_racks": ["rack-9", "rack-10"]}),
]

# counts and words after a zone word: no zone
NOT_NAMES: list[tuple[str, Labels]] = [
    ("spread over the zones 2 replicas each", {"spread_zones": None}),
    ("across azs, 3 replicas", {"spread_zones": None}),
    ("put it in a zone with ssd", {"prefer_ssd_storage": None}),
    ("la zona y el rack me dan igual", {}),
    ("ne pas mettre en eu-west-3c, la zone a des soucis", {"avoid_zones": ["eu-west-3c"]}),
    ("zone 1 of 3 went down last night", {}),
]

PROBES = SPACED_ZONES + SPELLED_ZONES + BARE_NAMES + NOT_NAMES


@pytest.mark.parametrize(("hint", "labels"), PROBES)
def test_a_bare_place_reads_at_its_level_with_its_polarity(hint: str, labels: Labels) -> None:
    result = score(EvalRow("probe", hint, "en", "single", expected_of(labels)))
    assert not result.flips, (hint, result.flips)
    assert result.perfect, (hint, problems(result))


# Read wrong still, with the reason (strict: a probe that starts passing must leave this table).
OPEN: list[tuple[str, Labels, str]] = [
    ("zones 1 and 2 only", {"prefer_zones": ["zone-1", "zone-2"]},
     "'only' after a list of places (at_most) loses the list, as for racks ('racks 1 and 2 only')"),
    ("AZ b please", {"prefer_zones": ["b"]},
     "a lone letter after a spaced zone word is no name (articles, conjunctions, the French 'a')"),
    ("Zone C meiden", {"avoid_zones": ["c"]},
     "a lone letter after a spaced zone word is no name (articles, conjunctions, the French 'a')"),
]


@pytest.mark.parametrize(("hint", "labels", "reason"), OPEN)
def test_open_bare_place_readings(hint: str, labels: Labels, reason: str) -> None:
    result = score(EvalRow("probe", hint, "en", "single", expected_of(labels)))
    if not result.perfect:
        pytest.xfail(reason)
    pytest.fail(f"now read right, move it to the tables: {hint}")


@pytest.mark.parametrize("hint", ["avoid zone b", "no en la zona c", "Zone B meiden", "pas dans la zone d",
                                  "keep off c7", "dont use p31"])
def test_an_unread_bare_place_is_never_preferred(hint: str) -> None:
    result = score(EvalRow("probe", hint, "en", "single", expected_of({})))
    assert not any(name.startswith("prefer_") for name in result.predicted_names), (hint, result)
