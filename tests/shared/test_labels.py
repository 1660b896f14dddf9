"""The node labels are defined once (shared.labels): the chart's defaults and every reader agree with it."""

from __future__ import annotations

from pathlib import Path

import yaml

from shared import labels

VALUES = Path(__file__).resolve().parents[2] / "charts" / "semantic-affinity" / "values.yaml"


def test_the_chart_defaults_are_the_shared_labels() -> None:
    scorer = yaml.safe_load(VALUES.read_text())["scorer"]
    assert (scorer["rackLabel"], scorer["networkLabel"], scorer["nvlinkLabel"]) == (
        labels.RACK, labels.NETWORK_GBPS, labels.NVLINK)


def test_the_services_default_to_the_shared_labels() -> None:
    from nodeagent.__main__ import DEFAULT_LABEL
    from scorer.facts import DEFAULT_TOPOLOGY
    from scorer.settings import Settings

    assert DEFAULT_LABEL == labels.NVLINK
    assert (DEFAULT_TOPOLOGY.rack_label, DEFAULT_TOPOLOGY.network_label, DEFAULT_TOPOLOGY.nvlink_label) == (
        labels.RACK, labels.NETWORK_GBPS, labels.NVLINK)
    settings = Settings.from_env({})
    assert settings.topology == DEFAULT_TOPOLOGY
