"""Scorer configuration: read once from the environment in ``__main__`` and passed down (scorer/README.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from scorer.dra import DEFAULT_DRIVER, DEFAULT_GPU_CLASSES
from scorer.facts import Topology
from scorer.scoring import Mode
from shared.sanitise import DEFAULT_MAX_CHARS


class SettingsError(ValueError):
    """An environment variable has a value the scorer cannot use."""


@dataclass(frozen=True, slots=True)
class Queries:
    """PromQL for live load. Each returns one series per GPU or node; values are aggregated per node here."""

    gpu_util: str = "DCGM_FI_DEV_GPU_UTIL"  # percent per GPU -> mean per node
    gpu_fb_free: str = "DCGM_FI_DEV_FB_FREE"  # MiB per GPU -> largest per node
    gpu_fb_used: str = "DCGM_FI_DEV_FB_USED"  # MiB per GPU -> least per node (free = memory − used without FB_FREE)
    # per GPU pair, 0 = NVLink P2P OK; the exporter emits it only when enabled in its counters CSV
    gpu_p2p: str = "DCGM_EXP_P2P_STATUS"
    # irate: the last two samples, so the value is current and right even with little history
    cpu_load: str = '1 - avg by (node) (irate(node_cpu_seconds_total{mode="idle"}[2m]))'  # 0..1 per node
    memory_load: str = "1 - node_memory_MemAvailable_bytes / node_memory_MemTotal_bytes"  # 0..1 per node


@dataclass(frozen=True, slots=True)
class Settings:
    listen_address: str = "0.0.0.0"
    port: int = 8888
    verify_key_files: tuple[str, ...] = ()
    scoring_mode: Mode = Mode.TIERED
    topology: Topology = field(default_factory=Topology)
    prometheus_url: str = ""
    metrics_poll_s: float = 15.0
    metrics_staleness_s: float = 60.0
    metrics_node_labels: tuple[str, ...] = ("Hostname", "hostname", "node", "kubernetes_node", "nodename")
    queries: Queries = field(default_factory=Queries)
    dra_driver: str = DEFAULT_DRIVER  # the DRA driver whose ResourceSlices publish GPUs
    dra_gpu_classes: tuple[str, ...] = DEFAULT_GPU_CLASSES  # DeviceClasses whose requests are whole GPUs
    relist_s: float = 60.0
    ledger_ttl_s: float = 10.0
    filter_enabled: bool = False
    log_level: str = "info"
    kubeconfig: str | None = None
    in_cluster: bool = False  # KUBERNETES_SERVICE_HOST is set: use the pod's service account
    explain_capacity: int = 128
    # the webhook's SEMAFF_HINT_MAX_CHARS: signatures cover the hint as sanitised with this cap
    hint_max_chars: int = DEFAULT_MAX_CHARS

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        """Settings from ``SEMAFF_*`` variables (and ``KUBECONFIG``); unset or empty means the default."""
        defaults = cls()

        def get(name: str) -> str | None:
            value = env.get(name)
            return value.strip() if value is not None and value.strip() else None

        def number(name: str, default: float) -> float:
            value = get(name)
            if value is None:
                return default
            try:
                result = float(value)
            except ValueError as exc:
                raise SettingsError(f"{name}={value!r} is not a number") from exc
            if result <= 0:
                raise SettingsError(f"{name}={value!r} must be positive")
            return result

        def whole(name: str, default: int) -> int:
            value = number(name, default)
            if value != int(value):
                raise SettingsError(f"{name}={get(name)!r} must be a whole number")
            return int(value)

        def flag(name: str, default: bool) -> bool:
            value = get(name)
            if value is None:
                return default
            if value.lower() in ("1", "true", "yes", "on"):
                return True
            if value.lower() in ("0", "false", "no", "off"):
                return False
            raise SettingsError(f"{name}={value!r} is not a boolean")

        mode = get("SEMAFF_SCORING_MODE") or defaults.scoring_mode.value
        try:
            scoring_mode = Mode(mode.lower())
        except ValueError as exc:
            raise SettingsError(f"SEMAFF_SCORING_MODE={mode!r}: expected tiered or additive") from exc
        keys = tuple(p.strip() for p in (get("SEMAFF_VERIFY_KEY_FILES") or "").split(",") if p.strip())
        base = Topology()
        node_labels = get("SEMAFF_METRICS_NODE_LABELS")
        q = Queries()
        return cls(
            listen_address=get("SEMAFF_LISTEN_ADDRESS") or defaults.listen_address,
            port=whole("SEMAFF_PORT", defaults.port),
            verify_key_files=keys,
            scoring_mode=scoring_mode,
            topology=Topology(
                rack_label=get("SEMAFF_RACK_LABEL") or base.rack_label,
                network_label=get("SEMAFF_NETWORK_LABEL") or base.network_label,
                nvlink_label=get("SEMAFF_NVLINK_LABEL") or base.nvlink_label,
            ),
            prometheus_url=(get("SEMAFF_PROMETHEUS_URL") or "").rstrip("/"),
            metrics_poll_s=number("SEMAFF_METRICS_POLL_S", defaults.metrics_poll_s),
            metrics_staleness_s=number("SEMAFF_METRICS_STALENESS_S", defaults.metrics_staleness_s),
            metrics_node_labels=tuple(s.strip() for s in node_labels.split(",") if s.strip())
            if node_labels else defaults.metrics_node_labels,
            queries=Queries(
                gpu_util=get("SEMAFF_QUERY_GPU_UTIL") or q.gpu_util,
                gpu_fb_free=get("SEMAFF_QUERY_GPU_FB_FREE") or q.gpu_fb_free,
                gpu_fb_used=get("SEMAFF_QUERY_GPU_FB_USED") or q.gpu_fb_used,
                gpu_p2p=get("SEMAFF_QUERY_GPU_P2P") or q.gpu_p2p,
                cpu_load=get("SEMAFF_QUERY_CPU_LOAD") or q.cpu_load,
                memory_load=get("SEMAFF_QUERY_MEMORY_LOAD") or q.memory_load,
            ),
            dra_driver=get("SEMAFF_DRA_DRIVER") or defaults.dra_driver,
            dra_gpu_classes=tuple(c.strip() for c in (get("SEMAFF_DRA_GPU_CLASSES") or "").split(",") if c.strip())
            or defaults.dra_gpu_classes,
            relist_s=number("SEMAFF_RELIST_S", defaults.relist_s),
            ledger_ttl_s=number("SEMAFF_LEDGER_TTL_S", defaults.ledger_ttl_s),
            filter_enabled=flag("SEMAFF_FILTER_ENABLED", defaults.filter_enabled),
            log_level=(get("SEMAFF_LOG_LEVEL") or defaults.log_level).lower(),
            kubeconfig=get("KUBECONFIG"),
            in_cluster=get("KUBERNETES_SERVICE_HOST") is not None,
            hint_max_chars=whole("SEMAFF_HINT_MAX_CHARS", defaults.hint_max_chars),
        )
