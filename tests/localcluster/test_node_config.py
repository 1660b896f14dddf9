"""The real node's and the cluster's generated configuration (no root, no processes)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from types import SimpleNamespace

import jsonschema
import pytest

from localcluster import node as node_mod
from localcluster.cluster import CHART, merged, placement_values
from localcluster.kwok import MANAGED, kwok_node_manifest
from localcluster.nodes import paper_cluster


@pytest.fixture
def real_node(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> node_mod.RealNode:
    monkeypatch.setattr(node_mod, "NODE_ROOT", tmp_path)
    plane = SimpleNamespace(ca_file=tmp_path / "ca.crt", kubeconfig=tmp_path / "kubeconfig", bin=tmp_path)
    return node_mod.RealNode(plane)  # type: ignore[arg-type]


def test_containerd_config_has_the_three_settings_this_host_needs(real_node: node_mod.RealNode) -> None:
    config = tomllib.loads(real_node.containerd_config())
    cri = config["plugins"]["io.containerd.grpc.v1.cri"]
    assert cri["restrict_oom_score_adj"] is True  # root lacks CAP_SYS_RESOURCE here
    assert cri["containerd"]["runtimes"]["runc"]["options"]["SystemdCgroup"] is False
    assert cri["sandbox_image"] == node_mod.PAUSE_REF  # built locally, never pulled
    assert cri["cni"]["conf_dir"].startswith(str(real_node.dir))  # private, not /etc/cni
    assert config["grpc"]["address"] == str(real_node.socket)


def test_kubelet_runs_on_cgroup_v1_with_cgroupfs_and_is_tainted(real_node: node_mod.RealNode) -> None:
    config = real_node.kubelet_config(10250, 10248)
    assert config["failCgroupV1"] is False and config["cgroupDriver"] == "cgroupfs"
    assert config["containerRuntimeEndpoint"] == f"unix://{real_node.socket}"
    assert config["registerWithTaints"] == [{"key": node_mod.CONTROL_PLANE_ROLE, "effect": "NoSchedule"}]
    assert config["address"] == node_mod.NODE_IP


def test_cni_config_uses_the_bridge_the_apiserver_listens_on(real_node: node_mod.RealNode) -> None:
    (bridge, _) = real_node.cni_config()["plugins"]  # type: ignore[misc]
    assert bridge["bridge"] == node_mod.BRIDGE
    assert bridge["ipam"]["ranges"] == [[{"subnet": node_mod.POD_CIDR}]]
    json.dumps(real_node.cni_config())


@pytest.mark.parametrize(
    ("repository", "expected"),
    [
        ("semantic-affinity", "docker.io/library/semantic-affinity"),
        ("someone/app", "docker.io/someone/app"),
        ("registry.k8s.io/kube-scheduler", "registry.k8s.io/kube-scheduler"),
        ("localhost/app", "localhost/app"),
    ],
)
def test_image_names_are_normalised_as_the_cri_looks_them_up(repository: str, expected: str) -> None:
    assert node_mod.normalized(repository) == expected


def test_placement_values_are_valid_chart_values_and_pin_every_release_pod() -> None:
    values = placement_values()
    jsonschema.validate(values, json.loads((CHART / "values.schema.json").read_text()))
    for section in (values["webhook"], values["scheduler"], values["tls"]["job"]):
        assert section["nodeSelector"] == {node_mod.CONTROL_PLANE_ROLE: ""}
        assert section["tolerations"][0]["key"] == node_mod.CONTROL_PLANE_ROLE
    assert values["image"]["pullPolicy"] == "Never"  # no registry is reachable


def test_kwok_nodes_are_the_paper_nodes_marked_for_kwok() -> None:
    spec = paper_cluster()[0]
    manifest = kwok_node_manifest(spec)
    assert manifest["metadata"]["annotations"] == {MANAGED: "fake"}
    assert manifest["metadata"]["labels"]["kubernetes.io/hostname"] == spec.name
    assert manifest["status"]["allocatable"]["cpu"] == spec.cpu


def test_extra_values_merge_into_the_placement_at_every_depth() -> None:
    # A shallow merge dropped tls.job's placement: the certificate Job then ran on a KWOK node,
    # which "completes" Job pods without running them, and the renewal silently never happened.
    values = merged(placement_values(), {"tls": {"job": {"renewWithinDays": 366}}, "logLevel": "debug"})
    assert values["tls"]["job"]["renewWithinDays"] == 366
    assert values["tls"]["job"]["nodeSelector"] == placement_values()["tls"]["job"]["nodeSelector"]
    assert values["logLevel"] == "debug"


def test_chain_cleanup_deletes_our_chains_and_the_jumps_into_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # iptables -S output as kube-proxy and the CNI bridge plugin leave it (comments are quoted).
    listing = "\n".join([
        "-P FORWARD ACCEPT",
        "-N CNI-FORWARD",
        "-N DOCKER-USER",
        "-N KUBE-FORWARD",
        '-A FORWARD -m comment --comment "kubernetes forwarding rules" -j KUBE-FORWARD',
        '-A FORWARD -m comment --comment "CNI firewall plugin rules" -j CNI-FORWARD',
        "-A FORWARD -j DOCKER-USER",
        "-A KUBE-FORWARD -j CNI-FORWARD",
    ])  # fmt: skip
    calls: list[tuple[str, ...]] = []

    def fake_run(*argv: object, check: bool = False) -> object:
        calls.append(tuple(str(a) for a in argv))
        out = listing if "-S" in argv and "filter" in argv else ""
        return SimpleNamespace(returncode=0, stdout=out)

    monkeypatch.setattr(node_mod, "_run", fake_run)
    monkeypatch.setattr(node_mod.shutil, "which", lambda _: "/usr/sbin/iptables")
    node_mod._remove_chains("iptables")
    deletes = [c[5:] for c in calls if c[4] == "-D"]
    assert deletes == [
        ("FORWARD", "-m", "comment", "--comment", "kubernetes forwarding rules", "-j", "KUBE-FORWARD"),
        ("FORWARD", "-m", "comment", "--comment", "CNI firewall plugin rules", "-j", "CNI-FORWARD"),
    ]
    removed = [c[5] for c in calls if c[4] == "-X"]
    assert removed == ["CNI-FORWARD", "KUBE-FORWARD"]  # never someone else's chain (DOCKER-USER)
