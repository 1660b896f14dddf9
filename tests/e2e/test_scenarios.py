"""The paper's six scenarios on a real control plane, with our webhook and scorer, against stock Kubernetes.

Own control plane for this module (not the shared session one): the eight paper nodes must be the
only nodes, whatever other e2e modules create. Per scenario: our Deployment (hint in the pod
template; the webhook analyses it and routes the pod to the ``semantic-scheduler`` profile whose
extender is our scorer), then the paper's stock-Kubernetes rules on the ``default-scheduler``
profile. Each run gets a fresh namespace, deleted (pods force-deleted) before the next.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from localcluster import ControlPlane, paper_cluster
from localcluster.metrics import scrape, total
from localcluster.scenarios import SCENARIOS, Scenario, describe_placement, run
from localcluster.workloads import describe_pod

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def paper() -> Iterator[ControlPlane]:
    plane = ControlPlane()
    try:
        plane.start()
        plane.create_nodes(paper_cluster())
        plane.start_scorer()
        plane.start_webhook()
        yield plane
    finally:
        plane.stop()


def scorer_counts(plane: ControlPlane) -> tuple[float, float]:
    """(prioritize calls answered, of which neutral) from the scorer's own /metrics."""
    samples = scrape(f"{plane.scorer_url}/metrics")
    return (total(samples, "semaff_scorer_requests_total", verb="prioritize", outcome="ok"),
            total(samples, "semaff_scorer_neutral_fallbacks_total"))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.key for s in SCENARIOS])
def test_scenario(paper: ControlPlane, scenario: Scenario, e2e_report: dict[str, Any]) -> None:
    row = {"scenario": f"{scenario.key} {scenario.title}", "expected": scenario.expected, "ok": "FAIL"}
    e2e_report["rows"][scenario.key] = row

    ok_before, neutral_before = scorer_counts(paper)
    ours = run(paper.kube, paper.create_namespace, scenario)
    ok_after, neutral_after = scorer_counts(paper)
    verdict = scenario.check(ours.placement, ours.pods)
    row["ours"] = describe_placement(ours.placement)
    if scenario.key == "B":
        e2e_report["describe"] = describe_pod(paper.kube, ours.namespace, ours.pods[0]["metadata"]["name"])
    paper.delete_namespace(ours.namespace)

    base = run(paper.kube, paper.create_namespace, scenario, baseline=True)
    base_verdict = scenario.baseline_check(base.placement, base.pods) if scenario.baseline_check else None
    row["baseline"] = describe_placement(base.placement)
    paper.delete_namespace(base.namespace)

    replicas = int(scenario.main_manifest()["spec"]["replicas"])
    calls, scored = ok_after - ok_before, (ok_after - ok_before) - (neutral_after - neutral_before)
    e2e_report["extender"] += (
        f"scenario {scenario.key}: scorer answered {calls:.0f} prioritize calls, {scored:.0f} non-neutral\n"
    )
    for pod in ours.pods:
        assert pod["spec"]["schedulerName"] == "semantic-scheduler", "the webhook routes hinted pods to our profile"
        assert pod["metadata"]["annotations"].get("semantic-affinity.io/status") == "analyzed"
    # Prioritize errors are swallowed by kube-scheduler: prove the extender was really consulted.
    assert calls >= replicas, f"scorer saw {calls} prioritize calls for {replicas} pods"
    assert scored >= 1, "every prioritize answer was neutral"
    assert verdict.ok, f"scenario {scenario.key}: expected {scenario.expected}, got {row['ours']} ({verdict.why})"
    if base_verdict is not None:
        assert base_verdict.ok, f"baseline {scenario.key}: expected {scenario.baseline_expected}, got {row['baseline']}"
    row["ok"] = "yes"
