"""SEMAFF_* environment variables -> Settings (scorer/README.md)."""

from __future__ import annotations

import pytest

from scorer.scoring import Mode
from scorer.settings import Settings, SettingsError


def test_defaults_match_the_contract() -> None:
    s = Settings.from_env({})
    assert (s.listen_address, s.port, s.scoring_mode) == ("0.0.0.0", 8888, Mode.TIERED)
    assert s.topology.rack_label == "topology.kubernetes.io/rack"
    assert s.topology.network_label == "semantic-affinity.io/network-gbps"
    assert s.topology.nvlink_label == "semantic-affinity.io/nvlink"
    assert (s.prometheus_url, s.metrics_poll_s, s.metrics_staleness_s) == ("", 15.0, 60.0)
    assert (s.relist_s, s.ledger_ttl_s, s.filter_enabled, s.verify_key_files) == (60.0, 10.0, False, ())
    assert s.kubeconfig is None and not s.in_cluster
    assert s.hint_max_chars == 1000  # the webhook's default SEMAFF_HINT_MAX_CHARS


def test_everything_set() -> None:
    s = Settings.from_env({
        "SEMAFF_LISTEN_ADDRESS": "127.0.0.1", "SEMAFF_PORT": "9999", "SEMAFF_VERIFY_KEY_FILES": "a.pem, b.pem",
        "SEMAFF_SCORING_MODE": "Additive", "SEMAFF_RACK_LABEL": "r", "SEMAFF_NETWORK_LABEL": "n",
        "SEMAFF_NVLINK_LABEL": "v", "SEMAFF_PROMETHEUS_URL": "http://p:9090/", "SEMAFF_METRICS_POLL_S": "5",
        "SEMAFF_METRICS_STALENESS_S": "30", "SEMAFF_RELIST_S": "120", "SEMAFF_LEDGER_TTL_S": "4",
        "SEMAFF_FILTER_ENABLED": "true", "SEMAFF_LOG_LEVEL": "DEBUG", "KUBECONFIG": "/k",
        "SEMAFF_METRICS_NODE_LABELS": "node", "SEMAFF_QUERY_GPU_UTIL": "avg(x)", "KUBERNETES_SERVICE_HOST": "10.0.0.1",
        "SEMAFF_HINT_MAX_CHARS": "2000",
    })
    assert (s.listen_address, s.port, s.verify_key_files, s.scoring_mode) == ("127.0.0.1", 9999, ("a.pem", "b.pem"),
                                                                            Mode.ADDITIVE)
    assert (s.topology.rack_label, s.topology.network_label, s.topology.nvlink_label) == ("r", "n", "v")
    assert (s.prometheus_url, s.metrics_poll_s, s.metrics_staleness_s) == ("http://p:9090", 5.0, 30.0)
    assert (s.relist_s, s.ledger_ttl_s, s.filter_enabled, s.log_level, s.kubeconfig) == (120.0, 4.0, True, "debug",
                                                                                         "/k")
    assert s.metrics_node_labels == ("node",) and s.queries.gpu_util == "avg(x)" and s.in_cluster
    assert s.queries.gpu_fb_free == "DCGM_FI_DEV_FB_FREE"
    assert s.hint_max_chars == 2000


@pytest.mark.parametrize("env", [{"SEMAFF_SCORING_MODE": "fancy"}, {"SEMAFF_PORT": "http"},
                                 {"SEMAFF_LEDGER_TTL_S": "-1"}, {"SEMAFF_FILTER_ENABLED": "maybe"},
                                 {"SEMAFF_HINT_MAX_CHARS": "0"}, {"SEMAFF_HINT_MAX_CHARS": "1e3.5"},
                                 {"SEMAFF_HINT_MAX_CHARS": "1000.5"}])
def test_bad_values_are_errors(env: dict[str, str]) -> None:
    with pytest.raises(SettingsError):
        Settings.from_env(env)
