"""The chart renders, every object is valid Kubernetes 1.36, and the safety defaults hold."""

from __future__ import annotations

import base64
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.charts.render import CHART, NAMESPACE, RELEASE, Rendered, RenderError, render, validate

CI_VALUES = sorted((CHART / "ci").glob("*-values.yaml"))

# The SEMAFF_* settings each service reads (the cross-team contract).
WEBHOOK_SETTINGS = {
    "SEMAFF_LISTEN_ADDRESS", "SEMAFF_PORT", "SEMAFF_TLS_CERT_FILE", "SEMAFF_TLS_KEY_FILE", "SEMAFF_SIGNING_KEY_FILE",
    "SEMAFF_ANALYSER", "SEMAFF_BEDROCK_MODEL", "SEMAFF_BEDROCK_REGION", "SEMAFF_OPENAI_BASE_URL",
    "SEMAFF_OPENAI_MODEL", "SEMAFF_OPENAI_API_KEY_FILE", "SEMAFF_SCHEDULER_NAME", "SEMAFF_ANALYSIS_TIMEOUT_S",
    "SEMAFF_UNGATE_DEADLINE_S", "SEMAFF_HINT_MAX_CHARS", "SEMAFF_LEADER_ELECTION", "SEMAFF_NAMESPACE",
    "SEMAFF_LOG_LEVEL",
    # beyond the contract, documented in webhook/README.md
    "SEMAFF_LEASE_NAME", "POD_NAME", "SEMAFF_EXCLUDED_NAMESPACES",
}  # fmt: skip
SCORER_SETTINGS = {
    "SEMAFF_LISTEN_ADDRESS", "SEMAFF_PORT", "SEMAFF_VERIFY_KEY_FILES", "SEMAFF_SCORING_MODE", "SEMAFF_RACK_LABEL",
    "SEMAFF_NETWORK_LABEL", "SEMAFF_NVLINK_LABEL", "SEMAFF_PROMETHEUS_URL", "SEMAFF_METRICS_POLL_S",
    "SEMAFF_METRICS_STALENESS_S", "SEMAFF_RELIST_S", "SEMAFF_LEDGER_TTL_S", "SEMAFF_FILTER_ENABLED",
    "SEMAFF_LOG_LEVEL", "SEMAFF_HINT_MAX_CHARS", "SEMAFF_DRA_DRIVER", "SEMAFF_DRA_GPU_CLASSES",
}  # fmt: skip


@pytest.fixture(scope="module")
def default(helm: Path) -> Rendered:
    return render(helm)


def pod_spec(obj: dict) -> dict:
    return obj["spec"]["template"]["spec"]


def scheduler_config(rendered: Rendered) -> dict:
    cm = rendered.one("ConfigMap", "-scheduler")
    return yaml.safe_load(cm["data"]["scheduler-config.yaml"])


# --- every variant renders and validates ---------------------------------------------------------


@pytest.mark.parametrize("values", [None, *CI_VALUES], ids=lambda p: "default" if p is None else p.name)
def test_every_rendered_object_is_valid_kubernetes_1_36(helm: Path, values: Path | None) -> None:
    rendered = render(helm, (values,) if values else ())
    assert len(rendered.objects) > 10
    for obj in rendered.objects:
        validate(obj)  # raises with the failing path
        if obj["kind"] not in ("ClusterRole", "ClusterRoleBinding", "MutatingWebhookConfiguration",
                               "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"):
            assert obj["metadata"]["namespace"] in (NAMESPACE, "kube-system"), obj["metadata"]["name"]
        assert len(obj["metadata"]["name"]) <= 63


def test_ci_variants_cover_the_issue_list() -> None:
    names = {p.name for p in CI_VALUES}
    assert {
        "cert-manager-values.yaml",
        "job-certs-values.yaml",
        "openai-values.yaml",
        "networkpolicy-values.yaml",
        "user-secret-values.yaml",
    } <= names


def test_validation_catches_a_broken_object(default: Rendered) -> None:
    """The validator itself must fail on a wrong field, or the test above proves nothing."""
    deployment = yaml.safe_load(yaml.safe_dump(default.one("Deployment", "-webhook")))
    pod_spec(deployment)["containers"][0]["readinessProbe"]["httpGet"]["sheme"] = "HTTPS"
    with pytest.raises(Exception, match="sheme"):
        validate(deployment)
    webhook_config = yaml.safe_load(yaml.safe_dump(default.one("MutatingWebhookConfiguration")))
    webhook_config["webhooks"][0]["timeoutSeconds"] = "3"
    with pytest.raises(Exception, match="is not of type"):
        validate(webhook_config)


