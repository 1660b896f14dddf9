"""A refusal whose object is a pronoun or an ellipsis points back at the one place or workload named before it
("wrk-rz-3 loses packets all day, so leave it out"): every language, every level, hedges at 0.5, and nothing
read when two names could be meant or when the refusal verb is itself negated."""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import readings

POINTED = [
    # en: a consequence word, a sentence before, a hedge, a rack and a zone
    ("wrk-rz-3 loses packets every hour so leave it out", "avoid_nodes", ["wrk-rz-3"], 1.0),
    ("rack-q12 overheats every afternoon. stay away from it", "avoid_racks", ["rack-q12"], 1.0),
    ("wrk-lon-22 reboots at random, so skip it if possible", "avoid_nodes", ["wrk-lon-22"], 0.5),
    ("us-east-1f had outages all week, so avoid it", "avoid_zones", ["us-east-1f"], 1.0),
    # es
    ("el wk-bcn-08 pierde paquetes a todas horas, asi que ni lo toques", "avoid_nodes", ["wk-bcn-08"], 1.0),
    ("el nd-vlc-31 se reinicia cada noche, por eso evítalo", "avoid_nodes", ["nd-vlc-31"], 1.0),
    # de
    ("kn-muc-07 stürzt dauernd ab, also lass den weg", "avoid_nodes", ["kn-muc-07"], 1.0),
    ("kn-ber-19 hängt sich ständig auf, daher lass ihn aus", "avoid_nodes", ["kn-ber-19"], 1.0),
    # fr
    (
        "le noeud srv-lil-05 perd le réseau toutes les heures, donc on le laisse tranquille",
        "avoid_nodes",
        ["srv-lil-05"],
        1.0,
    ),
    ("srv-nan-12 plante sans arrêt, du coup on l'évite", "avoid_nodes", ["srv-nan-12"], 1.0),
]


@pytest.mark.parametrize(("hint", "intent", "items", "strength"), POINTED)
def test_a_refusal_pointing_back_avoids_the_one_place_named_before(
    hint: str, intent: str, items: list[str], strength: float
) -> None:
    read = readings(hint)
    assert set(read) == {intent}, read
    got_strength, metadata = read[intent]
    assert got_strength == strength
    assert next(iter(metadata.values())) == items


DEPLOYMENTS = [
    ("el pdf-renderer se come toda la cpu, no pongas esto a su lado", ["pdf-renderer"]),
    ("el pdf-renderer se come toda la cpu, no lo pongas junto a él", ["pdf-renderer"]),
    ("der log-shipper frisst die platte voll, bitte nicht neben den stellen", ["log-shipper"]),
    ("der log-shipper frisst die platte voll, bitte nicht neben ihm", ["log-shipper"]),
    ("le video-encoder sature le cpu, ne nous mets pas à côté de lui", ["video-encoder"]),
]


@pytest.mark.parametrize(("hint", "deployments"), DEPLOYMENTS)
def test_a_refusal_pointing_back_avoids_the_one_workload_named_before(hint: str, deployments: list[str]) -> None:
    read = readings(hint)
    assert set(read) == {"avoid_same_node_as_deployments"}, read
    assert read["avoid_same_node_as_deployments"][1]["deployments"] == deployments


NOTHING_OR_NO_FLIP = [
    # two candidate antecedents: which one is meant is not certain
    "wrk-rz-3 is flaky and wrk-rz-4 runs hot, skip it",
    "el wk-bcn-08 falla y el rack-b2 se calienta, asi que ni lo toques",
    "le api-front et le cache-redis saturent tout, ne nous mets pas à côté de lui",
    # the refusal verb is itself negated: it asks for the place
    "wrk-rz-3 is solid, don't skip it",
    "el wk-bcn-08 va de lujo, no lo evites",
    "kn-muc-07 läuft super, lass den nicht aus",
    "srv-nan-12 marche bien, ne l'évite pas",
]


@pytest.mark.parametrize("hint", NOTHING_OR_NO_FLIP)
def test_an_unsure_refusal_avoids_nothing(hint: str) -> None:
    read = readings(hint)
    assert not any(name.startswith("avoid_") for name in read), read


APPROVED = [
    ("wrk-rz-3 is great, use it", "prefer_nodes", ["wrk-rz-3"]),
]


@pytest.mark.parametrize(("hint", "intent", "items"), APPROVED)
def test_an_approval_pointing_back_never_becomes_a_refusal(hint: str, intent: str, items: list[str]) -> None:
    read = readings(hint)
    assert not any(name.startswith("avoid_") for name in read), read
    assert read.get(intent, (0, {}))[1].get(intent) == items
