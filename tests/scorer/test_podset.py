"""The effective pod set: P_api ∪ P_local with a TTL, confirmations, deletions, incremental counts."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.facts import PodRecord
from tests.scorer.builders import Clock, node, pod, podset

NODES = [node("a1", "zone-a", "rack-1"), node("a2", "zone-a", "rack-2"), node("b1", "zone-b", "rack-3")]
WEB = "default/Deployment/web"


def test_prediction_counts_until_ttl() -> None:
    clock = Clock()
    pods, _ = podset(NODES, clock=clock, ttl_s=10)
    pods.predict(pod("p1"), "a1")
    assert pods.histogram(WEB, "node") == {"a1": 1}
    assert pods.histogram(WEB, "zone") == {"zone-a": 1}
    clock.advance(9.9)
    assert pods.expire() == 0 and pods.total(WEB) == 1
    clock.advance(0.2)
    assert pods.expire() == 1
    assert pods.total(WEB) == 0 and pods.histogram(WEB, "node") == {} and pods.predictions == 0


def test_confirmation_replaces_prediction() -> None:
    clock = Clock()
    pods, _ = podset(NODES, clock=clock)
    pods.predict(pod("p1"), "a1")
    pods.upsert(pod("p1", node_name="b1"))  # the scheduler chose otherwise; the API is the truth
    assert pods.histogram(WEB, "node") == {"b1": 1} and pods.predictions == 0
    clock.advance(60)
    pods.expire()
    assert pods.histogram(WEB, "node") == {"b1": 1}  # bound pods never expire


def test_a_confirmed_prediction_keeps_counts_requests_and_tokens() -> None:
    """The API binding the pod where we predicted changes nothing counted: tokens stay, so derived caches do."""
    changed: list[str] = []
    pods, _ = podset(NODES)
    pods.listener = lambda node, _: changed.append(node)
    pods.predict(pod("p1", cpu_cores=0.5), "a1")
    tokens = [pods.histogram_token(WEB, level) for level in ("node", "rack", "zone", "region")]
    requested, changed[:] = pods.requested("a1"), []
    pods.upsert(pod("p1", node_name="a1", cpu_cores=0.5))
    assert [pods.histogram_token(WEB, level) for level in ("node", "rack", "zone", "region")] == tokens
    assert pods.histogram(WEB, "node") == {"a1": 1} and pods.predictions == 0 and changed == []
    assert pods.requested("a1") == requested and pods._effective[pod("p1").key].record.node == "a1"
    pods.upsert(pod("p1", node_name="a1", cpu_cores=2.0))  # the same node with other requests: recounted
    assert pods.requested("a1").cpu_cores == 2.0 and changed == ["a1", "a1"]


def test_unbound_api_pod_keeps_the_prediction_and_deletion_removes_both() -> None:
    pods, _ = podset(NODES)
    pods.predict(pod("p1"), "a2")
    pods.upsert(pod("p1"))  # still pending in the API
    assert pods.histogram(WEB, "node") == {"a2": 1}
    pods.delete(pod("p1").key)
    assert pods.total(WEB) == 0


def test_predict_after_bind_is_ignored_and_forget_prediction() -> None:
    pods, _ = podset(NODES, [pod("p1", node_name="a1")])
    pods.predict(pod("p1"), "b1")
    assert pods.histogram(WEB, "node") == {"a1": 1}
    pods.predict(pod("p2"), "b1")
    pods.forget_prediction(pod("p2").key)
    assert pods.histogram(WEB, "node") == {"a1": 1}


def test_finished_or_terminating_pods_leave() -> None:
    pods, _ = podset(NODES, [pod("p1", node_name="a1", cpu_cores=2.0)])
    assert pods.requested("a1").cpu_cores == 2.0
    pods.upsert(replace(pod("p1", node_name="a1"), active=False))
    assert pods.total(WEB) == 0 and pods.requested("a1") is None


def test_relist_replaces_api_pods_and_drops_confirmed_predictions() -> None:
    pods, _ = podset(NODES, [pod("p1", node_name="a1"), pod("p2", node_name="a1")])
    pods.predict(pod("p3"), "b1")
    pods.replace_all([pod("p2", node_name="a1"), pod("p3", node_name="a2")])
    assert pods.histogram(WEB, "node") == {"a1": 1, "a2": 1} and pods.predictions == 0


def test_node_relabel_reindexes_its_pods() -> None:
    pods, nodes = podset(NODES, [pod("p1", node_name="a1")])
    nodes["a1"] = replace(nodes["a1"], zone="zone-b")
    pods.node_changed("a1")
    assert pods.histogram(WEB, "zone") == {"zone-b": 1}


def test_other_workload_name_index_is_case_insensitive_across_namespaces() -> None:
    pods, _ = podset(NODES, [pod("d0", "Database", "a1", namespace="db"), pod("d1", "database", "b1")])
    assert pods.name_histogram("DATABASE", "zone") == {"zone-a": 1, "zone-b": 1}


ops = st.lists(st.tuples(st.sampled_from(["bind", "pending", "predict", "delete", "tick", "forget"]),
                         st.integers(0, 7), st.sampled_from(["a1", "a2", "b1", "zz"]),
                         st.sampled_from(["web", "db"])), max_size=60)


@settings(max_examples=150, deadline=None)
@given(ops)
def test_incremental_counts_match_recomputation(sequence: list[tuple[str, int, str, str]]) -> None:
    """Whatever happens, the kept counts equal counting P_eff from scratch."""
    clock = Clock()
    pods, nodes = podset(NODES, clock=clock, ttl_s=10)
    bound: dict[str, PodRecord] = {}
    predicted: dict[str, tuple[PodRecord, float]] = {}
    for op, i, where, workload in sequence:
        record = pod(f"p{i}", workload, cpu_cores=1.0)
        key = record.key
        if op == "bind":
            pods.upsert(replace(record, node=where))
            bound[key] = replace(record, node=where)
            predicted.pop(key, None)
        elif op == "pending":
            pods.upsert(record)
            bound.pop(key, None)
        elif op == "predict":
            pods.predict(record, where)
            if key not in bound:
                predicted[key] = (replace(record, node=where), clock.now + 10)
        elif op == "delete":
            pods.delete(key)
            bound.pop(key, None)
            predicted.pop(key, None)
        elif op == "forget":
            pods.forget_prediction(key)
            predicted.pop(key, None)
        else:
            clock.advance(4)
            pods.expire()
            predicted = {k: v for k, v in predicted.items() if v[1] > clock.now}
        effective = list(bound.values()) + [r for k, (r, _) in predicted.items() if k not in bound]
        for level in ("node", "zone", "rack"):
            for wl in ("web", "db"):
                expected: Counter[str] = Counter()
                for r in effective:
                    if r.workload != wl:
                        continue
                    facts = nodes.get(r.node)
                    domain = r.node if level == "node" else getattr(facts, level) if facts else None
                    if domain is not None:
                        expected[domain] += 1
                assert dict(pods.histogram(f"default/Deployment/{wl}", level)) == dict(expected)
        for n in ("a1", "a2", "b1", "zz"):
            used = pods.requested(n)
            assert (used.pods if used else 0) == sum(1 for r in effective if r.node == n)


def test_a_prediction_keeps_every_field_of_the_pod_but_its_node() -> None:
    pods, _ = podset(NODES)
    record = PodRecord("ns", "p", "uid-p", None, "StatefulSet", "db", 1.5, 2.5, 1.0, True)
    pods.predict(record, "b1")
    assert pods._predicted[record.key][0] == replace(record, node="b1")


def test_histogram_tokens_change_with_the_histogram() -> None:
    """Equal tokens mean equal contents: a cache keyed by the token is never stale."""
    pods, _ = podset(NODES)
    seen: dict[object, dict[str, int]] = {}

    def check() -> None:
        for level in ("node", "rack", "zone", "region"):
            for token, counts in ((pods.histogram_token(WEB, level), pods.histogram(WEB, level)),
                                  (pods.name_token("WEB", level), pods.name_histogram("web", level))):
                assert seen.setdefault(token, dict(counts)) == dict(counts), token

    check()
    for step, (name, where) in enumerate([("p1", "a1"), ("p2", "a1"), ("p3", "b1"), ("p1", None), ("p2", "a2")]):
        if where is None:
            pods.delete(pod(name).key)
        else:
            pods.upsert(pod(name, node_name=where))
        check()
        pods.predict(pod(f"x{step}"), "a2")
        check()
        pods.forget_prediction(pod(f"x{step}").key)
        check()
    assert len({t for t in seen if t[-1]}) > 5  # the tokens did change
