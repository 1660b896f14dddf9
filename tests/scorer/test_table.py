"""The columnar node table: rows follow the cache, and the cached path scores exactly like the offline path."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest

from scorer.evaluators import Context, evaluate
from scorer.facts import LiveMetrics, NodeFacts, PodRecord
from scorer.pipeline import score_nodes, score_view
from scorer.scoring import Mode
from scorer.state import ClusterState
from scorer.table import NodeTable
from shared.catalogue import CATALOGUE, MetaType
from tests.scorer.builders import intent, node, pod


def test_rows_grow_are_reused_and_unknown_names_are_nan() -> None:
    table = NodeTable(capacity=2)
    for i in range(5):
        table.put(node(f"n{i}", f"z{i % 2}", cpu_cores=float(i)))
    table.remove("n1")
    table.put(node("n9", "z1", cpu_cores=9.0))
    view = table.view(["n4", "ghost", "n9", "n1"])
    assert view.column("cpu").tolist()[0] == 4.0 and view.column("cpu").tolist()[2] == 9.0
    assert math.isnan(view.column("cpu")[1]) and math.isnan(view.column("cpu")[3])
    assert view.known.tolist() == [True, False, True, False] and view.unknown_count == 2
    assert view.lookup({"z0": 3, "z1": 5}, "zone").tolist()[0::2] == [3.0, 5.0]


def test_requested_and_live_columns_follow_the_state() -> None:
    state = ClusterState()
    state.replace_nodes([{"metadata": {"name": "a"}, "status": {"allocatable": {"cpu": "8", "memory": "16Gi"}}}])
    state.pods.upsert(pod("p", "web", "a", cpu_cores=2.0, memory_gb=4.0, gpus=1.0))
    view = state.table.view(["a"])
    assert (view.column("req_cpu")[0], view.column("req_mem")[0], view.column("req_gpu")[0]) == (2.0, 4.0, 1.0)
    state.pods.delete(pod("p").key)
    assert state.table.view(["a"]).column("req_cpu")[0] == 0.0
    state.set_live({"a": LiveMetrics(cpu_load=0.5, cpu_load_at=100.0), "zz": LiveMetrics(cpu_load=1.0)}, 100.0)
    assert state.table.view(["a"]).column("cpu_load")[0] == 0.5
    state.set_live({}, 101.0)
    assert math.isnan(state.table.view(["a"]).column("cpu_load")[0])


def _random_cluster(seed: int) -> tuple[list[NodeFacts], list[PodRecord]]:
    rng = random.Random(seed)
    nodes = []
    for i in range(40):
        gpus = rng.choice([0.0, 0.0, 1.0, 8.0])
        product = rng.choice(["NVIDIA-H100-80GB-HBM3", "Tesla-T4", None]) if gpus else None
        nodes.append(NodeFacts(
            name=f"n{i:02d}", zone=rng.choice(["za", "zb", None]), rack=rng.choice(["r1", "r2", "r3", None]),
            region=rng.choice(["us-east-1", "eu-west-1"]), cpu_cores=rng.choice([4.0, 16.0, 64.0]),
            memory_gb=rng.choice([16.0, 64.0, 256.0]), ephemeral_storage_gb=rng.choice([None, 50.0, 500.0]),
            gpu_count=gpus, gpu_product=product, gpu_memory_gb=rng.choice([None, 16.1, 85.9]) if gpus else None,
            gpu_tokens=tuple(product.lower().split("-")) if product else (),
            nvlink=rng.choice([None, True, False]), ssd=rng.choice([None, True, False]),
            network_gbps=rng.choice([None, 10.0, 100.0])))
    pods = [pod(f"p{i}", rng.choice(["web", "db", "logging-agent"]), rng.choice(nodes).name,
                cpu_cores=rng.choice([0.5, 2.0]), memory_gb=1.0, gpus=rng.choice([0.0, 1.0])) for i in range(60)]
    return nodes, pods


def _example(spec_name: str) -> object:
    spec = next(s for s in CATALOGUE if s.name == spec_name)
    meta = {}
    for m in spec.metadata:
        meta[m.key] = {"deployments": ["db", "logging-agent"], "prefer_zones": ["zb"], "avoid_zones": ["za"],
                       "prefer_racks": ["r2"], "avoid_racks": ["r1"], "prefer_regions": ["europe"],
                       "avoid_regions": ["us-east-1"], "prefer_nodes": ["n03"], "avoid_nodes": ["n04"],
                       "prefer_gpu_models": ["H100"]}.get(m.key, ["x"]) if m.type is MetaType.LIST else 8.0
    return intent(spec_name, 0.9, 1.0, **meta)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cached_view_scores_like_plain_facts(seed: int) -> None:
    """The informer-fed table (with removals and re-adds) and a fresh table from the same facts agree."""
    nodes, pods = _random_cluster(seed)
    state = ClusterState()
    for facts in [*nodes, NodeFacts("gone-1"), NodeFacts("gone-2")]:
        state.nodes[facts.name] = facts
        state.table.put(facts)
    for name in ("gone-1", "gone-2"):
        del state.nodes[name]
        state.table.remove(name)
    state.pods.replace_all(pods)
    live = {"n01": LiveMetrics(cpu_load=0.9, cpu_load_at=1e9, gpu_fb_free_gb=3.0, gpu_fb_free_at=1e9)}
    state.set_live(live, 1e9)
    ctx = Context(pod("me", "web", cpu_cores=1.0, memory_gb=1.0), state.pods, live, fresh_after=1e9 - 60)
    names = [n.name for n in reversed(nodes)] + ["ghost"]
    plain = [state.nodes.get(n) or NodeFacts.unknown(n) for n in names]
    for spec in CATALOGUE:
        wish = _example(spec.name)
        assert evaluate(wish, state.table.view(names), ctx) == evaluate(wish, plain, ctx), spec.name
    wishes = [_example(s) for s in ("spread_zones", "prefer_gpu", "avoid_same_node_as_deployments",
                                    "prefer_least_loaded_nodes", "prefer_gpu_models")]
    for mode in Mode:
        cached = score_view(wishes, state.table.view(names), ctx, mode)
        offline = score_nodes(wishes, plain, ctx, mode)
        assert cached.scores == offline.scores and np.allclose(cached.raw, offline.raw)


def test_relabelled_node_moves_domain() -> None:
    table = NodeTable()
    table.put(node("a", "za"))
    table.put(replace(node("a", "za"), zone="zb"))
    assert table.view(["a"]).lookup({"zb": 2}, "zone").tolist() == [2.0]


def test_a_repeated_name_list_follows_the_rows_as_they_come_and_go() -> None:
    table = NodeTable(capacity=2)
    table.put(node("a"))
    assert table.view(["a", "b"]).known.tolist() == [True, False]
    table.put(node("b"))
    assert table.view(["a", "b"]).known.tolist() == [True, True]
    table.remove("a")
    assert table.view(["a", "b"]).known.tolist() == [False, True]


def test_pre_encoded_reply_matches_orjson() -> None:
    import orjson

    table = NodeTable(capacity=1)
    for name in ("m02", 'odd"name', "m03"):
        table.put(node(name))
    view = table.view(["m03", 'odd"name', "m02"])
    assert view.encode([10, 0, 7]) == orjson.dumps([{"Host": "m03", "Score": 10}, {"Host": 'odd"name', "Score": 0},
                                                    {"Host": "m02", "Score": 7}])
    assert table.view(["m02", "ghost"]).encode([1, 2]) is None  # unknown names: the caller encodes
    assert view.encode([11, 0, 0]) is None and view.encode([0, -1, 0]) is None  # out of 0..10: the caller encodes


def test_reply_matches_orjson_for_every_score_and_a_repeated_list() -> None:
    """Replies gathered from the pre-encoded entries are byte-identical to orjson, list after list."""
    import orjson

    table = NodeTable(capacity=1)
    names = ["m02", 'odd"name', "m03", "ünï", "m10"]
    for name in names:
        table.put(node(name))
    rng = random.Random(5)
    cases = [[10, 0, 7, 9, 1], [0] * 5, [10] * 5, [1, 2, 3, 4, 10], [10, 10, 0, 10, 5]]
    cases += [[rng.randint(0, 10) for _ in names] for _ in range(20)]
    for scores in cases:
        view = table.view(list(names))
        for encoded in (view.encode(scores), view.encode(np.array(scores))):
            assert encoded == orjson.dumps([{"Host": n, "Score": s} for n, s in zip(names, scores, strict=True)])
    assert table.view(list(names)).encode([11, 0, 0, 0, 0]) is None
    table.put(node("m04"))  # a new row: its entries are encoded when it is added
    assert table.view(["m04", "m02"]).encode([3, 10]) == b'[{"Host":"m04","Score":3},{"Host":"m02","Score":10}]'
    assert table.view(["m04", "m02"]).encode([10, 3]) == b'[{"Host":"m04","Score":10},{"Host":"m02","Score":3}]'


def test_name_lists_with_a_newline_are_compared_name_by_name() -> None:
    table = NodeTable()
    for name in ("a", "b", "a\nb"):
        table.put(node(name))
    assert table.view(["a", "b"]).index.tolist() != table.view(["a\nb"]).index.tolist()
    assert len(table.view(["a\nb"])) == 1 and table.view(["a\nb"]).unknown_count == 0


def test_caches_follow_every_change_of_the_cluster() -> None:
    """Static φ kept per table version, histogram arrays kept per token, the req_load column: after random
    changes the cached state scores exactly like a fresh table from the same facts."""
    rng = random.Random(9)
    nodes, pods = _random_cluster(4)
    state = ClusterState()
    for facts in nodes:
        state.nodes[facts.name] = facts
        state.table.put(facts)
    state.pods.replace_all(pods)
    kinds = [_example(spec.name) for spec in CATALOGUE]
    names = [n.name for n in nodes] + ["ghost"]
    me = pod("me", "web", cpu_cores=1.0, memory_gb=1.0)
    for round_ in range(40):
        change = rng.choice(["relabel", "remove", "readd", "pod", "unpod", "predict", "live", "nolive"])
        name = rng.choice([n.name for n in nodes])
        if change == "relabel" and name in state.nodes:
            facts = replace(state.nodes[name], zone=rng.choice(["za", "zb", "zc"]), ssd=rng.choice([True, False]),
                            cpu_cores=rng.choice([4.0, 64.0]), rack=rng.choice(["r1", "r9", None]))
            state.nodes[name] = facts
            state.table.put(facts)
            state.pods.node_changed(name)
        elif change == "remove" and name in state.nodes:
            del state.nodes[name]
            state.table.remove(name)
            state.pods.node_changed(name)
        elif change == "readd" and name not in state.nodes:
            facts = next(n for n in nodes if n.name == name)
            state.nodes[name] = facts
            state.table.put(facts)
            state.pods.node_changed(name)
        elif change == "pod":
            state.pods.upsert(pod(f"x{round_}", rng.choice(["web", "db", "logging-agent"]), name, cpu_cores=2.0))
        elif change == "unpod" and len(state.pods):
            state.pods.delete(rng.choice(pods).key)
        elif change == "predict":
            state.pods.predict(pod(f"y{round_}", "web", memory_gb=3.0), name)
        elif change == "live":
            state.set_live({name: LiveMetrics(cpu_load=rng.random(), cpu_load_at=1e9)}, 1e9)
        elif change == "nolive":
            state.set_live({}, 1e9)
        ctx = Context(me, state.pods, state.live, fresh_after=1e9 - 60)
        plain = [state.nodes.get(n) or NodeFacts.unknown(n) for n in names]
        for wish in kinds:
            cached = evaluate(wish, state.table.view(names), ctx)
            assert cached == evaluate(wish, plain, ctx), (round_, change, wish.name)
        for mode in Mode:
            cached = score_view(kinds[:6], state.table.view(names), ctx, mode)
            offline = score_nodes(kinds[:6], plain, ctx, mode)
            assert cached.scores == offline.scores and cached.unknown == offline.unknown


def test_updates_that_change_no_column_keep_the_cached_phi() -> None:
    """A status heartbeat (new resourceVersion) or new NUMA zones must not throw the static φ away; a new label
    value must."""
    from scorer.facts import NumaZone

    table = NodeTable()
    facts = node("a", "za", ssd=True, resource_version="1")
    table.put(facts)
    version = table.version
    table.put(replace(facts, resource_version="2", numa_zones=(NumaZone("0", 8.0, 32.0, 0.0),)))
    assert table.version == version
    assert table.view(["a"]).facts()[0].numa_zones == (NumaZone("0", 8.0, 32.0, 0.0),)  # records still follow
    table.put(replace(facts, ssd=False))
    assert table.version > version
    assert table.view(["a"]).column("ssd").tolist() == [0.0]


@pytest.mark.parametrize("seed", [4, 5])
def test_incremental_columns_equal_a_fresh_table_after_any_changes(seed: int) -> None:
    """req_load and gpu_free are kept per row as pods, predictions, claims and nodes change: after a random run
    of such changes they equal the columns of a table built afresh from the same facts and requests."""
    rng = random.Random(seed)
    nodes, pods = _random_cluster(seed)
    state = ClusterState()
    for facts in nodes:
        state.nodes[facts.name] = facts
        state.table.put(facts)
    for step in range(300):
        choice = rng.random()
        if choice < 0.4:
            state.pods.upsert(rng.choice(pods))
        elif choice < 0.6:
            state.pods.delete(rng.choice(pods).key)
        elif choice < 0.8:
            state.pods.predict(pod(f"q{step}", "web", gpus=rng.choice([0.0, 1.0]), cpu_cores=1.0, memory_gb=2.0),
                               rng.choice(nodes).name)
        else:  # a claim or a new GPU count on a node (a ResourceSlice or claim event)
            name = rng.choice(nodes).name
            facts = replace(state.nodes[name], gpu_claimed=float(rng.randint(0, 2)),
                            gpu_count=rng.choice([state.nodes[name].gpu_count, 8.0]))
            state.nodes[name] = facts
            state.table.put(facts)
    fresh = NodeTable.of(list(state.nodes.values()), requested=state.pods.requested)
    names = list(state.nodes)
    for column in ("gpu_free", "req_load", "req_gpu"):
        kept, rebuilt = state.table.view(names).column(column), fresh.table.view(names).column(column)
        assert np.array_equal(kept, rebuilt, equal_nan=True), column
    assert state.table.view(names).column("gpu_free").tolist() == [
        f.gpu_count - f.gpu_claimed - (state.pods.requested(f.name).gpus if state.pods.requested(f.name) else 0.0)
        for f in state.nodes.values()]


@pytest.mark.parametrize("listed", [3, 18])
def test_lookup_of_few_and_many_domains_reads_each_nodes_domain(listed: int) -> None:
    """A histogram of a few zones (filled in Python) and of many (filled by array operations): the node's own
    count, 0 for a zone without pods, NaN for a node without a zone; unknown zones in the histogram are ignored."""
    table = NodeTable()
    nodes = [node(f"n{i:02d}", f"z{i % 20}" if i % 7 else None) for i in range(40)]
    for facts in nodes:
        table.put(facts)
    counts = {f"z{i}": i + 1 for i in range(listed)} | {"z-nowhere": 99}
    view = table.view([n.name for n in nodes])
    expected = [float("nan") if n.zone is None else float(counts.get(n.zone, 0)) for n in nodes]
    assert np.array_equal(view.lookup(counts, "zone"), expected, equal_nan=True)
    assert np.array_equal(view.lookup(counts, "zone", token=("t", listed)), expected, equal_nan=True)
