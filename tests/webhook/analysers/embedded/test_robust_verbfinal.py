"""German word order as people write it (session 10, verbfinal): the verb last, a zu-infinitive or a "dass" clause
after the wish, the object first (V2), separable verbs typed apart, and the same structures in Spanish and French.

- A refusal whose object is the clause after its comma ("Vermeide es, alles auf denselben Knoten zu legen", "Ich
  möchte nicht, dass der Pod auf Rack r8 landet") refuses that clause: it was read as keep-together / prefer (a
  polarity flip). Only a refusal with nothing but its subject, a wish verb, "try" and a pronoun standing for the
  clause (`clauses._refuses_complement`), and only before a clause that is its object (`complement_opening`).
- "im selben Rack" is one rack ("selben", "gleichen" in `one_place`): negated, a spread over racks.
- A spread verb said last over a list of named places of one kind ("über eu-north-1 und eu-south-2 verteilen")
  spreads at their level and, like "spread over A and B", is said of every place of the list.
- Separable refusal verbs typed apart ("fern halten", "raus lassen", "weg lassen") refuse the place before them.
- "nicht alles in eine Zone packen" is about the zone, not one node ("packen" right after a zone, rack or region).
- "vermeid" (the imperative typed without its -e) refuses like "vermeide".

The probes are our own wording (no evaluation row). Each reading must be exactly the labels: intent -> (value or
None, strength).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.webhook.analysers.embedded.probes import readings

Reading = dict[str, tuple[Any, float]]


def _check(hint: str, labels: Reading) -> None:
    got = {}
    for name, (strength, metadata) in readings(hint).items():
        value = next(iter(metadata.values()), None)
        got[name] = (sorted(value) if isinstance(value, list) else value, strength)
    expected = {name: (sorted(v) if isinstance(v, list) else v, s) for name, (v, s) in labels.items()}
    assert got == expected, hint


# a refusal whose object is the clause after it (zu-infinitive, "dass", "que")
COMPLEMENT = [
    ("Vermeide es, alles auf denselben Knoten zu legen.", {"spread_nodes": (None, 1.0)}),
    ("vermeide es alles auf denselben knoten zu legen", {"spread_nodes": (None, 1.0)}),
    ("Bitte vermeiden, alle Replikas auf einen Knoten zu packen.", {"spread_nodes": (None, 1.0)}),
    ("Ich möchte vermeiden, dass alle Pods auf einem Knoten landen.", {"spread_nodes": (None, 1.0)}),
    ("wir wollen nicht, dass alles auf einem knoten landet", {"spread_nodes": (None, 1.0)}),
    ("vermeid es alles auf einen knoten zu packen", {"spread_nodes": (None, 1.0)}),
    ("vermeid rack r3", {"avoid_racks": (["r3"], 1.0)}),
    ("vermeide es, die Pods in us-east-1 zu starten", {"avoid_regions": (["us-east-1"], 1.0)}),
    ("Vermeide es, die Replikas auf GPU-Knoten zu legen.", {"avoid_gpu_nodes": (None, 1.0)}),
    ("Bitte vermeidet es, alle Pods in eine Zone zu packen.", {"spread_zones": (None, 1.0)}),
    ("Versuche zu vermeiden, die Pods auf Knoten w-5 zu legen.", {"avoid_nodes": (["w-5"], 1.0)}),
    ("Ich möchte nicht, dass der Pod auf Rack r8 landet.", {"avoid_racks": (["r8"], 1.0)}),
    ("ich will nicht dass der pod auf rack r8 landet", {"avoid_racks": (["r8"], 1.0)}),
    ("Wir möchten nicht, dass der Pod auf Knoten w-12 läuft.", {"avoid_nodes": (["w-12"], 1.0)}),
    ("ich will nicht, dass der pod auf knoten w-2 gescheduled wird, weil der voll ist",
     {"avoid_nodes": (["w-2"], 1.0)}),
    ("Evita poner todo en el mismo nodo.", {"spread_nodes": (None, 1.0)}),
    ("No quiero que el pod caiga en el rack r8.", {"avoid_racks": (["r8"], 1.0)}),
    ("Évite de tout mettre sur le même nœud.", {"spread_nodes": (None, 1.0)}),
    ("Je ne veux pas que le pod aille sur le rack r8.", {"avoid_racks": (["r8"], 1.0)}),
    # a wish before its object clause stays a wish; a refusal with an object of its own refuses no clause after it
    ("Ich möchte, dass die Pods auf Rack r3 laufen.", {"prefer_racks": (["r3"], 1.0)}),
    ("rack r3 ist kaputt, vermeide es, nimm rack r4", {"avoid_racks": (["r3"], 1.0), "prefer_racks": (["r4"], 1.0)}),
]


@pytest.mark.parametrize(("hint", "labels"), COMPLEMENT)
def test_a_refusal_refuses_its_object_clause(hint: str, labels: Reading) -> None:
    _check(hint, labels)


# "nicht im selben Rack", verb-final spreads
VERB_LAST = [
    ("Bitte dafür sorgen, dass die Pods nicht im selben Rack landen.", {"spread_racks": (None, 1.0)}),
    ("die Pods sollen nicht im selben Rack landen", {"spread_racks": (None, 1.0)}),
    ("dass die pods nicht im selben rack landen waere gut", {"spread_racks": (None, 0.5)}),
    ("bitte die Replikas auf verschiedene Racks verteilen", {"spread_racks": (None, 1.0)}),
    ("Es ist wichtig, die Replikas auf mehrere Zonen zu verteilen.", {"spread_zones": (None, 1.0)}),
    ("Versuch, die Pods auf unterschiedliche Knoten zu verteilen.", {"spread_nodes": (None, 1.0)}),
    ("bitte nicht alles in eine Zone packen", {"spread_zones": (None, 1.0)}),
    ("Die Pods über eu-north-1 und eu-south-2 verteilen.",
     {"spread_regions": (None, 1.0), "prefer_regions": (["eu-north-1", "eu-south-2"], 1.0)}),
    # (was an open probe of test_robust_names)
    ("über eu-north-1 und eu-south-2 verteilen",
     {"spread_regions": (None, 1.0), "prefer_regions": (["eu-north-1", "eu-south-2"], 1.0)}),
    ("ueber eu-north-1, eu-south-2 und eu-west-3 verteilen",
     {"spread_regions": (None, 1.0), "prefer_regions": (["eu-north-1", "eu-south-2", "eu-west-3"], 1.0)}),
    ("Repartir las réplicas entre eu-north-1 y eu-south-2.",
     {"spread_regions": (None, 1.0), "prefer_regions": (["eu-north-1", "eu-south-2"], 1.0)}),
    ("Répartir les réplicas sur eu-north-1 et eu-south-2.",
     {"spread_regions": (None, 1.0), "prefer_regions": (["eu-north-1", "eu-south-2"], 1.0)}),
    ("Wenn möglich in Zone eu-central-1b laufen lassen.", {"prefer_zones": (["eu-central-1b"], 0.5)}),
    ("wenn moeglich in zone eu-central-1b laufen lassen", {"prefer_zones": (["eu-central-1b"], 0.5)}),
    ("Bitte in der Region eu-central-1 starten.", {"prefer_regions": (["eu-central-1"], 1.0)}),
    ("Die Replikas sollten zusammen auf einem Knoten laufen.", {"prefer_colocate_same_deployment": (None, 1.0)}),
]


@pytest.mark.parametrize(("hint", "labels"), VERB_LAST)
def test_the_verb_said_last(hint: str, labels: Reading) -> None:
    _check(hint, labels)


# the object first (V2), separable verbs apart, a reason after the wish
OBJECT_FIRST = [
    ("Rack r5 bitte meiden.", {"avoid_racks": (["r5"], 1.0)}),
    ("rack r5 bitte meiden", {"avoid_racks": (["r5"], 1.0)}),
    ("Den Knoten w-7 wollen wir nicht.", {"avoid_nodes": (["w-7"], 1.0)}),
    ("den knoten w-7 wollen wir nicht", {"avoid_nodes": (["w-7"], 1.0)}),
    ("Den Knoten w-4 bitte nicht verwenden.", {"avoid_nodes": (["w-4"], 1.0)}),
    ("Die Zone eu-west-1c möchten wir meiden.", {"avoid_zones": (["eu-west-1c"], 1.0)}),
    ("Knoten w-4 nicht benutzen, weil er überlastet ist.", {"avoid_nodes": (["w-4"], 1.0)}),
    ("Bitte nicht auf Knoten w-9, da der ständig abstürzt.", {"avoid_nodes": (["w-9"], 1.0)}),
    ("Bitte auf SSD-Knoten legen, weil die Datenbank viel schreibt.", {"prefer_ssd_storage": (None, 1.0)}),
    ("Die Pods vom Knoten w-3 fernhalten.", {"avoid_nodes": (["w-3"], 1.0)}),
    ("die pods von knoten w-3 fern halten", {"avoid_nodes": (["w-3"], 1.0)}),
    ("Rack r2 bitte raus lassen.", {"avoid_racks": (["r2"], 1.0)}),
    ("rack r2 rauslassen", {"avoid_racks": (["r2"], 1.0)}),
    ("zone eu-west-1a weg lassen", {"avoid_zones": (["eu-west-1a"], 1.0)}),
    ("die pods aus rack r2 raus halten", {"avoid_racks": (["r2"], 1.0)}),
    ("Zone eu-west-1a bitte außen vor lassen.", {"avoid_zones": (["eu-west-1a"], 1.0)}),
    ("El rack r5 hay que evitarlo.", {"avoid_racks": (["r5"], 1.0)}),
    ("al nodo w-7 no lo queremos", {"avoid_nodes": (["w-7"], 1.0)}),
    ("Le rack r5, à éviter.", {"avoid_racks": (["r5"], 1.0)}),
    ("le noeud w-7 on n'en veut pas", {"avoid_nodes": (["w-7"], 1.0)}),
    ("Évitez de mettre les pods dans la zone eu-west-3a.", {"avoid_zones": (["eu-west-3a"], 1.0)}),
    ("Evita desplegar en la región us-east-1.", {"avoid_regions": (["us-east-1"], 1.0)}),
]


@pytest.mark.parametrize(("hint", "labels"), OBJECT_FIRST)
def test_the_object_said_first(hint: str, labels: Reading) -> None:
    _check(hint, labels)
