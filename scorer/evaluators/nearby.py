"""prefer_nearby_nodes_same_deployment: P(n) = 2.0·k_rack + 0.5·k_zone + 0.2·k_region, φ = P / max (Eq. 8–10)."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.NEARBY
WEIGHTS = {"rack": 2.0, "zone": 0.5, "region": 0.2}  # Eq. 8


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    """Same first-pod rule as colocate: nothing placed yet means every node is as near as any other."""
    workload = ctx.pod.workload_key
    if not workload:
        return [None] * len(nodes)
    if ctx.pods.total(workload) == 0:
        return [1.0] * len(nodes)
    racks = ctx.pods.histogram(workload, "rack")
    zones = ctx.pods.histogram(workload, "zone")
    regions = ctx.pods.histogram(workload, "region")
    wr, wz, wg = WEIGHTS["rack"], WEIGHTS["zone"], WEIGHTS["region"]
    proximity = [
        (wr * racks.get(n.rack, 0) if n.rack is not None else 0.0)
        + (wz * zones.get(n.zone, 0) if n.zone is not None else 0.0)
        + (wg * regions.get(n.region, 0) if n.region is not None else 0.0)
        for n in nodes
    ]
    top = max(proximity, default=0.0)
    if top <= 0.0:
        return [0.0] * len(nodes)
    return [p / top for p in proximity]