def test_helm_lint_passes_for_every_variant(helm: Path) -> None:
    for values in [None, *CI_VALUES]:
        cmd = [str(helm), "lint", "--strict", str(CHART), "--namespace", NAMESPACE]
        if values:
            cmd += ["--values", str(values)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr


# --- values.schema.json ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("webhook.replicas=two", "want integer"),
        ("webhook.replicsa=3", "additional properties 'replicsa' not allowed"),
        ("unknownTopLevel=1", "additional properties 'unknownTopLevel' not allowed"),
        ("scheduler.extender.unknown=1", "additional properties 'unknown' not allowed"),
        ("webhook.failurePolicy=Fial", "value must be one of"),
        ("webhook.timeoutSeconds=31", "maximum"),
        ("scheduler.extender.weight=0", "minimum"),
        ("analyser.backend=gpt", "value must be one of"),
        ("tls.mode=selfSigned", "value must be one of"),
        ("scheduler.extender.httpTimeout=soon", "does not match pattern"),
        ("networkPolicy.apiServerCidrs[0]=everywhere", "does not match pattern"),
    ],
)
def test_schema_rejects_bad_values(helm: Path, setting: str, message: str) -> None:
    with pytest.raises(RenderError, match=re.escape(message) if "'" in message else message):
        render(helm, set_values=(setting,))


def test_schema_rejects_unknown_keys_in_a_values_file(helm: Path, tmp_path: Path) -> None:
    values = tmp_path / "values.yaml"
    values.write_text("tls:\n  job:\n    days: 90\n    renewWithin: 10\n")
    with pytest.raises(RenderError, match="renewWithin"):
        render(helm, (values,))


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (("tls.mode=secret", "tls.secret.caBundle=x"), "tls.secret.name is required"),
        (("tls.mode=secret", "tls.secret.name=x"), "tls.secret.caBundle"),
        (("signing.existingSecret=k",), "signing.verifyKeys"),
    ],
)
def test_required_values_fail_with_a_readable_message(helm: Path, settings: tuple[str, ...], message: str) -> None:
    with pytest.raises(RenderError, match=re.escape(message)):
        render(helm, set_values=settings)


def test_schema_file_is_generated_from_values_yaml() -> None:
    proc = subprocess.run([sys.executable, str(CHART.parent / "values_schema.py"), "--check"], capture_output=True)
    assert proc.returncode == 0, proc.stderr.decode()


def test_every_value_in_values_yaml_has_a_comment() -> None:
    """Each leaf value, or a map it belongs to (resources, issuerRef), has a comment right above it."""
    lines = (CHART / "values.yaml").read_text().splitlines()
    missing = []
    documented: list[tuple[int, bool]] = []  # (indent, has comment) of the enclosing keys
    for i, line in enumerate(lines):
        match = re.match(r"^(\s*)([A-Za-z][\w.-]*):(.*)$", line)
        if not match:
            continue
        indent, key, rest = len(match.group(1)), match.group(2), match.group(3)
        while documented and documented[-1][0] >= indent:
            documented.pop()
        commented = i > 0 and lines[i - 1].strip().startswith("#")
        is_parent = rest.strip() == "" and i + 1 < len(lines) and lines[i + 1].startswith(" " * (indent + 2))
        if is_parent:
            documented.append((indent, commented))
        elif not commented and not any(has for _, has in documented):
            missing.append(key)
    assert not missing, f"values without a comment: {missing}"


# --- safety defaults ------------------------------------------------------------------------------


