"""Hints typed without punctuation where a refusal is followed by a wish (session 10, nopunct3).

- A placing verb with its object pronoun is a wish ("run it", "throw it", "lo pones", "córrelo", "pack es",
  "stell sie"), and so is taking a place ("toma", "on prend", "prends"): typed right after a refusal without
  punctuation it opens the next clause, whose place is wished ("rack-7 is best left out run it on rack-9").
- A label typed without its colon: a refusal label opening its clause with nothing but names after it refuses
  them ("out us-east-1 us-east-2 preferred us-west-2", read as a preference of all three before: a flip); "yes",
  "ja", "oui", "mejor" before a place wish it ("no rack-2 yes rack-4").
- "avoid X" never becomes "prefer X"; where the follow-up is not understood nothing is wished.

The probes are our own wording (no evaluation row); the whole reading must be exactly the labels.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.webhook.analysers.embedded.probes import check_values

# a refusal, then a placing verb (or taking a place) with no punctuation between: both are read
REFUSAL_THEN_PLACING = [
    ("rack-7 is best left out run it on rack-9", {"avoid_racks": ["rack-7"], "prefer_racks": ["rack-9"]}),
    ("stay off node-a3 put it on node-a5", {"avoid_nodes": ["node-a3"], "prefer_nodes": ["node-a5"]}),
    ("rack r12 is a no go schedule it on rack r14", {"avoid_racks": ["r12"], "prefer_racks": ["r14"]}),
    (
        "us-east-1b is off limits throw it in us-east-1c",
        {"avoid_zones": ["us-east-1b"], "prefer_zones": ["us-east-1c"]},
    ),
    ("not rack-2 run it on rack-6", {"avoid_racks": ["rack-2"], "prefer_racks": ["rack-6"]}),
    ("avoid node-17 pin it to node-19", {"avoid_nodes": ["node-17"], "prefer_nodes": ["node-19"]}),
    ("el rack r5 ni hablar lo pones en el rack r8", {"avoid_racks": ["r5"], "prefer_racks": ["r8"]}),
    ("fuera el nodo n-12 ponlo en el n-14", {"avoid_nodes": ["n-12"], "prefer_nodes": ["n-14"]}),
    ("evita us-east-1 toma us-east-2", {"avoid_regions": ["us-east-1"], "prefer_regions": ["us-east-2"]}),
    ("el rack-3 esta vetado correlo en el rack-5", {"avoid_racks": ["rack-3"], "prefer_racks": ["rack-5"]}),
    ("nada de eu-west-2 mandalo a eu-central-1", {"avoid_regions": ["eu-west-2"], "prefer_regions": ["eu-central-1"]}),
    ("rack r3 ist tabu pack es auf rack r7", {"avoid_racks": ["r3"], "prefer_racks": ["r7"]}),
    ("meide eu-west-1 nimm eu-north-1", {"avoid_regions": ["eu-west-1"], "prefer_regions": ["eu-north-1"]}),
    ("vermeide rack b2 stell es auf rack b4", {"avoid_racks": ["b2"], "prefer_racks": ["b4"]}),
    (
        "nicht in eu-west-3 pack es nach eu-central-1",
        {"avoid_regions": ["eu-west-3"], "prefer_regions": ["eu-central-1"]},
    ),
    ("le rack r20 est à proscrire on prend le rack r22", {"avoid_racks": ["r20"], "prefer_racks": ["r22"]}),
    ("évite eu-west-3 mets-le sur eu-west-1", {"avoid_regions": ["eu-west-3"], "prefer_regions": ["eu-west-1"]}),
    ("jamais sur le noeud n-5 mets le sur n-6", {"avoid_nodes": ["n-5"], "prefer_nodes": ["n-6"]}),
    ("pas de us-east-1 on prend us-west-2", {"avoid_regions": ["us-east-1"], "prefer_regions": ["us-west-2"]}),
    ("exclus le rack k1 place le sur le rack k2", {"avoid_racks": ["k1"], "prefer_racks": ["k2"]}),
    ("ne le mets pas sur n-3 mets-le sur n-4", {"avoid_nodes": ["n-3"], "prefer_nodes": ["n-4"]}),
    ("nimm nicht rack r1 sondern rack r2", {"avoid_racks": ["r1"], "prefer_racks": ["r2"]}),
    ("lass rack r5 weg nimm rack r6", {"avoid_racks": ["r5"], "prefer_racks": ["r6"]}),
    (
        "keep it off us-east-2 schedule it in us-west-1",
        {"avoid_regions": ["us-east-2"], "prefer_regions": ["us-west-1"]},
    ),
    ("evita el nodo n-4 toma el nodo n-6", {"avoid_nodes": ["n-4"], "prefer_nodes": ["n-6"]}),
    ("no us-east-1 run them in us-west-2", {"avoid_regions": ["us-east-1"], "prefer_regions": ["us-west-2"]}),
    ("keine knoten k-3 stell sie auf k-8", {"avoid_nodes": ["k-3"], "prefer_nodes": ["k-8"]}),
    ("pas sur le noeud n-9 prends n-11", {"avoid_nodes": ["n-9"], "prefer_nodes": ["n-11"]}),
    ("never rack-5 throw it on rack-6", {"avoid_racks": ["rack-5"], "prefer_racks": ["rack-6"]}),
    ("nada del rack r9 llevalo al rack r10", {"avoid_racks": ["r9"], "prefer_racks": ["r10"]}),
]


@pytest.mark.parametrize(("hint", "labels"), REFUSAL_THEN_PLACING)
def test_a_placing_verb_after_a_refusal_opens_the_next_wish(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# labels typed without colon: the refused names and the wished ones stay apart
LABELS_WITHOUT_COLON = [
    ("avoid us-west-1 prefer us-east-2", {"avoid_regions": ["us-west-1"], "prefer_regions": ["us-east-2"]}),
    ("no rack-2 yes rack-4", {"avoid_racks": ["rack-2"], "prefer_racks": ["rack-4"]}),
    (
        "Out eu-west-1 eu-west-2 Preferred eu-central-1",
        {"avoid_regions": ["eu-west-1", "eu-west-2"], "prefer_regions": ["eu-central-1"]},
    ),
    (
        "out eu-west-1 eu-west-2 preferred eu-central-1",
        {"avoid_regions": ["eu-west-1", "eu-west-2"], "prefer_regions": ["eu-central-1"]},
    ),
    ("nada de zona eu-west-1a mejor eu-west-1b", {"avoid_zones": ["eu-west-1a"], "prefer_zones": ["eu-west-1b"]}),
    ("no al rack-3 si al rack-4", {"avoid_racks": ["rack-3"], "prefer_racks": ["rack-4"]}),
    (
        "nein zone eu-central-1a ja zone eu-central-1b",
        {"avoid_zones": ["eu-central-1a"], "prefer_zones": ["eu-central-1b"]},
    ),
    ("pas le rack r3 plutôt le rack r4", {"avoid_racks": ["r3"], "prefer_racks": ["r4"]}),
    ("non au rack-3 oui au rack-4", {"avoid_racks": ["rack-3"], "prefer_racks": ["rack-4"]}),
    ("excluded rack-3 rack-4 preferred rack-8", {"avoid_racks": ["rack-3", "rack-4"], "prefer_racks": ["rack-8"]}),
    ("banned node-w1 node-w2", {"avoid_nodes": ["node-w1", "node-w2"]}),
    ("out us-west-1", {"avoid_regions": ["us-west-1"]}),
    ("no rack-2 yes", {"avoid_racks": ["rack-2"]}),
    ("nein zone eu-central-1a", {"avoid_zones": ["eu-central-1a"]}),
]


@pytest.mark.parametrize(("hint", "labels"), LABELS_WITHOUT_COLON)
def test_a_label_without_its_colon_keeps_its_polarity(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# what already read right stays so: the refusal alone, the wish before the refusal, a negated placing verb
UNCHANGED = [
    # a placing verb after its subject tells how things are: no wish
    ("we run it on rack-5 today. avoid rack-6", {"avoid_racks": ["rack-6"]}),
    ("they run them in us-east-1 at the moment", {}),
    ("run it on rack-5 not rack-3", {"avoid_racks": ["rack-3"], "prefer_racks": ["rack-5"]}),
    ("avoid rack-3 run it anywhere else", {"avoid_racks": ["rack-3"]}),
    ("dont run it on rack-5", {"avoid_racks": ["rack-5"]}),
    ("no lo pongas en el rack r2", {"avoid_racks": ["r2"]}),
    ("rack-3 is best left out", {"avoid_racks": ["rack-3"]}),
]


@pytest.mark.parametrize(("hint", "labels"), UNCHANGED)
def test_refusals_alone_stay_refusals(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)


# not read yet: nothing is wished where the follow-up is not understood (no flip)
NOT_YET = [
    pytest.param(
        "never eu-north-1 go with eu-west-3",
        {"avoid_regions": ["eu-north-1"], "prefer_regions": ["eu-west-3"]},
        marks=pytest.mark.xfail(
            reason="'go with' after a refusal is read as nothing yet (test_polarity keeps 'skip rack-4 go with rack-6' "
            "without a preference)",
            strict=True,
        ),
    ),
    pytest.param(
        "rack-11 should be left alone run it on rack-12",
        {"avoid_racks": ["rack-11"], "prefer_racks": ["rack-12"]},
        marks=pytest.mark.xfail(
            reason="a refusal verb before 'left alone' with its place cut off before it: nothing is read (safe)",
            strict=True,
        ),
    ),
    pytest.param(
        "knoten n7 kommt nicht in frage lass es auf n9 laufen",
        {"avoid_nodes": ["n7"], "prefer_nodes": ["n9"]},
        marks=pytest.mark.xfail(
            reason="'lass es ... laufen' is a verb-final wish the cut after the refusal does not open", strict=True
        ),
    ),
]


@pytest.mark.parametrize(("hint", "labels"), NOT_YET)
def test_not_yet_read(hint: str, labels: dict[str, Any]) -> None:
    check_values(hint, labels)
