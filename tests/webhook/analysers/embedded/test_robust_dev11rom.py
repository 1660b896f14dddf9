"""Gaps of session 11 in es, de and fr (helper "dev11rom"), probed in every language where the construction exists.

The probes are our own wording (no evaluation row). The rules they pin down:

* a bare "zone <name>" said among numbers of context (a ticket, a replica count) is still a zone wish: a ticket's
  number alone in its segment is a reference, no description; "xfa", "porfis" are courtesy; a name of an Azure
  region with a zone number ("northeurope-2") is a zone;
* a negation inside the reason after a refusal ("..., there is never room there") is the reason's, no strength of
  the refusal, and Spanish "ni hablar" is a plain refusal, like "out of the question" ("ni de broma" is emphatic);
* a spread at one level followed by a sentence that names another level with "also" and a strength of its own
  ("Preferably across racks too.") is that spread again at the other level, with that strength;
* German "die Pods zu X auf einen gemeinsamen Knoten": the replicas put with X on one shared node;
* "together with X on one node" is the relation to X only: the one node is X's, not the own replicas';
* "the zone of X, we avoid it": a refusal pointing back at a relation's place avoids that relation;
* French "à proximité l'une de l'autre" (typed without accents too) is the replicas close to each other;
* "together on one machine and spread over racks" is a contradiction: both are read.
"""

from __future__ import annotations

import pytest

from tests.webhook.analysers.embedded.probes import Labels, expected_of, problems, score
from webhook.evaluation import EvalRow

