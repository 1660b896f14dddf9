"""The chart on a real kube-apiserver 1.36: `helm install` is accepted, and the RBAC it grants works.

No kubelet runs, so no pod starts: the tests assert the API objects and run the components that
can run here (kube-scheduler, the certificate Job's script) as processes with the chart's own
ServiceAccount tokens, so a missing permission fails the test.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import ssl
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from certs import tool as certs
from localcluster import ControlPlane, tools
from localcluster.kube import ApiError, wait_for
from localcluster.processes import Process, free_port
from localcluster.services import probe
from tests.charts.render import CHART, ROOT, render

pytestmark = pytest.mark.e2e

SSA = "application/apply-patch+yaml"


@pytest.fixture(scope="module")
def helm() -> Path:
    return tools.helm()


@pytest.fixture
def namespace(control_plane: ControlPlane) -> Iterator[str]:
    name = f"semaff-chart-{uuid.uuid4().hex[:6]}"
    control_plane.create_namespace(name)
    yield name
    control_plane.delete_namespace(name)


def run_helm(helm: Path, plane: ControlPlane, *args: str) -> str:
    proc = subprocess.run(
        [str(helm), *args, "--kubeconfig", str(plane.kubeconfig)],
        capture_output=True,
        text=True,
        timeout=300,
        env={
            **os.environ,
            "HELM_CACHE_HOME": str(plane.dir / "helm-cache"),
            "HELM_CONFIG_HOME": str(plane.dir / "helm-config"),
            "HELM_DATA_HOME": str(plane.dir / "helm-data"),
        },
    )
    assert proc.returncode == 0, f"helm {' '.join(args)}\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def resource_path(plane: ControlPlane, obj: dict[str, Any]) -> str:
    """REST path of an object, from API discovery (so any kind the chart renders works)."""
    group_version = obj["apiVersion"]
    base = f"/api/{group_version}" if "/" not in group_version else f"/apis/{group_version}"
    (resource,) = [r for r in plane.kube.get(base)["resources"] if r["kind"] == obj["kind"] and "/" not in r["name"]]
    ns = obj["metadata"].get("namespace")
    prefix = f"{base}/namespaces/{ns}" if resource["namespaced"] else base
    return f"{prefix}/{resource['name']}/{obj['metadata']['name']}"


def server_side_apply(plane: ControlPlane, obj: dict[str, Any]) -> None:
    """Server-side apply of one rendered object (force: conflicts with other field managers go our way)."""
    plane.kube.request(
        "PATCH", resource_path(plane, obj), obj, params={"fieldManager": "e2e", "force": "true"}, content_type=SSA
    )


def service_account_token(plane: ControlPlane, namespace: str, name: str) -> str:
    request = {"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": {"expirationSeconds": 3600}}
    path = f"/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token"
    return plane.kube.create(path, request)["status"]["token"]


def token_kubeconfig(plane: ControlPlane, token: str, path: Path) -> Path:
    path.write_text(
        yaml.safe_dump(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "clusters": [
                    {"name": "c", "cluster": {"server": plane.server, "certificate-authority": str(plane.ca_file)}}
                ],
                "users": [{"name": "u", "user": {"token": token}}],
                "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
                "current-context": "c",
            }
        )
    )
    return path


def user_provided_material(tmp_path: Path, service: str, namespace: str) -> Path:
    out = tmp_path / "certs"
    # the Service names (as in a cluster) and localhost (the tests call the webhook process directly)
    certs.ensure(out, dns_names=[*certs.service_dns_names(service, namespace), "localhost"], signing_key=True)
    return out


def create_user_secrets(plane: ControlPlane, namespace: str, material: Path) -> None:
    def b64(name: str) -> str:
        return base64.b64encode((material / name).read_bytes()).decode()

    plane.kube.create(
        f"/api/v1/namespaces/{namespace}/secrets",
        {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": "user-webhook-tls"},
            "type": "kubernetes.io/tls",
            "data": {"tls.crt": b64("tls.crt"), "tls.key": b64("tls.key")},
        },
    )
    plane.kube.create(
        f"/api/v1/namespaces/{namespace}/secrets",
        {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": "user-signing-key"},
            "data": {"signing.key": b64("signing.key")},
        },
    )


def user_secret_values(material: Path, tmp_path: Path) -> Path:
    values = tmp_path / "user-secret.yaml"
    values.write_text(
        yaml.safe_dump(
            {
                "tls": {
                    "mode": "secret",
                    "secret": {"name": "user-webhook-tls", "caBundle": (material / "ca.crt").read_text()},
                },
                "signing": {"existingSecret": "user-signing-key", "verifyKeys": (material / "signing.pub").read_text()},
            }
        )
    )
    return values


def test_helm_install_with_user_secrets_is_accepted(
    control_plane: ControlPlane, helm: Path, namespace: str, tmp_path: Path
) -> None:
    release = "semaff"
    material = user_provided_material(tmp_path, f"{release}-semantic-affinity-webhook", namespace)
    create_user_secrets(control_plane, namespace, material)
    values = user_secret_values(material, tmp_path)
    try:
        run_helm(helm, control_plane, "install", release, str(CHART), "--namespace", namespace, "--values", str(values))
        expected = render(helm, (values,), namespace=namespace, release=release).objects
        # No certificate hooks with user-provided material; only the pre-delete Job (not run at install).
        jobs = [o for o in expected if o["kind"] == "Job"]
        assert [j["metadata"]["annotations"]["helm.sh/hook"] for j in jobs] == ["pre-delete"]
        expected = tuple(o for o in expected if "helm.sh/hook" not in (o["metadata"].get("annotations") or {}))
        for obj in expected:
            live = control_plane.kube.get(resource_path(control_plane, obj))
            assert live["metadata"]["labels"]["app.kubernetes.io/instance"] == release
        webhook_config = control_plane.kube.get(
            f"/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/{release}-semantic-affinity"
        )
        (hook,) = webhook_config["webhooks"]
        assert base64.b64decode(hook["clientConfig"]["caBundle"]) == (material / "ca.crt").read_bytes()
        assert hook["matchConditions"][0]["name"] == "has-hint-or-semantic-affinity-annotation"

        # Fail-open on a real apiserver: the webhook has no running pod, yet a hinted pod is created.
        workload_ns = f"{namespace}-work"
        control_plane.create_namespace(workload_ns)
        try:
            pod = control_plane.kube.create(
                f"/api/v1/namespaces/{workload_ns}/pods",
                {
                    "apiVersion": "v1",
                    "kind": "Pod",
                    "metadata": {"name": "hinted", "annotations": {"semantic-affinity.io/hint": "needs a GPU"}},
                    "spec": {"containers": [{"name": "c", "image": "busybox"}]},
                },
            )
            assert pod["metadata"]["annotations"]["semantic-affinity.io/hint"] == "needs a GPU"
        finally:
            control_plane.delete_namespace(workload_ns)

        # An upgrade with changed settings is accepted and keeps the caBundle.
        run_helm(
            helm, control_plane, "upgrade", release, str(CHART), "--namespace", namespace, "--values", str(values),
            "--set", "webhook.timeoutSeconds=5",
        )  # fmt: skip
        (hook,) = control_plane.kube.get(
            f"/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/{release}-semantic-affinity"
        )["webhooks"]
        assert hook["timeoutSeconds"] == 5
        assert base64.b64decode(hook["clientConfig"]["caBundle"]) == (material / "ca.crt").read_bytes()
    finally:
        # No kubelet in this tier, so the pre-delete Job could never run: the node tier runs it.
        run_helm(helm, control_plane, "uninstall", release, "--namespace", namespace, "--no-hooks")


def test_api_server_rejects_a_broken_object(control_plane: ControlPlane, helm: Path, namespace: str) -> None:
    """The acceptance test above can fail: a wrong matchCondition is refused by the apiserver."""
    rendered = render(helm, namespace=namespace, release="broken")
    config = next(o for o in rendered.objects if o["kind"] == "MutatingWebhookConfiguration")
    config["webhooks"][0]["matchConditions"][0]["expression"] = "object.metadata.annotations.nosuchmacro(k, k)"
    with pytest.raises(ApiError) as caught:
        control_plane.kube.request(
            "PATCH", resource_path(control_plane, config), config, params={"fieldManager": "e2e"}, content_type=SSA
        )
    assert caught.value.status == 422


def test_semantic_scheduler_runs_with_the_charts_config_and_rbac(
    control_plane: ControlPlane, helm: Path, namespace: str, tmp_path: Path
) -> None:
    """kube-scheduler 1.36 loads the chart's KubeSchedulerConfiguration and, with only the chart's
    RBAC (its ServiceAccount token), starts its informers and wins its own leader Lease."""
    release = "sched"
    rendered = render(
        helm,
        namespace=namespace,
        release=release,
        set_values=(
            "signing.existingSecret=x",
            "signing.verifyKeys=k",
            "tls.mode=secret",
            "tls.secret.name=t",
            "tls.secret.caBundle=c",
        ),
    )
    for obj in rendered.objects:
        server_side_apply(control_plane, obj)
    try:
        config_map = next(
            o for o in rendered.objects if o["kind"] == "ConfigMap" and o["metadata"]["name"].endswith("-scheduler")
        )
        config = yaml.safe_load(config_map["data"]["scheduler-config.yaml"])
        account = f"{release}-semantic-affinity-scheduler"
        kubeconfig = token_kubeconfig(
            control_plane, service_account_token(control_plane, namespace, account), tmp_path / "sa.kubeconfig"
        )
        # In a cluster the in-cluster config is used; here the same identity through a kubeconfig.
        # The profile is renamed so it cannot take pods meant for the harness' own scheduler.
        config["clientConnection"] = {"kubeconfig": str(kubeconfig)}
        config["profiles"][0]["schedulerName"] = f"chart-e2e-{uuid.uuid4().hex[:6]}"
        config_file = tmp_path / "scheduler-config.yaml"
        config_file.write_text(yaml.safe_dump(config))
        log = tmp_path / "kube-scheduler.log"
        port = free_port()
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [str(control_plane.bin / "kube-scheduler"), f"--config={config_file}", "--bind-address=127.0.0.1",
                 f"--secure-port={port}", f"--authentication-kubeconfig={kubeconfig}",
                 f"--authorization-kubeconfig={kubeconfig}", "--v=2"],
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        try:
            lease_path = f"/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{account}"

            def leader() -> str | None:
                assert proc.poll() is None, log.read_text()[-4000:]
                try:
                    return control_plane.kube.get(lease_path)["spec"].get("holderIdentity")
                except ApiError:
                    return None

            wait_for("the semantic scheduler's leader Lease", leader, 60)
            text = log.read_text()
            # no file written (the container's root filesystem is read-only), our extender loaded
            assert "Generated self-signed cert in-memory" in text
            assert '"URLPrefix":"http://127.0.0.1:8888"' in text and '"Ignorable":true' in text
            assert "forbidden" not in text.lower(), [line for line in text.splitlines() if "orbidden" in line][:5]
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    finally:
        for obj in rendered.objects:
            control_plane.kube.delete(resource_path(control_plane, obj))


def _load_cert_job() -> Any:
    from tests.charts.render import load_script

    return load_script("cert_job")


def test_certificate_job_with_its_own_rbac_keeps_material_across_runs(
    control_plane: ControlPlane, helm: Path, namespace: str
) -> None:
    """The Job's script, as the Job's ServiceAccount: creates Secrets and patches the caBundle, then
    reuses everything on the next run (an upgrade), and `helm upgrade` does not reset the caBundle."""
    release = "jobcerts"
    cert_job = _load_cert_job()
    rendered = render(helm, namespace=namespace, release=release)
    hooks = [o for o in rendered.objects if "helm.sh/hook" in o["metadata"].get("annotations", {})]
    job = next(o for o in hooks if o["kind"] == "Job")
    env = {e["name"]: e["value"] for e in job["spec"]["template"]["spec"]["containers"][0]["env"]}
    env.pop("WORK_DIR")
    for obj in hooks:
        if obj["kind"] != "Job":
            server_side_apply(control_plane, obj)
    token = service_account_token(control_plane, namespace, f"{release}-semantic-affinity-certs")
    api = cert_job.Api(control_plane.server, token, ssl.create_default_context(cafile=str(control_plane.ca_file)))
    certs_cmd = [sys.executable, "-m", "certs"]
    try:
        # pre-install: the webhook configuration does not exist yet
        first = cert_job.run(api, env, certs_cmd)
        assert first["tls_secret"] == first["ca_secret"] == first["signing_secret"] == "created"
        assert first["verify_configmap"] == "created"
        assert first["ca_bundle"].startswith("absent")
        # the release's own objects (what helm applies between the hook phases)
        run_helm(helm, control_plane, "install", release, str(CHART), "--namespace", namespace, "--no-hooks")
        # post-install: patches the caBundle; nothing else changes
        second = cert_job.run(api, env, certs_cmd)
        assert second["ca_bundle"] == "patched"
        assert {second[k] for k in ("tls_secret", "ca_secret", "signing_secret", "verify_configmap")} == {"unchanged"}
        config_path = f"/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/{release}-semantic-affinity"
        bundle = control_plane.kube.get(config_path)["webhooks"][0]["clientConfig"]["caBundle"]
        ca = control_plane.kube.get(f"/api/v1/namespaces/{namespace}/secrets/{env['CA_SECRET']}")["data"]["ca.crt"]
        assert base64.b64decode(bundle) == base64.b64decode(ca)
        tls = control_plane.kube.get(f"/api/v1/namespaces/{namespace}/secrets/{env['TLS_SECRET']}")
        assert tls["type"] == "kubernetes.io/tls"
        verify = control_plane.kube.get(f"/api/v1/namespaces/{namespace}/configmaps/{env['VERIFY_CONFIGMAP']}")
        assert verify["data"]["verify.pem"].startswith("-----BEGIN PUBLIC KEY-----")
        # helm upgrade (consul-k8s#808: upgrades that reset the caBundle) keeps the Job's caBundle
        run_helm(
            helm,
            control_plane,
            "upgrade",
            release,
            str(CHART),
            "--namespace",
            namespace,
            "--no-hooks",
            "--set",
            "webhook.timeoutSeconds=4",
        )
        hook = control_plane.kube.get(config_path)["webhooks"][0]
        assert hook["timeoutSeconds"] == 4
        assert hook["clientConfig"].get("caBundle") == bundle
        third = cert_job.run(api, env, certs_cmd)
        assert third["ca_bundle"] == "unchanged"
        assert json.loads(third["certs"])["actions"] == {"ca": "reused", "serving": "reused", "signing_key": "reused"}
        # a broken serving certificate is renewed in place (the Secret update path), the CA kept
        tls_path = f"/api/v1/namespaces/{namespace}/secrets/{env['TLS_SECRET']}"
        control_plane.kube.patch(tls_path, {"data": {"tls.crt": ca}})
        fourth = cert_job.run(api, env, certs_cmd)
        assert fourth["tls_secret"] == "updated" and fourth["ca_secret"] == "unchanged"
        assert fourth["ca_bundle"] == "unchanged"
        assert control_plane.kube.get(tls_path)["data"]["tls.crt"] != ca
    finally:
        run_helm(helm, control_plane, "uninstall", release, "--namespace", namespace, "--no-hooks")
        for obj in hooks:
            if obj["kind"] != "Job":
                control_plane.kube.delete(resource_path(control_plane, obj))


def _settings_env(plane: ControlPlane, data: dict[str, str], kubeconfig: Path, **overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SEMAFF_") and "proxy" not in k.lower()}
    env.pop("KUBERNETES_SERVICE_HOST", None)
    env.update(data)
    env.update(overrides)
    env["KUBECONFIG"] = str(kubeconfig)
    env["PYTHONPATH"] = str(ROOT)
    env["NO_PROXY"] = "127.0.0.1,localhost"
    return env


def test_webhook_and_scorer_run_with_the_charts_settings_and_rbac(
    control_plane: ControlPlane, helm: Path, namespace: str, tmp_path: Path
) -> None:
    """`python -m webhook` and `python -m scorer` with the rendered SEMAFF_* settings and only the
    chart's ServiceAccount tokens: both get ready, the webhook's leader takes the release's Lease
    and its controller analyses a gated pod (pods patch, events create), and nothing is forbidden."""
    release = "svc"
    material = user_provided_material(tmp_path, f"{release}-semantic-affinity-webhook", namespace)
    values = user_secret_values(material, tmp_path)
    rendered = render(helm, (values,), namespace=namespace, release=release)
    for obj in rendered.objects:
        server_side_apply(control_plane, obj)
    workload_ns = f"{namespace}-work"
    control_plane.create_namespace(workload_ns)
    procs: list[Process] = []
    try:
        by_name = {o["metadata"]["name"]: o for o in rendered.objects if o["kind"] == "ConfigMap"}
        webhook_port, scorer_port = free_port(), free_port()
        webhook_kubeconfig = token_kubeconfig(
            control_plane,
            service_account_token(control_plane, namespace, f"{release}-semantic-affinity-webhook"),
            tmp_path / "webhook.kubeconfig",
        )
        webhook_env = _settings_env(
            control_plane, by_name[f"{release}-semantic-affinity-webhook"]["data"], webhook_kubeconfig,
            SEMAFF_LISTEN_ADDRESS="127.0.0.1", SEMAFF_PORT=str(webhook_port), SEMAFF_NAMESPACE=namespace,
            SEMAFF_TLS_CERT_FILE=str(material / "tls.crt"), SEMAFF_TLS_KEY_FILE=str(material / "tls.key"),
            SEMAFF_SIGNING_KEY_FILE=str(material / "signing.key"), POD_NAME="svc-webhook-0",
        )  # fmt: skip
        scorer_kubeconfig = token_kubeconfig(
            control_plane,
            service_account_token(control_plane, namespace, f"{release}-semantic-affinity-scheduler"),
            tmp_path / "scorer.kubeconfig",
        )
        scorer_env = _settings_env(
            control_plane, by_name[f"{release}-semantic-affinity-scheduler-scorer"]["data"], scorer_kubeconfig,
            SEMAFF_LISTEN_ADDRESS="127.0.0.1", SEMAFF_PORT=str(scorer_port),
            SEMAFF_VERIFY_KEY_FILES=str(material / "signing.pub"),
        )  # fmt: skip
        webhook = Process.start("chart-webhook", [sys.executable, "-m", "webhook"], tmp_path, env=webhook_env, cwd=ROOT)
        procs.append(webhook)
        scorer = Process.start("chart-scorer", [sys.executable, "-m", "scorer"], tmp_path, env=scorer_env, cwd=ROOT)
        procs.append(scorer)
        context = ssl.create_default_context(cafile=str(material / "ca.crt"))
        wait_for("scorer /readyz", lambda: probe(f"http://127.0.0.1:{scorer_port}/readyz", None, scorer), 120, 0.5)
        wait_for(
            "webhook /readyz", lambda: probe(f"https://localhost:{webhook_port}/readyz", context, webhook), 120, 0.5
        )
        lease = f"/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{release}-semantic-affinity-webhook"
        wait_for("the webhook's Lease", lambda: control_plane.kube.get(lease)["spec"].get("holderIdentity"), 60, 0.5)

        # What admission leaves on a cache miss: a gated pod with status pending. The controller,
        # running with the chart's RBAC, analyses it, patches it and ungates it.
        pod = {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": "gated",
                "annotations": {"semantic-affinity.io/hint": "it must run on nodes with GPUs",
                                "semantic-affinity.io/status": "pending"},
            },
            "spec": {
                "schedulingGates": [{"name": "semantic-affinity.io/intent-analysis"}],
                "containers": [{"name": "c", "image": "registry.invalid/pause:3.10"}],
            },
        }  # fmt: skip
        control_plane.kube.create(f"/api/v1/namespaces/{workload_ns}/pods", pod)

        def analysed() -> dict[str, Any] | None:
            webhook.check_alive()
            got = control_plane.kube.get(f"/api/v1/namespaces/{workload_ns}/pods/gated")
            return None if got["spec"].get("schedulingGates") else got

        done = wait_for("the controller to ungate the pod", analysed, 90, 0.5)
        assert done["metadata"]["annotations"]["semantic-affinity.io/status"] == "analyzed"
        assert "semantic-affinity.io/signature" in done["metadata"]["annotations"]
        events = control_plane.kube.items(f"/api/v1/namespaces/{workload_ns}/events")
        assert any(e.get("reason") == "IntentAnalyzed" for e in events), [e.get("reason") for e in events]
        for proc in procs:
            log = proc.log_path.read_text(errors="replace")
            assert " 403" not in log and "forbidden" not in log.lower(), proc.tail(40)
    finally:
        for proc in procs:
            proc.stop()
        control_plane.delete_namespace(workload_ns)
        for obj in rendered.objects:
            control_plane.kube.delete(resource_path(control_plane, obj))
