"""The paper's equations on small hand-computed clusters, and the tiered mode."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.pipeline import score_nodes
from scorer.scoring import Mode, _grades, normalise_additive, normalise_tiered, rank, weights
from tests.scorer.builders import context, intent, node, pod, podset


def test_beta_confidence_strength_eq2() -> None:
    # β = 100/|J| = 50; w = β·C·W
    assert weights([intent("spread_zones", 0.9, 1.5), intent("prefer_gpu", 0.5, 0.5)]) == pytest.approx([67.5, 12.5])


def test_spread_eq5_through_scores() -> None:
    """Histogram {zone-a: 5, zone-b: 2}, M = 5: φ = 1/6, 4/6 and 1 for an empty zone-c."""
    nodes = [node("a1", "zone-a"), node("b1", "zone-b"), node("c1", "zone-c")]
    placed = [pod(f"a{i}", "web", "a1") for i in range(5)] + [pod(f"b{i}", "web", "b1") for i in range(2)]
    pods, _ = podset(nodes, placed)
    ranking = score_nodes([intent("spread_zones", 0.9)], nodes, context(pod("me", "web"), pods), Mode.ADDITIVE)
    # μ = 100·0.9·φ = 15, 60, 90; S_norm = 16.7, 66.7, 100 -> 1, 6, 10
    assert ranking.raw == pytest.approx([15.0, 60.0, 90.0])
    assert ranking.scores == [1, 6, 10]
    assert ranking.nodes[ranking.best] == "c1"


def test_proximity_eq8_to_10() -> None:
    """Pods: 2 in rack-1 (zone-a), 1 in rack-3 (zone-b), all region r. P = 2·k_rack + 0.5·k_zone + 0.2·k_region."""
    nodes = [node("n1", "zone-a", "rack-1", "r"), node("n2", "zone-a", "rack-2", "r"),
             node("n3", "zone-b", "rack-3", "r"), node("n4", "zone-b", "rack-4", "r")]
    placed = [pod("p1", "web", "n1"), pod("p2", "web", "n1"), pod("p3", "web", "n3")]
    pods, _ = podset(nodes, placed)
    ranking = score_nodes([intent("prefer_nearby_nodes_same_deployment")], nodes, context(pod("me", "web"), pods),
                          Mode.ADDITIVE)
    proximity = [4 + 1 + 0.6, 0 + 1 + 0.6, 2 + 0.5 + 0.6, 0 + 0.5 + 0.6]  # 5.6, 1.6, 3.1, 1.1
    assert ranking.phi[0] == pytest.approx([p / 5.6 for p in proximity])
    assert ranking.scores == [10, 2, 5, 1]  # ⌊100·φ/10⌋: 28.6 -> 2, 55.4 -> 5, 19.6 -> 1


def test_normalisation_eq6_eq7() -> None:
    names = ["a", "b", "c", "d", "e"]
    scores, best = normalise_additive(names, [100.0, 55.0, 9.0, 0.0, -50.0])
    assert (scores, best) == ([10, 5, 1, 1, 1], 0)
    # S_norm is relative to the best: 40/80 = 50 -> 5
    assert normalise_additive(["x", "y"], [40.0, 80.0]) == ([5, 10], 1)


def test_ties_go_to_the_smallest_name_eq15() -> None:
    scores, best = normalise_additive(["m09", "m03", "m05"], [30.0, 30.0, 10.0])
    assert best == 1 and scores == [9, 10, 3]
    # float noise is not a difference: 0.1 + 0.2 ties with 0.3
    assert normalise_additive(["b", "a"], [0.1 + 0.2, 0.3])[1] == 1


def test_all_non_positive_is_neutral_in_additive() -> None:
    assert normalise_additive(["a", "b"], [0.0, -40.0]) == ([0, 0], None)
    assert normalise_additive(["a", "b"], [0.0, 0.0]) == ([0, 0], None)
    nodes = [node("a1", "zone-a"), node("b1", "zone-b")]
    pods, _ = podset(nodes)
    ranking = score_nodes([intent("avoid_zones", avoid_zones=["zone-a"])], nodes, context(pod("me"), pods),
                          Mode.ADDITIVE)
    assert ranking.scores == [0, 0] and ranking.best is None and ranking.neutral == "all-non-positive"


def test_all_equal_non_positive_is_neutral_in_both_modes() -> None:
    """Nothing wished for holds anywhere and no candidate is avoided: nothing to say."""
    nodes = [node("a1", "zone-a", network_gbps=10.0), node("b1", "zone-b", network_gbps=25.0)]
    pods, _ = podset(nodes)
    intents = [intent("avoid_zones", avoid_zones=["zone-c"]),
               intent("prefer_network_speed", 0.9, 0.5, prefer_network_speed_gbps=100)]
    for mode in Mode:
        ranking = score_nodes(intents, nodes, context(pod("me"), pods), mode)
        assert ranking.scores == [0, 0] and ranking.best is None and ranking.neutral == "all-non-positive", mode
    assert normalise_tiered(["a", "b"], [intent("avoid_racks", avoid_racks=["r"])], [[-200.0, -200.0]]) == (
        [0, 0], None)


@pytest.mark.parametrize(("avoids", "expected"), [
    # "keep off zone-a": the avoided node scores lowest, the rest tie and go by name
    ([("avoid_zones", 1.0, 1.0, {"avoid_zones": ["zone-a"]})], {"a1": 1, "a2": 1, "b1": 10, "c1": 9}),
    # "not on b1, and if possible not zone-a": strong avoid decides, the weak one only breaks ties
    ([("avoid_nodes", 1.0, 1.5, {"avoid_nodes": ["b1"]}), ("avoid_zones", 1.0, 0.5, {"avoid_zones": ["zone-a"]})],
     {"a1": 9, "a2": 9, "b1": 1, "c1": 10}),
    # two avoidances of one tier add up: a1 is avoided twice (node and zone), a2 once -> graded min..max
    ([("avoid_nodes", 1.0, 1.0, {"avoid_nodes": ["a1"]}), ("avoid_zones", 1.0, 1.0, {"avoid_zones": ["zone-a"]})],
     {"a1": 1, "a2": 5, "b1": 10, "c1": 9}),
])
def test_avoid_only_is_graded_in_tiered(avoids: list, expected: dict[str, int]) -> None:
    """Tiered (beyond the paper): every value ≤ 0 but differing -> least penalised 10, the rest min..max in [1, 9];
    additive keeps the paper's neutral answer for the same pod."""
    nodes = [node("c1", "zone-c"), node("a2", "zone-a"), node("b1", "zone-b"), node("a1", "zone-a")]
    pods, _ = podset(nodes)
    intents = [intent(name, confidence, strength, **meta) for name, confidence, strength, meta in avoids]
    tiered = score_nodes(intents, nodes, context(pod("me"), pods), Mode.TIERED)
    assert dict(zip(tiered.nodes, tiered.scores, strict=True)) == expected
    assert tiered.neutral is None and tiered.nodes[tiered.best] == min(n for n, s in expected.items() if s == 10)
    additive = score_nodes(intents, nodes, context(pod("me"), pods), Mode.ADDITIVE)
    assert additive.scores == [0, 0, 0, 0] and additive.best is None and additive.neutral == "all-non-positive"


