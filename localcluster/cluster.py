"""The chart installed the way users install it, on a local cluster with one real node (``make cluster``).

``LocalCluster().start()``:
1. clean up what a crashed run left, create the pod bridge (localcluster/node.py);
2. a control plane pods can reach (localcluster/controlplane.py with ``node_ip``), stock scheduler;
3. the images (localcluster/images.py), containerd, kubelet and kube-proxy: one real node, tainted
   ``node-role.kubernetes.io/control-plane:NoSchedule`` so only the chart's pods run on it;
4. KWOK and the paper's eight nodes (localcluster/nodes.py ``paper_cluster``) as simulated nodes,
   where users' pods go;
5. ``helm install --wait`` of charts/semantic-affinity with its default values except the pull
   policy (the images are already in containerd) and the placement of its pods on the real node.

``stop()`` undoes all of it, in reverse. ``python -m localcluster.cluster`` is ``make cluster``.
"""

from __future__ import annotations

import atexit
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from localcluster import tools
from localcluster.binaries import REPO, k8s_version
from localcluster.controlplane import SEMANTIC_SCHEDULER, SYSTEM_NAMESPACE, ControlPlane
from localcluster.images import Image, all_images
from localcluster.kube import wait_for
from localcluster.kwok import create_kwok_nodes, start_kwok
from localcluster.node import CONTROL_PLANE_ROLE, RealNode, cleanup, prepare
from localcluster.nodes import NodeSpec, paper_cluster

CHART = REPO / "charts" / "semantic-affinity"
RELEASE = "semaff"
HELM_TIMEOUT = "5m"


def placement_values() -> dict[str, Any]:
    """Chart values putting every pod of the release (webhook, scheduler, certificate Job) on the real node."""
    placement = {
        "nodeSelector": {CONTROL_PLANE_ROLE: ""},
        "tolerations": [{"key": CONTROL_PLANE_ROLE, "operator": "Exists", "effect": "NoSchedule"}],
    }
    return {
        "image": {"pullPolicy": "Never"},
        "webhook": dict(placement),
        "scheduler": {**placement, "image": {"pullPolicy": "Never"}},
        "tls": {"job": dict(placement)},
    }