def test_webhook_registration_never_blocks_pod_creation(default: Rendered) -> None:
    (hook,) = default.one("MutatingWebhookConfiguration")["webhooks"]
    assert hook["failurePolicy"] == "Ignore"
    assert hook["timeoutSeconds"] == 3
    assert hook["sideEffects"] == "NoneOnDryRun"
    assert hook["reinvocationPolicy"] == "Never"
    assert hook["admissionReviewVersions"] == ["v1"]
    assert hook["rules"] == [
        {
            "operations": ["CREATE"],
            "apiGroups": [""],
            "apiVersions": ["v1"],
            "resources": ["pods"],
            "scope": "Namespaced",
        }
    ]
    (expr,) = hook["namespaceSelector"]["matchExpressions"]
    assert expr["key"] == "kubernetes.io/metadata.name" and expr["operator"] == "NotIn"
    assert {NAMESPACE, "kube-system"} <= set(expr["values"])
    assert hook["clientConfig"]["service"] == {
        "name": f"{RELEASE}-semantic-affinity-webhook",
        "namespace": NAMESPACE,
        "path": "/mutate",
        "port": 443,
    }
    # job mode: the Job owns caBundle, so Helm must not carry (and reset) it
    assert "caBundle" not in hook["clientConfig"]


def test_match_condition_sends_only_pods_with_hints_or_our_annotations(default: Rendered) -> None:
    (hook,) = default.one("MutatingWebhookConfiguration")["webhooks"]
    (condition,) = hook["matchConditions"]
    expression = condition["expression"]
    assert "has(object.metadata.annotations)" in expression
    assert "'allocation_hint' in object.metadata.annotations" in expression
    assert "k.startsWith('semantic-affinity.io/')" in expression


def test_fail_policy_and_timeout_are_configurable(helm: Path) -> None:
    rendered = render(helm, set_values=("webhook.failurePolicy=Fail", "webhook.timeoutSeconds=7"))
    (hook,) = rendered.one("MutatingWebhookConfiguration")["webhooks"]
    assert (hook["failurePolicy"], hook["timeoutSeconds"]) == ("Fail", 7)


@pytest.mark.parametrize("variant", ["default", "node-agent"])
def test_every_container_is_locked_down_and_probed(default: Rendered, helm: Path, variant: str) -> None:
    rendered = default if variant == "default" else render(helm, (CHART / "ci" / "node-agent-values.yaml",))
    for obj in rendered.of_kind("Deployment") + rendered.of_kind("Job") + rendered.of_kind("DaemonSet"):
        spec = pod_spec(obj)
        assert spec["securityContext"]["runAsNonRoot"] is True
        assert spec["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
        for container in spec["containers"] + spec.get("initContainers", []):
            ctx = container["securityContext"]
            assert ctx["readOnlyRootFilesystem"] is True
            assert ctx["allowPrivilegeEscalation"] is False
            assert ctx["capabilities"] == {"drop": ["ALL"]}
            assert ctx["seccompProfile"] == {"type": "RuntimeDefault"}
            assert container["resources"]["requests"] and container["resources"]["limits"]["memory"]
            if obj["kind"] == "Deployment":
                assert container["livenessProbe"] and container["readinessProbe"]


def test_webhook_deployment_is_highly_available(default: Rendered) -> None:
    deployment = default.one("Deployment", "-webhook")
    assert deployment["spec"]["replicas"] == 2
    spec = pod_spec(deployment)
    (spread,) = spec["topologySpreadConstraints"]
    assert spread["topologyKey"] == "kubernetes.io/hostname"
    assert spread["labelSelector"]["matchLabels"] == deployment["spec"]["selector"]["matchLabels"]
    (container,) = spec["containers"]
    assert container["command"] == ["python", "-m", "webhook"]
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "https", "scheme": "HTTPS"}
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "https", "scheme": "HTTPS"}
    pdb = default.one("PodDisruptionBudget", "-webhook")
    assert pdb["spec"]["selector"]["matchLabels"] == deployment["spec"]["selector"]["matchLabels"]
    assert pdb["spec"]["minAvailable"] == 1


