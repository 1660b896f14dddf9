"""The chart's node agent on a real kube-apiserver: with its own ServiceAccount, bound to a pod on a node,
``python -m nodeagent`` may label that node's NVLink label and nothing else (RBAC + ValidatingAdmissionPolicy).

No kubelet runs here: the agent runs as a process with a token the API server issues for a pod bound to
the node (TokenRequest with a boundObjectRef), which is the token a kubelet would mount, node name included.
"""

from __future__ import annotations

import json
import os
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

from localcluster import ControlPlane, tools
from localcluster.nodes import NodeSpec
from tests.charts.render import CHART, render
from tests.e2e.test_chart_apply import server_side_apply, token_kubeconfig
from tests.nodeagent.fakes import fake_nvidia_smi

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).parents[2]
LABEL = "semantic-affinity.io/nvlink"


@pytest.fixture(scope="module")
def helm() -> Path:
    return tools.helm()


def patch_node(plane: ControlPlane, token: str, node: str, labels: dict[str, str]) -> int:
    """A merge patch of a Node's labels with ``token``; the HTTP status."""
    request = urllib.request.Request(
        f"{plane.server}/api/v1/nodes/{node}", method="PATCH",
        data=json.dumps({"metadata": {"labels": labels}}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/merge-patch+json"})
    try:
        with urllib.request.urlopen(request, context=ssl.create_default_context(cafile=str(plane.ca_file)),
                                    timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def pod_token(plane: ControlPlane, namespace: str, account: str, node: str) -> str:
    """A token bound to a pod on ``node``, as the kubelet would request it for the DaemonSet's pod."""
    pod = plane.kube.create(f"/api/v1/namespaces/{namespace}/pods", {
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "agent"},
        "spec": {"nodeName": node, "serviceAccountName": account,
                 "containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10"}]}})
    request = {"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest",
               "spec": {"expirationSeconds": 3600, "boundObjectRef": {
                   "kind": "Pod", "apiVersion": "v1", "name": "agent", "uid": pod["metadata"]["uid"]}}}
    return plane.kube.create(f"/api/v1/namespaces/{namespace}/serviceaccounts/{account}/token",
                             request)["status"]["token"]


def test_node_agent_may_change_only_its_label_on_its_node(control_plane: ControlPlane, helm: Path,
                                                          tmp_path: Path) -> None:
    tag = uuid.uuid4().hex[:6]
    namespace, release = f"agent-{tag}", f"agent-{tag}"
    own, other = control_plane.create_nodes([NodeSpec(f"gpu-{tag}-own"), NodeSpec(f"gpu-{tag}-other")])
    control_plane.create_namespace(namespace)
    rendered = render(helm, (CHART / "ci" / "node-agent-values.yaml",), namespace=namespace, release=release)
    objects = [o for o in rendered.objects if o["metadata"]["name"].endswith("-node-agent")
               and o["kind"] != "DaemonSet"]
    assert {o["kind"] for o in objects} == {"ServiceAccount", "ClusterRole", "ClusterRoleBinding",
                                            "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"}
    try:
        for obj in objects:
            server_side_apply(control_plane, obj)
        account = next(o for o in objects if o["kind"] == "ServiceAccount")["metadata"]["name"]
        token = pod_token(control_plane, namespace, account, own)
        kubeconfig = token_kubeconfig(control_plane, token, tmp_path / "agent.kubeconfig")

        # the policy takes a moment to load: until then the forbidden write would pass, so wait for the denial
        deadline = time.monotonic() + 60
        while patch_node(control_plane, token, other, {LABEL: "true"}) != 403:
            assert time.monotonic() < deadline, "the ValidatingAdmissionPolicy never denied a write to another node"
            control_plane.kube.patch(f"/api/v1/nodes/{other}", {"metadata": {"labels": {LABEL: None}}})
            time.sleep(0.5)
        assert LABEL not in control_plane.kube.get(f"/api/v1/nodes/{other}")["metadata"]["labels"]
        # its own node, but not its label
        assert patch_node(control_plane, token, own, {"topology.kubernetes.io/zone": "elsewhere"}) == 403

        smi = fake_nvidia_smi(tmp_path, "p4d.24xlarge-8xA100-NV12.txt")
        env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
        env.update(NODE_NAME=own, KUBECONFIG=str(kubeconfig), SEMAFF_NVIDIA_SMI=smi)
        env.pop("KUBERNETES_SERVICE_HOST", None)
        done = subprocess.run([sys.executable, "-m", "nodeagent", "--once"], env=env, cwd=ROOT,
                              capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        assert control_plane.kube.get(f"/api/v1/nodes/{own}")["metadata"]["labels"][LABEL] == "true"
        # the same agent pointed at another node is refused: it cannot label what it does not run on
        env["NODE_NAME"] = other
        refused = subprocess.run([sys.executable, "-m", "nodeagent", "--once"], env=env, cwd=ROOT,
                                 capture_output=True, timeout=120)
        assert refused.returncode == 1 and b"updating the node failed" in refused.stderr
        assert LABEL not in control_plane.kube.get(f"/api/v1/nodes/{other}")["metadata"]["labels"]
    finally:
        for obj in objects:
            if obj["kind"] != "ServiceAccount":
                control_plane.kube.delete(_cluster_path(obj))
        control_plane.force_delete_pods(namespace)
        control_plane.delete_nodes([own, other])
        control_plane.delete_namespace(namespace)


def _cluster_path(obj: dict) -> str:
    plural = {"ClusterRole": "/apis/rbac.authorization.k8s.io/v1/clusterroles",
              "ClusterRoleBinding": "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
              "ValidatingAdmissionPolicy": "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies",
              "ValidatingAdmissionPolicyBinding":
                  "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings"}[obj["kind"]]
    return f"{plural}/{obj['metadata']['name']}"
