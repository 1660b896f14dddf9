"""A real Kubernetes control plane on 127.0.0.1: etcd, kube-apiserver, kube-controller-manager, kube-scheduler.

Recipe and traps: research/control-plane.md. In short:
- generated CA, serving certificate, service-account key and an admin client certificate in
  ``system:masters`` (certs.tool); one kubeconfig for tests, KCM and scheduler;
- the apiserver without the ``TaintNodesByCondition`` admission plugin and KCM without
  node-lifecycle, so Node objects created Ready stay schedulable for ever (no kubelet here);
- the scheduler has two profiles: ``default-scheduler`` (stock scoring: the baseline) and
  ``semantic-scheduler`` (the score plugins the paper disabled are off), and one extender entry
  shared by both (KubeSchedulerConfiguration puts extenders at the top level). Its port is
  reserved at start, so the scorer can come and go without a scheduler restart; pods without
  intents get score 0 from it everywhere, which leaves the baseline profile's ranking untouched;
- start order etcd → apiserver (/readyz) → KCM + scheduler (/healthz), stop in reverse by PID
  with SIGTERM then SIGKILL, also from ``atexit``.

With ``node_ip`` (a real node next to it, localcluster/node.py) the control plane is one pods can
use: the apiserver listens on that address and advertises it (127.0.0.1 is the pod's own), keeps the
``kubernetes`` Service's endpoints, calls webhooks on their endpoint IPs and kubelets on their
InternalIP; KCM runs all its default controllers (Jobs, endpoints, the kube-root-ca.crt publisher,
node lifecycle); the host kube-scheduler is stock (``default-scheduler`` only), since the chart
installs the semantic scheduler as pods.
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import os
import shutil
import ssl
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from certs import tool as certs
from localcluster.binaries import ensure_binaries
from localcluster.kube import ApiError, Kube, wait_for
from localcluster.metrics import scrape, total
from localcluster.nodes import NodeSpec, node_manifest, nrt_manifest
from localcluster.processes import Process, free_port

SEMANTIC_SCHEDULER = "semantic-scheduler"
DEFAULT_SCHEDULER = "default-scheduler"
SYSTEM_NAMESPACE = "semaff-system"
NRT_CRD = Path(__file__).with_name("manifests") / "noderesourcetopology-crd.yaml"
NRT_PATH = "/apis/topology.node.k8s.io/v1alpha2/noderesourcetopologies"

# Score plugins the paper disabled in its scheduler (ARCHITECTURE.md section 3). The remaining
# default scorers (NodeAffinity, NodeResourcesBalancedAllocation, ImageLocality, ...) add at most a
# few hundred points; one step of the extender's 0..10 scale is worth weight × 10 = 1000, so the
# extender decides whenever it ranks two nodes differently and the plugins only break its ties.
DISABLED_SCORE_PLUGINS = ("NodeResourcesFit", "TaintToleration", "InterPodAffinity", "PodTopologySpread")
EXTENDER_WEIGHT = 100
START_TIMEOUT_S = 90.0  # 2 loaded cores: the apiserver alone can take 30 s

_LIVE: set[ControlPlane] = set()


@atexit.register
def _stop_all() -> None:
    for plane in list(_LIVE):
        plane.stop()


def _quiet_env() -> dict[str, str]:
    """The environment for components: no proxies (CI), nothing that points at another cluster."""
    env = {
        k: v for k, v in os.environ.items() if k.lower() not in {"http_proxy", "https_proxy", "all_proxy", "kubeconfig"}
    }
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    return env


@dataclass(frozen=True, slots=True)
class Ports:
    etcd_client: int
    etcd_peer: int
    apiserver: int
    controller_manager: int
    scheduler: int
    scorer: int
    webhook: int

    @classmethod
    def pick(cls) -> Ports:
        return cls(*(free_port() for _ in range(7)))


class ControlPlane:
    """Start with ``ControlPlane().start()`` (or as a context manager); everything stops on ``stop()``.

    Public surface: ``kubeconfig``, ``server``, ``ca_file``, ``kube`` (an admin ``Kube`` client),
    ``create_nodes``, ``delete_nodes``, ``start_webhook``, ``start_scorer``, ``scorer_url``,
    ``create_namespace``, ``delete_namespace``, ``restart_scheduler``, ``logs``.
    """

    def __init__(
        self,
        work_dir: str | Path | None = None,
        *,
        verbosity: int = 1,
        extender: bool = True,
        node_ip: str | None = None,
    ) -> None:
        self.bin = ensure_binaries()
        self._own_dir = work_dir is None
        self.dir = Path(work_dir or tempfile.mkdtemp(prefix="semaff-cp-"))
        self.log_dir = self.dir / "logs"
        self.ports = Ports.pick()
        self.verbosity = verbosity
        self.node_ip = node_ip
        self.extender = extender and node_ip is None
        self.procs: dict[str, Process] = {}
        self.services: dict[str, Any] = {}
        self.server = f"https://{node_ip or '127.0.0.1'}:{self.ports.apiserver}"
        self.kubeconfig = self.dir / "kubeconfig"
        self.ca_file = self.dir / "pki" / certs.CA_CERT
        self._kube: Kube | None = None
        self.started = False

    # -- life cycle -------------------------------------------------------------------------

    def __enter__(self) -> ControlPlane:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    def start(self) -> ControlPlane:
        _LIVE.add(self)
        began = time.monotonic()
        try:
            self._write_pki()
            self._start_etcd()
            self._start_apiserver()
            self._log(f"apiserver ready at {self.server} ({time.monotonic() - began:.1f}s)")
            self._install_crds()
            self.create_namespace(SYSTEM_NAMESPACE, wait_for_sa=False)
            self._start_controller_manager()
            self._start_scheduler()
            self._wait_healthz("kube-controller-manager", self.ports.controller_manager)
            self._wait_healthz("kube-scheduler", self.ports.scheduler)
            # KCM works once its serviceaccount controller has filled in a namespace.
            wait_for(
                "the default ServiceAccount (kube-controller-manager working)",
                lambda: self.kube.get("/api/v1/namespaces/default/serviceaccounts/default"),
                START_TIMEOUT_S,
            )
        except BaseException:
            sys.stderr.write(self.logs())
            self.stop()
            raise
        self.started = True
        self._log(f"control plane ready in {time.monotonic() - began:.1f}s; kubeconfig {self.kubeconfig}")
        return self

    def stop(self) -> None:
        """Stop every process in reverse start order, by PID; remove the work dir unless asked to keep it."""
        for name in reversed(list(self.procs)):
            self.procs[name].stop()
        if self._kube is not None:
            self._kube.close()
        _LIVE.discard(self)
        if self._own_dir and self.dir.exists() and not os.environ.get("SEMAFF_KEEP_HARNESS"):
            shutil.rmtree(self.dir, ignore_errors=True)
        self.procs.clear()
        self.started = False

    def logs(self, lines: int = 60) -> str:
        """The last lines of every component's log, for failure reports."""
        parts = [
            f"\n===== {p.name} (pid {p.pid}, {'running' if p.running() else f'exit {p.popen.returncode}'})"
            f" {p.log_path} =====\n{p.tail(lines)}\n"
            for p in self.procs.values()
        ]
        return "".join(parts)

    def _log(self, message: str) -> None:
        print(f"[control-plane] {message}", file=sys.stderr, flush=True)

    # -- client -----------------------------------------------------------------------------

    @property
    def kube(self) -> Kube:
        if self._kube is None:
            self._kube = self.client()
        return self._kube

    def client(self) -> Kube:
        """A new admin client (one per thread)."""
        pki = self.dir / "pki"
        return Kube(self.server, self.ca_file, pki / "admin.crt", pki / "admin.key")

    # -- certificates and kubeconfig --------------------------------------------------------

    def _write_pki(self) -> None:
        pki = self.dir / "pki"
        pki.mkdir(parents=True, exist_ok=True)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        ca = certs.new_ca("semaff-e2e-ca", days=30)
        (pki / certs.CA_CERT).write_bytes(ca.cert_pem)
        (pki / certs.CA_KEY).write_bytes(ca.key_pem)
        serving = certs.issue(
            ca,
            certs.Subject(
                "kube-apiserver",
                ("localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"),
                ("127.0.0.1", "10.0.0.1", *([self.node_ip] if self.node_ip else [])),
            ),
            days=30,
        )
        (pki / "apiserver.crt").write_bytes(serving.cert_pem)
        (pki / "apiserver.key").write_bytes(serving.key_pem)
        admin = certs.issue(ca, certs.Subject("admin", organisations=("system:masters",), client=True), days=30)
        (pki / "admin.crt").write_bytes(admin.cert_pem)
        (pki / "admin.key").write_bytes(admin.key_pem)
        sa = ec.generate_private_key(ec.SECP256R1())
        (pki / "sa.key").write_bytes(
            sa.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )
        (pki / "sa.pub").write_bytes(
            sa.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        )

        def b64(data: bytes) -> str:
            return base64.b64encode(data).decode()

        config = {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [
                {
                    "name": "semaff-e2e",
                    "cluster": {"server": self.server, "certificate-authority-data": b64(ca.cert_pem)},
                }
            ],
            "users": [
                {
                    "name": "admin",
                    "user": {"client-certificate-data": b64(admin.cert_pem), "client-key-data": b64(admin.key_pem)},
                }
            ],
            "contexts": [{"name": "semaff-e2e", "context": {"cluster": "semaff-e2e", "user": "admin"}}],
            "current-context": "semaff-e2e",
        }
        self.kubeconfig.write_text(yaml.safe_dump(config))
        self.kubeconfig.chmod(0o600)

    # -- components -------------------------------------------------------------------------

    def _spawn(self, name: str, argv: list[str], env: Mapping[str, str] | None = None) -> Process:
        proc = Process.start(name, argv, self.log_dir, env=env or _quiet_env(), cwd=self.dir)
        self.procs[name] = proc
        return proc

    def _start_etcd(self) -> None:
        data = self.dir / "etcd"
        data.mkdir(mode=0o700, exist_ok=True)
        client = f"http://127.0.0.1:{self.ports.etcd_client}"
        peer = f"http://127.0.0.1:{self.ports.etcd_peer}"
        proc = self._spawn(
            "etcd",
            [
                str(self.bin / "etcd"),
                "--name=node0",
                f"--data-dir={data}",
                f"--listen-client-urls={client}",
                f"--advertise-client-urls={client}",
                f"--listen-peer-urls={peer}",
                f"--initial-advertise-peer-urls={peer}",
                f"--initial-cluster=node0={peer}",
                "--unsafe-no-fsync",
                "--auto-compaction-retention=1",
                "--quota-backend-bytes=4294967296",
                "--log-level=warn",
            ],
        )

        def healthy() -> bool:
            proc.check_alive()
            with urllib.request.urlopen(f"{client}/health", timeout=2) as r:
                return b'"health":"true"' in r.read()

        wait_for("etcd /health", healthy, START_TIMEOUT_S)

    def _start_apiserver(self) -> None:
        pki = self.dir / "pki"
        (self.dir / "apiserver").mkdir(exist_ok=True)
        if self.node_ip:
            network = [
                f"--bind-address={self.node_ip}",
                f"--advertise-address={self.node_ip}",
                "--endpoint-reconciler-type=lease",
                "--enable-aggregator-routing=true",
                "--kubelet-preferred-address-types=InternalIP",
                f"--kubelet-client-certificate={pki / 'admin.crt'}",
                f"--kubelet-client-key={pki / 'admin.key'}",
            ]
        else:
            network = [
                "--bind-address=127.0.0.1",
                "--advertise-address=127.0.0.1",
                # Loopback addresses are invalid in Endpoints; without this the apiserver logs errors for ever.
                "--endpoint-reconciler-type=none",
            ]
        proc = self._spawn(
            "kube-apiserver",
            [
                str(self.bin / "kube-apiserver"),
                f"--etcd-servers=http://127.0.0.1:{self.ports.etcd_client}",
                *network,
                f"--secure-port={self.ports.apiserver}",
                f"--tls-cert-file={pki / 'apiserver.crt'}",
                f"--tls-private-key-file={pki / 'apiserver.key'}",
                f"--cert-dir={self.dir / 'apiserver'}",
                f"--client-ca-file={pki / certs.CA_CERT}",
                "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                f"--service-account-key-file={pki / 'sa.pub'}",
                f"--service-account-signing-key-file={pki / 'sa.key'}",
                "--service-cluster-ip-range=10.0.0.0/24",
                "--authorization-mode=RBAC",
                "--allow-privileged=true",
                # Nodes here have no kubelet and nothing would ever remove the not-ready taint.
                "--disable-admission-plugins=TaintNodesByCondition",
                # Bursts of thousands of pods (throughput benchmark) must not be throttled by the server.
                "--max-requests-inflight=0",
                "--max-mutating-requests-inflight=0",
                "--enable-priority-and-fairness=false",
                f"--v={self.verbosity}",
            ],
        )

        def ready() -> bool:
            proc.check_alive()
            context = ssl.create_default_context(cafile=str(self.ca_file))
            with urllib.request.urlopen(f"{self.server}/readyz", timeout=5, context=context) as r:
                return r.status == 200

        wait_for("kube-apiserver /readyz", ready, START_TIMEOUT_S, interval=0.5)

    def _install_crds(self) -> None:
        crd = yaml.safe_load(NRT_CRD.read_text())
        with contextlib.suppress(ApiError):
            self.kube.create("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)

        def established() -> bool:
            got = self.kube.get(f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{crd['metadata']['name']}")
            conditions = {c["type"]: c["status"] for c in got.get("status", {}).get("conditions", [])}
            return conditions.get("Established") == "True"

        wait_for("NodeResourceTopology CRD established", established, 30)
        # Discovery of the new group lags "Established" slightly; a list proves it is served.
        wait_for("NodeResourceTopology served", lambda: self.kube.get(NRT_PATH) is not None, 30)

    def _start_controller_manager(self) -> None:
        (self.dir / "kcm").mkdir(exist_ok=True)
        pki = self.dir / "pki"
        if self.node_ip:
            # Real and KWOK nodes heartbeat: every default controller, and what pods need to start.
            controllers = ["--controllers=*", f"--root-ca-file={pki / certs.CA_CERT}",
                           f"--service-account-private-key-file={pki / 'sa.key'}"]
        else:
            # No node-lifecycle or taint-eviction controller: nodes keep exactly the taints a test writes;
            # resourceclaim-controller makes the ResourceClaims of pods' ResourceClaimTemplates (DRA).
            controllers = ["--controllers=deployment-controller,replicaset-controller,serviceaccount-controller,"
                           "garbage-collector-controller,namespace-controller,resourceclaim-controller"]
        self._spawn(
            "kube-controller-manager",
            [
                str(self.bin / "kube-controller-manager"),
                f"--kubeconfig={self.kubeconfig}",
                *controllers,
                "--leader-elect=false",
                "--bind-address=127.0.0.1",
                f"--secure-port={self.ports.controller_manager}",
                f"--cert-dir={self.dir / 'kcm'}",
                "--kube-api-qps=500",
                "--kube-api-burst=1000",
                "--concurrent-deployment-syncs=10",
                "--concurrent-replicaset-syncs=10",
                f"--v={self.verbosity}",
            ],
        )

    def scheduler_config(self, extender: bool | None = None) -> dict[str, Any]:
        """The KubeSchedulerConfiguration this harness runs (also printed by ``make demo``)."""
        extender = self.extender if extender is None else extender
        config: dict[str, Any] = {
            "apiVersion": "kubescheduler.config.k8s.io/v1",
            "kind": "KubeSchedulerConfiguration",
            "clientConnection": {"kubeconfig": str(self.kubeconfig), "qps": 500, "burst": 1000},
            "leaderElection": {"leaderElect": False},
            "profiles": [{"schedulerName": DEFAULT_SCHEDULER}],
        }
        if not self.node_ip:  # with a real node the chart's scheduler pods serve the semantic profile
            config["profiles"].append(
                {
                    "schedulerName": SEMANTIC_SCHEDULER,
                    "plugins": {"score": {"disabled": [{"name": n} for n in DISABLED_SCORE_PLUGINS]}},
                }
            )
        if extender:
            config["extenders"] = [
                {
                    "urlPrefix": self.scorer_url + "/",
                    "prioritizeVerb": "prioritize",
                    "weight": EXTENDER_WEIGHT,
                    "nodeCacheCapable": True,
                    "ignorable": True,
                    "enableHTTPS": False,
                    "httpTimeout": "2s",
                }
            ]
        return config

    def _start_scheduler(self, extender: bool | None = None, config: Mapping[str, Any] | None = None,
                         flags: Sequence[str] = ()) -> None:
        (self.dir / "scheduler").mkdir(exist_ok=True)
        path = self.dir / "scheduler" / "config.yaml"
        config = self.scheduler_config(extender) if config is None else config
        path.write_text(yaml.safe_dump(dict(config), sort_keys=False))
        self._spawn(
            "kube-scheduler",
            [
                str(self.bin / "kube-scheduler"),
                f"--config={path}",
                "--bind-address=127.0.0.1",
                f"--secure-port={self.ports.scheduler}",
                # Throughput figures read the scheduler's own counters.
                "--authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics",
                f"--cert-dir={self.dir / 'scheduler'}",
                f"--v={self.verbosity}",
                *flags,
            ],
        )

    def restart_scheduler(self, extender: bool, config: Mapping[str, Any] | None = None,
                          flags: Sequence[str] = ()) -> None:
        """Restart kube-scheduler with or without the extender entry (the throughput benchmark's A/B), or with
        ``config`` (a whole KubeSchedulerConfiguration, e.g. ``scheduler_config()`` pointed at another extender)
        and extra command-line ``flags``."""
        proc = self.procs.pop("kube-scheduler", None)
        if proc is not None:
            proc.stop()
        self._start_scheduler(extender, config, flags)
        self._wait_healthz("kube-scheduler", self.ports.scheduler)

    def scheduler_metric(self, name: str, **labels: str) -> float:
        """Sum of one kube-scheduler metric's samples whose labels include ``labels`` (0 when absent)."""
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return total(scrape(f"https://127.0.0.1:{self.ports.scheduler}/metrics", context), name, **labels)

    def _wait_healthz(self, name: str, port: int) -> None:
        proc = self.procs[name]
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # self-signed serving certificates of KCM and scheduler

        def healthy() -> bool:
            proc.check_alive()
            with urllib.request.urlopen(f"https://127.0.0.1:{port}/healthz", timeout=3, context=context) as r:
                return r.status == 200

        wait_for(f"{name} /healthz", healthy, START_TIMEOUT_S, interval=0.5)

    # -- namespaces and nodes ---------------------------------------------------------------

    def create_namespace(self, name: str, wait_for_sa: bool = True, labels: Mapping[str, str] | None = None) -> None:
        """Create (or reuse) a namespace; wait until its ``default`` ServiceAccount exists, since pods need it."""
        body = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": dict(labels or {})}}
        try:
            self.kube.create("/api/v1/namespaces", body)
        except ApiError as exc:
            if exc.status != 409:
                raise
        if wait_for_sa:
            wait_for(
                f"ServiceAccount {name}/default",
                lambda: self.kube.get(f"/api/v1/namespaces/{name}/serviceaccounts/default"),
                60,
            )

    def delete_namespace(self, name: str, wait: bool = False) -> None:
        """Delete a namespace after force-deleting its pods: bound pods never finish a graceful delete here."""
        for deployment in self.kube.items(f"/apis/apps/v1/namespaces/{name}/deployments"):
            self.kube.delete(
                f"/apis/apps/v1/namespaces/{name}/deployments/{deployment['metadata']['name']}",
                propagationPolicy="Orphan",
            )
        for rs in self.kube.items(f"/apis/apps/v1/namespaces/{name}/replicasets"):
            self.kube.delete(
                f"/apis/apps/v1/namespaces/{name}/replicasets/{rs['metadata']['name']}", propagationPolicy="Orphan"
            )
        self.force_delete_pods(name)
        self.kube.delete(f"/api/v1/namespaces/{name}")
        if wait:

            def gone() -> bool:
                try:
                    self.kube.get(f"/api/v1/namespaces/{name}")
                except ApiError as exc:
                    return exc.status == 404
                return False

            wait_for(f"namespace {name} deleted", gone, 60)

    def force_delete_pods(self, namespace: str, label_selector: str | None = None) -> int:
        pods = self.kube.items(f"/api/v1/namespaces/{namespace}/pods", labelSelector=label_selector)
        for pod in pods:
            self.kube.delete(f"/api/v1/namespaces/{namespace}/pods/{pod['metadata']['name']}", gracePeriodSeconds=0)
        return len(pods)

    def create_nodes(
        self, specs: Iterable[NodeSpec], manifest_of: Callable[[NodeSpec], dict[str, Any]] = node_manifest
    ) -> list[str]:
        """Create Node objects (Ready, with capacity) and, for nodes with NUMA zones, their NRT objects."""
        names = []
        for spec in specs:
            manifest = manifest_of(spec)
            created = self.kube.create("/api/v1/nodes", manifest)
            # The create keeps status only on some versions; the /status subresource always takes it.
            if not created.get("status", {}).get("allocatable"):
                self.kube.patch(f"/api/v1/nodes/{spec.name}/status", {"status": manifest["status"]})
            nrt = nrt_manifest(spec)
            if nrt is not None:
                self.kube.create(NRT_PATH, nrt)
            names.append(spec.name)
        return names

    def delete_nodes(self, names: Iterable[str]) -> None:
        for name in names:
            self.kube.delete(f"/api/v1/nodes/{name}")
            self.kube.delete(f"{NRT_PATH}/{name}")

    # -- our services -----------------------------------------------------------------------

    @property
    def scorer_url(self) -> str:
        return f"http://127.0.0.1:{self.ports.scorer}"

    @property
    def webhook_url(self) -> str:
        return f"https://127.0.0.1:{self.ports.webhook}"

    def service_certs(self) -> Path:
        """Webhook TLS material and the intent-signing key pair, made by certs/ (SAN IP 127.0.0.1)."""
        out = self.dir / "service-certs"
        certs.ensure(out, dns_names=["localhost"], ips=["127.0.0.1"])
        return out

    def start_webhook(self, env: Mapping[str, str] | None = None, register: bool = True) -> Process:
        from localcluster.services import start_webhook

        return start_webhook(self, env or {}, register=register)

    def start_scorer(self, env: Mapping[str, str] | None = None) -> Process:
        from localcluster.services import start_scorer

        return start_scorer(self, env or {})

    def stop_service(self, name: str) -> None:
        """Stop one process by name (``webhook``, ``scorer``, ``kube-scheduler``, ...).

        Stopping the webhook also removes its MutatingWebhookConfiguration, so later tests in the
        session do not send pods to a dead endpoint.
        """
        proc = self.procs.pop(name, None)
        if proc is not None:
            proc.stop()
        if name == "webhook" and self.started:
            from localcluster.services import WEBHOOK_CONFIG_NAME

            self.kube.delete(
                f"/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/{WEBHOOK_CONFIG_NAME}"
            )
