"""The webhook's configuration: one frozen dataclass, loaded once in ``__main__`` and passed down.

Sources, later wins: defaults, an optional YAML settings file (``SEMAFF_SETTINGS_FILE``, keys are
the environment variable names), the environment. Nothing else in the package reads ``os.environ``.
Every variable is documented in webhook/README.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from webhook.analysers import BACKENDS


class SettingsError(ValueError):
    """A configuration value that cannot be used; the message names the variable."""


@dataclass(frozen=True, slots=True)
class Settings:
    listen_address: str = "0.0.0.0"
    port: int = 8443
    tls_cert_file: str = ""  # empty: plain HTTP (tests, local runs behind a TLS proxy)
    tls_key_file: str = ""
    signing_key_file: str = ""
    analyser: str = "embedded"
    bedrock_model: str = "amazon.nova-pro-v1:0"
    bedrock_region: str = "us-east-1"
    openai_base_url: str = ""
    openai_model: str = ""
    openai_api_key_file: str = ""
    openai_api_key: str = field(default="", repr=False)  # OPENAI_API_KEY when no key file is given; never logged
    scheduler_name: str = ""  # empty: leave spec.schedulerName alone
    analysis_timeout_s: float = 10.0
    ungate_deadline_s: float = 30.0
    hint_max_chars: int = 1000
    leader_election: bool = True
    namespace: str = "default"
    # Comma-separated: the namespaces the MutatingWebhookConfiguration never sends (the chart's list);
    # a hinted pod there was not missed, so it gets no HintNotApplied Event.
    excluded_namespaces: str = ""
    log_level: str = "info"
    # Beyond the cross-team contract (documented in webhook/README.md):
    analysis_concurrency: int = 4
    analysis_retries: int = 2
    cache_max_entries: int = 10_000
    cache_ttl_s: float = 86_400.0
    controller_enabled: bool = True
    watch_workloads: bool = True
    seed_cache: bool = True
    lease_name: str = "semantic-affinity-webhook"
    lease_duration_s: float = 15.0
    pod_name: str = ""  # POD_NAME (downward API): reportingInstance and the Lease holder identity
    kubeconfig: str = ""  # KUBECONFIG; empty: in-cluster service account, else ~/.kube/config

    @property
    def excluded(self) -> frozenset[str]:
        """``excluded_namespaces`` as a set."""
        return frozenset(n.strip() for n in self.excluded_namespaces.split(",") if n.strip())

    @property
    def tls_enabled(self) -> bool:
        return bool(self.tls_cert_file and self.tls_key_file)


# environment variable -> field name
_ENV = {
    "SEMAFF_LISTEN_ADDRESS": "listen_address",
    "SEMAFF_PORT": "port",
    "SEMAFF_TLS_CERT_FILE": "tls_cert_file",
    "SEMAFF_TLS_KEY_FILE": "tls_key_file",
    "SEMAFF_SIGNING_KEY_FILE": "signing_key_file",
    "SEMAFF_ANALYSER": "analyser",
    "SEMAFF_BEDROCK_MODEL": "bedrock_model",
    "SEMAFF_BEDROCK_REGION": "bedrock_region",
    "SEMAFF_OPENAI_BASE_URL": "openai_base_url",
    "SEMAFF_OPENAI_MODEL": "openai_model",
    "SEMAFF_OPENAI_API_KEY_FILE": "openai_api_key_file",
    "OPENAI_API_KEY": "openai_api_key",
    "SEMAFF_SCHEDULER_NAME": "scheduler_name",
    "SEMAFF_ANALYSIS_TIMEOUT_S": "analysis_timeout_s",
    "SEMAFF_UNGATE_DEADLINE_S": "ungate_deadline_s",
    "SEMAFF_HINT_MAX_CHARS": "hint_max_chars",
    "SEMAFF_LEADER_ELECTION": "leader_election",
    "SEMAFF_NAMESPACE": "namespace",
    "SEMAFF_EXCLUDED_NAMESPACES": "excluded_namespaces",
    "SEMAFF_LOG_LEVEL": "log_level",
    "SEMAFF_ANALYSIS_CONCURRENCY": "analysis_concurrency",
    "SEMAFF_ANALYSIS_RETRIES": "analysis_retries",
    "SEMAFF_CACHE_MAX_ENTRIES": "cache_max_entries",
    "SEMAFF_CACHE_TTL_S": "cache_ttl_s",
    "SEMAFF_CONTROLLER": "controller_enabled",
    "SEMAFF_WATCH_WORKLOADS": "watch_workloads",
    "SEMAFF_SEED_CACHE": "seed_cache",
    "SEMAFF_LEASE_NAME": "lease_name",
    "SEMAFF_LEASE_DURATION_S": "lease_duration_s",
    "POD_NAME": "pod_name",
    "KUBECONFIG": "kubeconfig",
}
ENV_VARS = tuple(_ENV)

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _convert(name: str, kind: type, value: Any) -> Any:
    if kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise SettingsError(f"{name}: expected true/false, got {value!r}")
    if kind is int or kind is float:
        try:
            number = kind(value)
        except (TypeError, ValueError) as exc:
            raise SettingsError(f"{name}: expected a number, got {value!r}") from exc
        if number < 0:
            raise SettingsError(f"{name}: must not be negative")
        return number
    return str(value)


def load_settings(environ: Mapping[str, str]) -> Settings:
    """Settings from defaults, ``SEMAFF_SETTINGS_FILE`` (YAML mapping) and then ``environ``."""
    values: dict[str, Any] = {}
    settings_file = environ.get("SEMAFF_SETTINGS_FILE")
    if settings_file:
        data = yaml.safe_load(Path(settings_file).read_text()) or {}
        if not isinstance(data, dict):
            raise SettingsError("SEMAFF_SETTINGS_FILE: expected a mapping of SEMAFF_* names to values")
        unknown = sorted(set(data) - set(_ENV))
        if unknown:
            raise SettingsError(f"SEMAFF_SETTINGS_FILE: unknown keys {unknown}")
        values.update(data)
    values.update({k: v for k, v in environ.items() if k in _ENV})
    kinds = {f.name: f.type for f in dataclasses.fields(Settings)}
    builtins = {"str": str, "int": int, "float": float, "bool": bool}
    fields = {}
    for env_name, value in values.items():
        field_name = _ENV[env_name]
        fields[field_name] = _convert(env_name, builtins[kinds[field_name]], value)
    settings = Settings(**fields)
    if settings.analyser not in BACKENDS:
        raise SettingsError(f"SEMAFF_ANALYSER: unknown backend {settings.analyser!r}")
    if bool(settings.tls_cert_file) != bool(settings.tls_key_file):
        raise SettingsError("SEMAFF_TLS_CERT_FILE and SEMAFF_TLS_KEY_FILE must be set together")
    if settings.analysis_concurrency < 1:
        raise SettingsError("SEMAFF_ANALYSIS_CONCURRENCY: must be at least 1")
    return settings
