"""The paper's six scenarios through the chart-installed webhook and scheduler pods, and their stock baselines.

Same scenarios and checks as tests/e2e/test_scenarios.py (host processes), but here the webhook
answering admission is a pod behind the chart's Service, and the scheduler that places hinted pods
is the chart's kube-scheduler pod with the scorer beside it. The baselines run on the host's stock
kube-scheduler. Users' pods land on the KWOK nodes (the paper's eight); the real node is tainted.
"""

from __future__ import annotations

from typing import Any

import pytest

from localcluster.cluster import LocalCluster
from localcluster.metrics import scrape, total
from localcluster.nodes import paper_cluster
from localcluster.scenarios import SCENARIOS, Scenario, describe_placement, run

pytestmark = [pytest.mark.e2e, pytest.mark.node]
PAPER_NODES = {spec.name for spec in paper_cluster()}


def scorer_calls(cluster: LocalCluster) -> float:
    """Prioritize calls answered by the scorers of the chart's scheduler pods (their /metrics, pod IPs)."""
    calls = 0.0
    for pod in cluster.release_pods("scheduler"):
        ip = pod["status"].get("podIP")
        if ip and pod["status"].get("phase") == "Running":
            samples = scrape(f"http://{ip}:8888/metrics")
            calls += total(samples, "semaff_scorer_requests_total", verb="prioritize", outcome="ok")
    return calls


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.key for s in SCENARIOS])
def test_scenario_through_the_chart(cluster: LocalCluster, scenario: Scenario, node_report: dict[str, Any]) -> None:
    plane = cluster.plane
    assert plane is not None
    row = {"scenario": f"{scenario.key} {scenario.title}", "expected": scenario.expected, "ok": "FAIL"}
    node_report["rows"][scenario.key] = row

    before = scorer_calls(cluster)
    ours = run(plane.kube, plane.create_namespace, scenario)
    calls = scorer_calls(cluster) - before
    row["ours"] = describe_placement(ours.placement)
    plane.delete_namespace(ours.namespace)
    base = run(plane.kube, plane.create_namespace, scenario, baseline=True)
    row["baseline"] = describe_placement(base.placement)
    plane.delete_namespace(base.namespace)

    for pod in ours.pods:
        assert pod["spec"]["schedulerName"] == "semantic-scheduler", "the webhook pods route hinted pods"
        assert pod["metadata"]["annotations"].get("semantic-affinity.io/status") == "analyzed"
        assert pod["spec"]["nodeName"] in PAPER_NODES, "users' pods never land on the tainted real node"
    replicas = int(scenario.main_manifest()["spec"]["replicas"])
    assert calls >= replicas, f"the chart's scorer answered {calls} prioritize calls for {replicas} pods"
    verdict = scenario.check(ours.placement, ours.pods)
    assert verdict.ok, f"scenario {scenario.key}: expected {scenario.expected}, got {row['ours']} ({verdict.why})"
    assert scenario.baseline_check is not None, f"scenario {scenario.key} has no baseline check"
    base_verdict = scenario.baseline_check(base.placement, base.pods)
    row["baseline"] += f" ({base_verdict.why})"
    assert base_verdict.ok, f"baseline {scenario.key}: expected {scenario.baseline_expected}, got {row['baseline']}"
    row["ok"] = "yes"