def test_webhook_rollout_never_sends_admission_to_a_closed_port(default: Rendered, helm: Path) -> None:
    """A rollout surges before it stops a replica, and a stopping replica serves on while it leaves the endpoints."""
    deployment = default.one("Deployment", "-webhook")
    assert deployment["spec"]["strategy"] == {"type": "RollingUpdate",
                                              "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}}
    spec = pod_spec(deployment)
    (container,) = spec["containers"]
    assert container["lifecycle"]["preStop"] == {"sleep": {"seconds": 5}}
    assert spec["terminationGracePeriodSeconds"] == 35
    off = pod_spec(render(helm, set_values=("webhook.shutdownDelaySeconds=0",)).one("Deployment", "-webhook"))
    assert "lifecycle" not in off["containers"][0]
    assert off["terminationGracePeriodSeconds"] == 30
    with pytest.raises(RenderError, match="shutdownDelaySeconds"):
        render(helm, set_values=("webhook.shutdownDelaySeconds=-1",))


def test_services_get_exactly_the_contract_settings(default: Rendered) -> None:
    webhook_cm = default.one("ConfigMap", "-webhook")["data"]
    scorer_cm = default.one("ConfigMap", "-scheduler-scorer")["data"]
    webhook = pod_spec(default.one("Deployment", "-webhook"))["containers"][0]
    assert set(webhook_cm) | {e["name"] for e in webhook["env"]} <= WEBHOOK_SETTINGS
    assert {"SEMAFF_TLS_CERT_FILE", "SEMAFF_SIGNING_KEY_FILE", "SEMAFF_ANALYSER"} <= set(webhook_cm)
    assert set(scorer_cm) <= SCORER_SETTINGS
    assert webhook_cm["SEMAFF_ANALYSER"] == "embedded"
    assert webhook_cm["SEMAFF_SCHEDULER_NAME"] == "semantic-scheduler"
    assert scorer_cm["SEMAFF_PORT"] == "8888"
    assert webhook["envFrom"] == [{"configMapRef": {"name": default.one("ConfigMap", "-webhook")["metadata"]["name"]}}]


def test_the_webhook_knows_which_namespaces_its_configuration_never_sends(helm: Path) -> None:
    rendered = render(helm, set_values=("webhook.excludeNamespaces={team-a,kube-system}",))
    (hook,) = rendered.one("MutatingWebhookConfiguration", "")["webhooks"]
    (expression,) = hook["namespaceSelector"]["matchExpressions"]
    told = rendered.one("ConfigMap", "-webhook")["data"]["SEMAFF_EXCLUDED_NAMESPACES"].split(",")
    assert told == expression["values"] == [NAMESPACE, "kube-system", "team-a"]


def test_mounted_files_match_the_settings(default: Rendered) -> None:
    """Each *_FILE setting points into a volume that holds that key."""
    webhook = default.one("Deployment", "-webhook")
    settings = default.one("ConfigMap", "-webhook")["data"]
    _assert_file_is_mounted(webhook, "webhook", settings["SEMAFF_TLS_CERT_FILE"])
    _assert_file_is_mounted(webhook, "webhook", settings["SEMAFF_TLS_KEY_FILE"])
    _assert_file_is_mounted(webhook, "webhook", settings["SEMAFF_SIGNING_KEY_FILE"])
    scheduler = default.one("Deployment", "-scheduler")
    scorer_settings = default.one("ConfigMap", "-scheduler-scorer")["data"]
    _assert_file_is_mounted(scheduler, "scorer", scorer_settings["SEMAFF_VERIFY_KEY_FILES"])


def _assert_file_is_mounted(deployment: dict, container_name: str, path: str) -> None:
    spec = pod_spec(deployment)
    (container,) = [c for c in spec["containers"] + spec.get("initContainers", []) if c["name"] == container_name]
    volumes = {v["name"]: v for v in spec["volumes"]}
    for mount in container["volumeMounts"]:
        prefix = mount["mountPath"].rstrip("/") + "/"
        if path.startswith(prefix):
            source = volumes[mount["name"]].get("secret") or volumes[mount["name"]].get("configMap")
            assert path[len(prefix) :] in [item["path"] for item in source["items"]]
            return
    raise AssertionError(f"{path} is not mounted into {container_name}")


def test_signing_key_reaches_only_the_webhook(default: Rendered) -> None:
    signing_secret = f"{RELEASE}-semantic-affinity-signing-key"
    for obj in default.of_kind("Deployment"):
        secrets = {v["secret"]["secretName"] for v in pod_spec(obj)["volumes"] if "secret" in v}
        is_webhook = obj["metadata"]["name"].endswith("-webhook")
        assert (signing_secret in secrets) == is_webhook, obj["metadata"]["name"]
    scheduler = pod_spec(default.one("Deployment", "-scheduler"))
    verify = [v for v in scheduler["volumes"] if v["name"] == "verify-keys"]
    assert verify[0]["configMap"]["name"] == f"{RELEASE}-semantic-affinity-verify-keys"


def test_semantic_scheduler_profile_and_extender(default: Rendered) -> None:
    config = scheduler_config(default)
    assert config["apiVersion"] == "kubescheduler.config.k8s.io/v1"
    assert config["kind"] == "KubeSchedulerConfiguration"
    assert config["leaderElection"]["leaderElect"] is True
    assert config["leaderElection"]["resourceNamespace"] == NAMESPACE
    (profile,) = config["profiles"]
    assert profile["schedulerName"] == "semantic-scheduler"
    disabled = {p["name"] for p in profile["plugins"]["score"]["disabled"]}
    assert disabled == {"NodeResourcesFit", "TaintToleration", "InterPodAffinity", "PodTopologySpread"}
    (extender,) = config["extenders"]
    assert extender == {
        "urlPrefix": "http://127.0.0.1:8888",
        "prioritizeVerb": "prioritize",
        "weight": 100,
        "nodeCacheCapable": True,
        "ignorable": True,
        "enableHTTPS": False,
        "httpTimeout": "1s",
    }
    deployment = default.one("Deployment", "-scheduler")
    assert deployment["spec"]["replicas"] == 2
    spec = pod_spec(deployment)
    assert "schedulerName" not in spec  # placed by the default scheduler, never by itself
    (scheduler,) = spec["containers"]
    assert scheduler["name"] == "kube-scheduler"
    assert scheduler["image"] == "registry.k8s.io/kube-scheduler:v1.36.3"
    # The scorer is a native sidecar whose startupProbe is its readiness: kube-scheduler (and its bid for
    # the Lease) waits until the scorer has listed nodes and pods.
    (scorer,) = spec["initContainers"]
    assert (scorer["name"], scorer["restartPolicy"]) == ("scorer", "Always")
    assert scorer["startupProbe"]["httpGet"]["path"] == "/readyz"
    assert scorer["ports"][0]["containerPort"] == 8888


def test_scheduler_port_weight_and_filter_follow_values(helm: Path) -> None:
    rendered = render(
        helm, set_values=("scorer.port=9999", "scheduler.extender.weight=7", "scheduler.extender.filter=true")
    )
    (extender,) = scheduler_config(rendered)["extenders"]
    assert extender["urlPrefix"] == "http://127.0.0.1:9999"
    assert (extender["weight"], extender["filterVerb"]) == (7, "filter")
    assert rendered.one("ConfigMap", "-scheduler-scorer")["data"]["SEMAFF_FILTER_ENABLED"] == "true"


def test_hint_cap_is_one_value_for_both_services(default: Rendered, helm: Path) -> None:
    """Signatures cover the hint cut to SEMAFF_HINT_MAX_CHARS: the webhook and the scorer must get the same cap."""
    for rendered, cap in ((default, "1000"), (render(helm, set_values=("webhook.hintMaxChars=2000",)), "2000")):
        webhook_cm = rendered.one("ConfigMap", "-webhook")["data"]
        scorer_cm = rendered.one("ConfigMap", "-scheduler-scorer")["data"]
        assert webhook_cm["SEMAFF_HINT_MAX_CHARS"] == scorer_cm["SEMAFF_HINT_MAX_CHARS"] == cap


def _rules(role: dict) -> list[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]:
    return [
        (tuple(r["apiGroups"]), tuple(r["resources"]), tuple(sorted(r["verbs"])))
        for r in role["rules"]
        if not r.get("resourceNames")
    ]


def test_rbac_is_least_privilege(default: Rendered) -> None:
    webhook = _rules(default.one("ClusterRole", "-webhook"))
    assert webhook == [
        (("",), ("pods",), ("get", "list", "patch", "watch")),
        (("events.k8s.io", ""), ("events",), ("create",)),
        (("apps",), ("deployments", "statefulsets"), ("get", "list", "watch")),
        (("batch",), ("jobs",), ("get", "list", "watch")),
    ]
    scorer = _rules(default.one("ClusterRole", "-scheduler-scorer"))
    assert scorer == [
        (("",), ("nodes", "pods"), ("get", "list", "watch")),
        (("topology.node.k8s.io",), ("noderesourcetopologies",), ("get", "list", "watch")),
        (("resource.k8s.io",), ("resourceslices", "resourceclaims"), ("get", "list", "watch")),
        (("events.k8s.io", ""), ("events",), ("create",)),
    ]
    bound = {b["roleRef"]["name"] for b in default.of_kind("ClusterRoleBinding")}
    assert {"system:kube-scheduler", "system:volume-scheduler"} <= bound
    auth_reader = default.one("RoleBinding", "-scheduler-authentication-reader")
    assert auth_reader["metadata"]["namespace"] == "kube-system"
    assert auth_reader["roleRef"]["name"] == "extension-apiserver-authentication-reader"
    # no role anywhere grants a wildcard or secrets beyond the certificate Job
    for role in default.of_kind("ClusterRole") + default.of_kind("Role"):
        for rule in role["rules"]:
            assert "*" not in rule["verbs"] and "*" not in rule["resources"], role["metadata"]["name"]
            if "secrets" in rule["resources"]:
                assert role["metadata"]["name"].endswith("-certs")


def test_certificate_job_is_a_hook_with_narrow_rbac(default: Rendered) -> None:
    job = default.one("Job", "-certs")
    annotations = job["metadata"]["annotations"]
    assert annotations["helm.sh/hook"] == "pre-install,pre-upgrade,post-install,post-upgrade"
    assert "before-hook-creation" in annotations["helm.sh/hook-delete-policy"]
    for kind in ("ServiceAccount", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding", "ConfigMap"):
        obj = default.one(kind, "-certs" if kind != "ConfigMap" else "-certs-script")
        hook_weight = int(obj["metadata"]["annotations"]["helm.sh/hook-weight"])
        assert hook_weight < int(annotations["helm.sh/hook-weight"]), kind
    role = default.one("Role", "-certs")
    named = [r for r in role["rules"] if r.get("resourceNames")]
    assert {tuple(sorted(r["verbs"])) for r in named} == {("get", "update")}
    secret_names = {n for r in named if r["resources"] == ["secrets"] for n in r["resourceNames"]}
    assert secret_names == {
        f"{RELEASE}-semantic-affinity-webhook-tls",
        f"{RELEASE}-semantic-affinity-certs-ca",
        f"{RELEASE}-semantic-affinity-signing-key",
    }
    cluster_role = default.one("ClusterRole", "-certs")
    assert cluster_role["rules"] == [
        {
            "apiGroups": ["admissionregistration.k8s.io"],
            "resources": ["mutatingwebhookconfigurations"],
            "resourceNames": [default.one("MutatingWebhookConfiguration")["metadata"]["name"]],
            "verbs": ["get", "patch"],
        }
    ]
    scripts = default.one("ConfigMap", "-certs-script")["data"]
    assert scripts == {n: (CHART / "files" / n).read_text() for n in ("cert_job.py", "kube_api.py")}
    env = {e["name"]: e["value"] for e in pod_spec(job)["containers"][0]["env"]}
    assert env["SERVICE"] == f"{RELEASE}-semantic-affinity-webhook"
    assert env["TLS_SECRET"] == f"{RELEASE}-semantic-affinity-webhook-tls"


def test_uninstall_job_is_a_pre_delete_hook_releasing_our_gate(default: Rendered) -> None:
    from shared.codec import SCHEDULING_GATE

    job = default.one("Job", "-uninstall")
    assert job["metadata"]["annotations"]["helm.sh/hook"] == "pre-delete"
    for kind in ("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "ConfigMap"):
        obj = default.one(kind, "-uninstall" if kind != "ConfigMap" else "-uninstall-script")
        assert obj["metadata"]["annotations"]["helm.sh/hook"] == "pre-delete", kind
        assert int(obj["metadata"]["annotations"]["helm.sh/hook-weight"]) < 0, kind
    env = {e["name"]: e.get("value") for e in pod_spec(job)["containers"][0]["env"]}
    assert env["GATE"] == SCHEDULING_GATE  # the one gate the webhook sets, nothing else
    assert env["WEBHOOK_CONFIGURATION"] == default.one("MutatingWebhookConfiguration")["metadata"]["name"]
    scripts = default.one("ConfigMap", "-uninstall-script")["data"]
    assert scripts == {n: (CHART / "files" / n).read_text() for n in ("uninstall_job.py", "kube_api.py")}
    (deleting,) = [r for r in default.one("ClusterRole", "-uninstall")["rules"] if "delete" in r["verbs"]]
    assert deleting["resourceNames"] == [env["WEBHOOK_CONFIGURATION"]]


def test_cert_manager_mode_injects_the_ca(helm: Path) -> None:
    rendered = render(helm, (CHART / "ci" / "cert-manager-values.yaml",))
    config = rendered.one("MutatingWebhookConfiguration")
    serving = rendered.one("Certificate", "-serving")
    assert config["metadata"]["annotations"]["cert-manager.io/inject-ca-from"] == (
        f"{NAMESPACE}/{serving['metadata']['name']}"
    )
    assert f"{RELEASE}-semantic-affinity-webhook.{NAMESPACE}.svc" in serving["spec"]["dnsNames"]
    assert serving["spec"]["secretName"] == f"{RELEASE}-semantic-affinity-webhook-tls"
    assert serving["spec"]["issuerRef"]["name"] == rendered.one("Issuer", "-ca")["metadata"]["name"]
    # the Job still makes the signing key, but has no business with TLS or the webhook configuration
    env = {e["name"]: e["value"] for e in pod_spec(rendered.one("Job", "-certs"))["containers"][0]["env"]}
    assert env["TLS_SECRET"] == "" and env["SIGNING_SECRET"]
    assert not rendered.of_kind("ClusterRole") or all(
        not r["metadata"]["name"].endswith("-certs") for r in rendered.of_kind("ClusterRole")
    )


def test_user_provided_secrets_render_no_certificate_job(helm: Path) -> None:
    rendered = render(helm, (CHART / "ci" / "user-secret-values.yaml",))
    jobs = [j["metadata"]["name"] for j in rendered.of_kind("Job")]
    assert jobs == [f"{RELEASE}-semantic-affinity-webhook-uninstall"]  # only the pre-delete one
    (hook,) = rendered.one("MutatingWebhookConfiguration")["webhooks"]
    assert base64.b64decode(hook["clientConfig"]["caBundle"]).startswith(b"-----BEGIN CERTIFICATE-----")
    volumes = {v["name"]: v for v in pod_spec(rendered.one("Deployment", "-webhook"))["volumes"]}
    assert volumes["tls"]["secret"]["secretName"] == "my-webhook-tls"
    assert volumes["signing-key"]["secret"]["secretName"] == "my-signing-key"
    verify = rendered.one("ConfigMap", "-verify-keys")["data"]["verify.pem"]
    assert verify.startswith("-----BEGIN PUBLIC KEY-----")


def test_bedrock_credentials_via_irsa(helm: Path) -> None:
    rendered = render(helm, (CHART / "ci" / "cert-manager-issuer-values.yaml",))
    account = rendered.one("ServiceAccount", "-webhook")
    assert account["metadata"]["annotations"]["eks.amazonaws.com/role-arn"].endswith(":role/semantic-affinity-bedrock")
    settings = rendered.one("ConfigMap", "-webhook")["data"]
    assert (settings["SEMAFF_ANALYSER"], settings["SEMAFF_BEDROCK_REGION"]) == ("bedrock", "eu-west-1")
    assert rendered.one("Certificate")["spec"]["issuerRef"]["kind"] == "ClusterIssuer"


def test_openai_key_is_a_mounted_file(helm: Path) -> None:
    rendered = render(helm, (CHART / "ci" / "openai-values.yaml",))
    settings = rendered.one("ConfigMap", "-webhook")["data"]
    assert settings["SEMAFF_OPENAI_BASE_URL"] == "http://vllm.llm.svc:8000/v1"
    _assert_file_is_mounted(rendered.one("Deployment", "-webhook"), "webhook", settings["SEMAFF_OPENAI_API_KEY_FILE"])
    volumes = {v["name"]: v for v in pod_spec(rendered.one("Deployment", "-webhook"))["volumes"]}
    assert volumes["openai"]["secret"] == {
        "secretName": "openai-api-key",
        "defaultMode": 0o400,
        "items": [{"key": "token", "path": "api-key"}],
    }


def test_network_policy_admits_the_api_server_and_allows_llm_egress(helm: Path) -> None:
    rendered = render(helm, (CHART / "ci" / "networkpolicy-values.yaml",))
    webhook = rendered.one("NetworkPolicy", "-webhook")["spec"]
    (ingress,) = webhook["ingress"]
    assert ingress["ports"] == [{"port": 8443, "protocol": "TCP"}]
    assert ingress["from"] == [{"ipBlock": {"cidr": "10.0.0.0/24"}}]
    egress_ports = [{p["port"] for p in rule["ports"]} for rule in webhook["egress"]]
    assert {53} in egress_ports and {443} in egress_ports
    assert len(webhook["egress"]) == 3  # DNS, API server, LLM (bedrock)
    scheduler = rendered.one("NetworkPolicy", "-scheduler")["spec"]
    assert scheduler["ingress"] == [{"ports": [{"port": 8888, "protocol": "TCP"}]}]
    embedded = render(helm, set_values=("networkPolicy.enabled=true",))
    assert len(embedded.one("NetworkPolicy", "-webhook")["spec"]["egress"]) == 2  # no LLM egress


def test_notes_explain_hints_and_describe(helm: Path) -> None:
    proc = subprocess.run(
        [str(helm), "install", RELEASE, str(CHART), "--dry-run=client", "--namespace", NAMESPACE],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    notes = proc.stdout.split("NOTES:", 1)[1]
    assert "semantic-affinity.io/hint" in notes
    assert "kubectl describe pod" in notes
    assert "IntentAnalyzed" in notes and "semantic-affinity.io/status" in notes


def test_single_replicas_get_no_disruption_budget(helm: Path) -> None:
    """A PDB with minAvailable 1 over one replica would block node drains for ever."""
    rendered = render(helm, set_values=("webhook.replicas=1", "scheduler.replicas=1"))
    assert not rendered.of_kind("PodDisruptionBudget")


def test_clusters_older_than_1_30_are_refused(helm: Path) -> None:
    """matchConditions are GA in 1.30 (off by default in 1.27, where every pod would be sent)."""
    with pytest.raises(RenderError, match="kubeVersion"):
        render(helm, kube_version="1.29.0")
    assert render(helm, kube_version="1.30.0").of_kind("MutatingWebhookConfiguration")


def test_node_agent_is_off_by_default_and_narrow_when_on(default: Rendered, helm: Path) -> None:
    assert not default.of_kind("DaemonSet") and not default.of_kind("ValidatingAdmissionPolicy")
    rendered = render(helm, (CHART / "ci" / "node-agent-values.yaml",))
    daemonset = rendered.one("DaemonSet", "-node-agent")
    spec = pod_spec(daemonset)
    (container,) = spec["containers"]
    assert container["command"] == ["python", "-m", "nodeagent"]
    assert spec["runtimeClassName"] == "nvidia" and spec["nodeSelector"] == {"nvidia.com/gpu.present": "true"}
    assert "hostNetwork" not in spec and "hostPID" not in spec
    assert all("hostPath" not in v for v in spec["volumes"])  # nothing from the host but what the runtime injects
    assert not any(k.startswith("nvidia.com/") for k in container["resources"].get("limits", {}))  # takes no GPU
    env = {e["name"]: e.get("value", e.get("valueFrom")) for e in container["env"]}
    assert env["NODE_NAME"] == {"fieldRef": {"fieldPath": "spec.nodeName"}}
    assert env["NVIDIA_DRIVER_CAPABILITIES"] == "utility"
    assert env["SEMAFF_NVLINK_LABEL"] == "semantic-affinity.io/nvlink"
    assert spec["serviceAccountName"] == rendered.one("ServiceAccount", "-node-agent")["metadata"]["name"]
    assert _rules(rendered.one("ClusterRole", "-node-agent")) == [(("",), ("nodes",), ("get", "patch"))]
    policy = rendered.one("ValidatingAdmissionPolicy", "-node-agent")
    assert policy["spec"]["matchConditions"][0]["expression"] == (
        f"request.userInfo.username == 'system:serviceaccount:{NAMESPACE}:{spec['serviceAccountName']}'")
    checks = " ".join(v["expression"] for v in policy["spec"]["validations"])
    assert "authentication.kubernetes.io/node-name" in checks and "object.spec == oldObject.spec" in checks
    binding = rendered.one("ValidatingAdmissionPolicyBinding", "-node-agent")
    assert binding["spec"] == {"policyName": policy["metadata"]["name"], "validationActions": ["Deny"]}


def test_scorer_watches_the_configured_dra_driver(helm: Path) -> None:
    rendered = render(helm, set_values=("scorer.draDriver=gpu.example.com",
                                        "scorer.draGpuClasses={gpu.example.com,big.gpu.example.com}"))
    data = rendered.one("ConfigMap", "-scheduler-scorer")["data"]
    assert (data["SEMAFF_DRA_DRIVER"], data["SEMAFF_DRA_GPU_CLASSES"]) == (
        "gpu.example.com", "gpu.example.com,big.gpu.example.com")