def test_no_intents_all_zero() -> None:
    ranking = rank((), ["a", "b"], [], Mode.TIERED)
    assert ranking.scores == [0, 0] and ranking.neutral == "no-intents"


def test_paper_scenario_c_prefer_region_avoid_node() -> None:
    """β = 50: prefer μ = 50·0.9·0.5 = 22.5 everywhere; avoid μ = 50·0.95·(−2) = −95 on m02."""
    nodes = [node(n, "us-east-1a", region="us-east-1") for n in ("m02", "m03", "m04")]
    placed = [pod("db-0", "database", "m03"), pod("log-0", "logging-agent", "m02", kind="DaemonSet")]
    pods, _ = podset(nodes, placed)
    intents = [intent("avoid_same_node_as_deployments", 0.95, 1.0, deployments=["logging-agent"]),
               intent("prefer_same_region_as_deployments", 0.9, 0.5, deployments=["cache", "database"])]
    for mode in Mode:
        ranking = score_nodes(intents, nodes, context(pod("me", "api"), pods), mode)
        assert ranking.raw == pytest.approx([-72.5, 22.5, 22.5])
        assert ranking.scores == [1, 10, 9], mode


def test_tiered_lower_tiers_only_break_ties() -> None:
    """One strong wish (C 0.5) against three weak ones: additive lets the weak ones win, tiered does not."""
    nodes = [node("a", cpu_cores=32.0, ssd=False, network_gbps=10.0, memory_gb=16.0),
             node("b", cpu_cores=8.0, ssd=True, network_gbps=100.0, memory_gb=128.0)]
    intents = [intent("prefer_cpu_cores", 0.5, 1.5, prefer_cpu_cores=32),  # β = 25: 18.75
               intent("prefer_ssd_storage", 1.0, 0.5),  # 12.5 each
               intent("prefer_network_speed", 1.0, 0.5, prefer_network_speed_gbps=100),
               intent("prefer_memory_gb", 1.0, 0.5, prefer_memory_gb=64)]
    pods, _ = podset(nodes)
    additive = score_nodes(intents, nodes, context(pod("me"), pods), Mode.ADDITIVE)
    assert additive.raw == pytest.approx([18.75, 37.5]) and additive.scores == [5, 10]
    tiered = score_nodes(intents, nodes, context(pod("me"), pods), Mode.TIERED)
    assert tiered.scores == [10, 1]