PROBES: list[tuple[str, str, Labels]] = [
    # 1. a bare zone among numbers of context
    ("en", "incident 7781, 6 replicas, zone eu-west-3c", {"prefer_zones": ["eu-west-3c"]}),
    ("es", "caso 4412, 5 réplicas, zona us-west-2c porfa", {"prefer_zones": ["us-west-2c"]}),
    ("de", "Ticket OPS-218, 2 Replikate, Zone ap-south-1b", {"prefer_zones": ["ap-south-1b"]}),
    ("fr", "ticket 9902, 6 réplicas, zone northeurope-2", {"prefer_zones": ["northeurope-2"]}),
    ("en", "7 replicas, zone eastus-2", {"prefer_zones": ["eastus-2"]}),
    ("es", "zona francecentral-1, 3 réplicas", {"prefer_zones": ["francecentral-1"]}),
    ("es", "caso OPS-77, zona me-south-1a, 3 réplicas xfa", {"prefer_zones": ["me-south-1a"]}),
    ("en", "ticket 6120: owner moved it to zone us-east-1a", {}),
    # 2. a negation in the reason after a refusal is no strength of the refusal
    ("es", "ni hablar del rack r-12, allí nunca queda hueco", {"avoid_racks": ["r-12"]}),
    ("en", "keep off zone us-west-2b, there's never capacity there", {"avoid_zones": ["us-west-2b"]}),
    ("de", "nicht in Zone eu-west-1b, dort ist nie Platz", {"avoid_zones": ["eu-west-1b"]}),
    # "ni hablar" is a plain refusal like "out of the question"; "ni de broma" stays emphatic
    ("es", "ni hablar de us-east-2", {"avoid_regions": ["us-east-2"]}),
    ("es", "en el rack r-31 ni de broma", {"avoid_racks@1.5": ["r-31"]}),
    # 3. an elided spread in the next sentence, with also and a strength of its own
    ("en", "The replicas must be spread over zones. Preferably across racks too.",
     {"spread_zones@1.5": None, "spread_racks@0.5": None}),
    ("es", "Tus instancias, entre regiones: imprescindible. Idealmente también entre racks.",
     {"spread_regions@1.5": None, "spread_racks@0.5": None}),
    ("de", "Die Pods müssen über mehrere Zonen verteilt werden. Am liebsten auch über Racks.",
     {"spread_zones@1.5": None, "spread_racks@0.5": None}),
    ("fr", "Il faut impérativement répartir les pods sur plusieurs zones. De préférence aussi sur les racks.",
     {"spread_zones@1.5": None, "spread_racks@0.5": None}),
    # 4. German "X zu Y auf einen gemeinsamen Knoten"
    ("de", "Leg die Replikate zu billing-api auf einen gemeinsamen Server.",
     {"prefer_same_node_as_deployments": ["billing-api"]}),
    ("de", "Pack die Instanzen zu edge-proxy auf einen gemeinsamen Knoten, und zwar in us-east-2b.",
     {"prefer_same_node_as_deployments": ["edge-proxy"], "prefer_zones": ["us-east-2b"]}),
    ("en", "put the pods with log-shipper on a shared node", {"prefer_same_node_as_deployments": ["log-shipper"]}),
    ("es", "pon las réplicas con cart-api en un nodo común", {"prefer_same_node_as_deployments": ["cart-api"]}),
    ("fr", "mets les pods avec cart-api sur un nœud commun", {"prefer_same_node_as_deployments": ["cart-api"]}),
    ("fr", "tous les pods sur un seul nœud, à côté de feed-indexer",
     {"prefer_colocate_same_deployment": None, "prefer_same_node_as_deployments": ["feed-indexer"]}),
    # 5. "together with X on one node": the node is X's
    ("de", "Nicht in Region us-west-1, zusammen mit auth-proxy auf einem Server, mit NVMe.",
     {"avoid_regions": ["us-west-1"], "prefer_same_node_as_deployments": ["auth-proxy"], "prefer_ssd_storage": None}),
    ("de", "gemeinsam mit feed-indexer auf einem Knoten", {"prefer_same_node_as_deployments": ["feed-indexer"]}),
    ("en", "together with feed-indexer on one node", {"prefer_same_node_as_deployments": ["feed-indexer"]}),
    ("es", "junto con feed-indexer sobre un mismo nodo", {"prefer_same_node_as_deployments": ["feed-indexer"]}),
    ("fr", "ensemble avec feed-indexer sur une seule machine", {"prefer_same_node_as_deployments": ["feed-indexer"]}),
    # 6. "the zone of X, we avoid it"
    ("fr", "dans la zone de geo-lookup ; le nœud de batch-loader, on l'évite",
     {"prefer_same_zone_as_deployments": ["geo-lookup"], "avoid_same_node_as_deployments": ["batch-loader"]}),
    ("fr", "la zone de quota-api, on l'evite", {"avoid_same_zone_as_deployments": ["quota-api"]}),
    ("es", "la zona de quota-api, la evitamos", {"avoid_same_zone_as_deployments": ["quota-api"]}),
    ("de", "die Zone von pay-svc, die meiden wir", {"avoid_same_zone_as_deployments": ["pay-svc"]}),
    ("en", "pay-svc's zone, we avoid it", {"avoid_same_zone_as_deployments": ["pay-svc"]}),
    # 7. French "l'une de l'autre"
    ("fr", "les pods à proximité l'un de l'autre", {"prefer_nearby_nodes_same_deployment": None}),
    ("fr", "instances proches l'une de l'autre, 80 go de scratch",
     {"prefer_nearby_nodes_same_deployment": None, "prefer_ephemeral_storage": 80}),
    ("fr", "replicas a proximite l'une de l'autre, rack-7 ou rack-9",
     {"prefer_nearby_nodes_same_deployment": None, "prefer_racks": ["rack-7", "rack-9"]}),
    ("fr", "pas trop loin l'un de l'autre, les conteneurs", {"prefer_nearby_nodes_same_deployment": None}),
    # 8. together on one machine and spread over racks: both
    ("fr", "ensemble sur un nœud et répartis entre les zones",
     {"prefer_colocate_same_deployment": None, "spread_zones": None}),
    ("en", "together on one machine and spread across racks",
     {"prefer_colocate_same_deployment": None, "spread_racks": None}),
    ("es", "juntitos en una máquina pero repartidos por racks",
     {"prefer_colocate_same_deployment": None, "spread_racks": None}),
    ("es", "juntas en un mismo servidor, y eso sí repartidas por zonas",
     {"prefer_colocate_same_deployment": None, "spread_zones": None}),
    ("fr", "ensemble sur la même machine mais réparties sur plusieurs racks",
     {"prefer_colocate_same_deployment": None, "spread_racks": None}),
    ("de", "zusammen auf einem Rechner und über Racks verteilt",
     {"prefer_colocate_same_deployment": None, "spread_racks": None}),
]

# Probes still read wrong, with what goes wrong (strict: a probe that starts passing must leave this table).
OPEN: dict[int, str] = {
    26: "Spanish 'sobre' is no locative word (lang/es/locative.txt), so 'sobre un mismo nodo' is not tied to the "
        "relation before it and also reads as the own replicas on one node",
}


def probe_row(index: int) -> EvalRow:
    lang, hint, labels = PROBES[index]
    return EvalRow(f"{lang}-dev11rom-{index}", hint, lang, "multi_objective", expected_of(labels))


@pytest.mark.parametrize("index", [
    pytest.param(i, id=f"{lang}-{i}", marks=[pytest.mark.xfail(reason=OPEN[i], strict=True)] if i in OPEN else [])
    for i, (lang, _, _) in enumerate(PROBES)
])
def test_probe(index: int) -> None:
    result = score(probe_row(index))
    assert result.perfect, problems(result)