def merged(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """``extra`` over ``base``, maps merged key by key at every depth (as Helm merges values files)."""
    out = dict(base)
    for key, value in extra.items():
        out[key] = merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


class LocalCluster:
    """One real node + KWOK nodes + the chart; see the module docstring. Also a context manager."""

    def __init__(self, kwok_nodes: Sequence[NodeSpec] | None = None, release: str = RELEASE) -> None:
        self.kwok_nodes = list(paper_cluster() if kwok_nodes is None else kwok_nodes)
        self.release = release
        self.namespace = SYSTEM_NAMESPACE
        self.plane: ControlPlane | None = None
        self.node: RealNode | None = None
        self.images: list[Image] = []
        self.timings: dict[str, float] = {}
        self._prepared = False
        self._binaries = tools.fetch()

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    def _step(self, name: str, began: float) -> None:
        self.timings[name] = round(time.monotonic() - began, 1)
        print(f"[cluster] {name}: {self.timings[name]}s", file=sys.stderr, flush=True)

    def start(self) -> LocalCluster:
        atexit.register(self.stop)
        try:
            began = time.monotonic()
            node_ip = prepare()
            self._prepared = True
            self.plane = ControlPlane(node_ip=node_ip).start()
            self._step("control plane", began)
            began = time.monotonic()
            self.images = all_images(self.plane.bin, k8s_version(self.plane.bin))
            self._step("images", began)
            began = time.monotonic()
            self.node = RealNode(self.plane).start(self.images)
            self._step("real node", began)
            began = time.monotonic()
            start_kwok(self.plane)
            create_kwok_nodes(self.plane, self.kwok_nodes)
            self._step("KWOK nodes", began)
            began = time.monotonic()
            self.install()
            self._step("helm install --wait", began)
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Real node first (its pods, CNI, mounts, iptables, bridge), then KWOK and the control plane."""
        if self.node is not None:
            self.node.stop()
            self.node = None
        elif self._prepared:  # failed before the node started: the bridge and run directory still go
            cleanup()
        self._prepared = False
        if self.plane is not None:
            self.plane.stop()
            self.plane = None

    @property
    def kubeconfig(self) -> Path:
        assert self.plane is not None, "the cluster is not started"
        return self.plane.kubeconfig

    # -- helm and kubectl -------------------------------------------------------------------

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k.lower() not in {"http_proxy", "https_proxy", "all_proxy"}}
        env["KUBECONFIG"] = str(self.kubeconfig)
        env["HELM_CACHE_HOME"] = env["HELM_CONFIG_HOME"] = env["HELM_DATA_HOME"] = str(self.kubeconfig.parent / "helm")
        return env

    def helm(self, *args: str, check: bool = True, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """Run helm against this cluster; on failure the error carries helm's own output."""
        return self._tool("helm", args, check, timeout)

    def kubectl(self, *args: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return self._tool("kubectl", args, check, timeout)

    def _tool(self, name: str, args: tuple[str, ...], check: bool, timeout: float) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [str(self._binaries[name]), *args], env=self._env(), capture_output=True, text=True, timeout=timeout
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"{name} {' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
        return done

    def values_file(self, extra: dict[str, Any] | None = None) -> Path:
        values = merged(placement_values(), extra or {})
        path = self.kubeconfig.parent / "values.yaml"
        path.write_text(yaml.safe_dump(values, sort_keys=False))
        return path

    def install(self, extra_values: dict[str, Any] | None = None) -> None:
        """``helm upgrade --install --wait`` of the chart into the system namespace (also after a failed uninstall)."""
        self.helm(
            "upgrade", "--install", self.release, str(CHART), "--namespace", self.namespace, "--create-namespace",
            "--values", str(self.values_file(extra_values)), "--wait", "--timeout", HELM_TIMEOUT,
        )  # fmt: skip
        self.wait_release_ready()

    def upgrade(self, extra_values: dict[str, Any] | None = None, *extra_args: str) -> None:
        self.helm(
            "upgrade", self.release, str(CHART), "--namespace", self.namespace,
            "--values", str(self.values_file(extra_values)), "--wait", "--timeout", HELM_TIMEOUT, *extra_args,
        )  # fmt: skip
        self.wait_release_ready()

    def release_pods(self, component: str | None = None) -> list[dict[str, Any]]:
        assert self.plane is not None
        selector = f"app.kubernetes.io/instance={self.release}"
        if component:
            selector += f",app.kubernetes.io/component={component}"
        return self.plane.kube.items(f"/api/v1/namespaces/{self.namespace}/pods", labelSelector=selector)

    def wait_release_ready(self, timeout: float = 300) -> None:
        """Every Deployment of the release has all replicas updated and available, on the real node."""
        assert self.plane is not None and self.node is not None
        kube, node = self.plane.kube, self.node.name

        def ready() -> bool:
            deployments = kube.items(
                f"/apis/apps/v1/namespaces/{self.namespace}/deployments",
                labelSelector=f"app.kubernetes.io/instance={self.release}",
            )
            if not deployments:
                return False
            for d in deployments:
                want, status = d["spec"].get("replicas", 1), d.get("status", {})
                if status.get("observedGeneration", 0) < d["metadata"]["generation"]:
                    return False
                if not (
                    status.get("updatedReplicas") == status.get("availableReplicas") == want == status.get("replicas")
                ):
                    return False
            running = [p for p in self.release_pods() if p["status"].get("phase") == "Running"]
            return all(p["spec"].get("nodeName") == node for p in running)

        wait_for(f"release {self.release} ready on {node}", ready, timeout, interval=1.0)

    def describe(self) -> str:
        """``kubectl get nodes,pods -A -o wide`` (what a user looks at first)."""
        return self.kubectl("get", "nodes,pods", "-A", "-o", "wide").stdout


def main() -> int:
    """``make cluster``: start, print how to reach it, wait for Ctrl-C, clean up."""
    if os.geteuid() != 0:
        print("make cluster runs a kubelet, containerd and iptables rules: it needs root", file=sys.stderr)
        return 2
    cluster = LocalCluster()
    stop = {"now": False}

    def on_signal(signum: int, _frame: object) -> None:
        stop["now"] = True

    began = time.monotonic()
    cluster.start()
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    print(cluster.describe())
    print(f"semantic scheduler: {SEMANTIC_SCHEDULER}; images: " + ", ".join(i.ref for i in cluster.images))
    print(f"startup {time.monotonic() - began:.0f}s: {cluster.timings}")
    print(f"export KUBECONFIG={cluster.kubeconfig}")
    print("==> running; press Ctrl-C to stop and clean up", flush=True)
    try:
        while not stop["now"]:
            time.sleep(0.5)
    finally:
        print("==> stopping", flush=True)
        cluster.stop()
        print("==> stopped; processes, mounts, iptables chains and the bridge are gone", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