def test_tiered_tie_in_strong_tier_broken_by_weak_tier() -> None:
    names = ["g1", "g2", "c1"]
    intents = [intent("prefer_gpu", 1.0, 1.5), intent("prefer_zones", 1.0, 0.5, prefer_zones=["zone-b"])]
    mu = [[75.0, 75.0, 0.0], [0.0, 25.0, 25.0]]
    assert normalise_tiered(names, intents, mu) == ([9, 10, 1], 1)


def test_tiered_strong_avoid_with_weak_prefer_grades_min_to_max() -> None:
    """The strong tier is never positive (−2 on avoided nodes): graded from its minimum, not divided by 0."""
    names = ["a", "b", "c"]
    intents = [intent("avoid_racks", 1.0, 1.5, avoid_racks=["rack-1"]), intent("prefer_nodes", 1.0, 0.5,
                                                                                prefer_nodes=["c"])]
    mu = [[-150.0, 0.0, 0.0], [0.0, 0.0, 25.0]]
    assert normalise_tiered(names, intents, mu) == ([1, 9, 10], 2)


def test_equal_positive_scores_pick_the_first_name() -> None:
    for mode in Mode:
        ranking = rank([intent("prefer_ssd_storage")], ["n2", "n1", "n3"], [[1.0, 1.0, 1.0]], mode)
        assert ranking.scores == [9, 10, 9] and ranking.nodes[ranking.best] == "n1"


def test_deterministic_and_order_independent() -> None:
    nodes = [node(f"n{i:02d}", f"zone-{i % 3}", cpu_cores=float(i)) for i in range(20)]
    placed = [pod(f"p{i}", "web", f"n{i % 7:02d}") for i in range(11)]
    pods, _ = podset(nodes, placed)
    intents = [intent("spread_zones", 0.8), intent("prefer_cpu_cores", 0.9, 1.5, prefer_cpu_cores=10)]
    ctx = context(pod("me", "web"), pods)
    first = score_nodes(intents, nodes, ctx, Mode.TIERED)
    again = score_nodes(intents, list(reversed(nodes)), ctx, Mode.TIERED)
    assert dict(zip(first.nodes, first.scores, strict=True)) == dict(zip(again.nodes, again.scores, strict=True))
    assert first.nodes[first.best] == again.nodes[again.best]


def test_rows_explain_contributions_best_first() -> None:
    ranking = rank([intent("prefer_ssd_storage", 0.8), intent("prefer_nvlink", 1.0, 0.5)], ["a", "b"],
                   [[1.0, 0.0], [None, 1.0]], Mode.ADDITIVE)
    rows = ranking.rows()
    assert [r["node"] for r in rows] == ["a", "b"]
    assert rows[0]["contributions"] == {"prefer_ssd_storage": 40.0, "prefer_nvlink": 0.0}
    assert rows[1]["contributions"] == {"prefer_ssd_storage": 0.0, "prefer_nvlink": 25.0}
    assert rows[0]["raw"] == 40.0 and rows[0]["score"] == 10 and rows[1]["score"] == 6


def _grades_by_formula(values: list[float], best: int) -> list[int]:
    """Eq. 6–7 on the wire scale written out per node: best 10, others ⌊max(v, 0)·10/max + 1e-9⌋ in [1, 9]; when
    nothing is positive, graded from the minimum to the maximum instead (all 9 when every value is equal)."""
    top, low = max(values), min(values)
    if top > 0:
        grades = [min(9, max(1, math.floor(max(v, 0.0) * (10.0 / top) + 1e-9))) for v in values]
    elif top > low:
        grades = [min(9, max(1, math.floor((v - low) * (10.0 / (top - low)) + 1e-9))) for v in values]
    else:
        grades = [9] * len(values)
    grades[best] = 10
    return grades


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.floats(-300, 300).filter(lambda v: v == 0 or abs(v) > 1e-200),  # 10/max stays finite
                          st.sampled_from([0.0, -0.0, 1e-12, -1e-12, 100.0, -200.0])), min_size=1, max_size=40),
       st.data())
def test_wire_grades_follow_eq6_7_for_any_values(values: list[float], data: st.DataObject) -> None:
    """The array arithmetic of the wire grades (few operations, truncation for the floor) gives the integers the
    formula gives, negative values and the never-positive case included."""
    best = data.draw(st.integers(0, len(values) - 1))
    assert _grades(np.array(values), best).tolist() == _grades_by_formula(values, best)
