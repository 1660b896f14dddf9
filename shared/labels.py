"""The node labels the project reads and writes: one definition for the scorer, the node agent and the
local cluster (research/k8s-contracts.md 4.1, 4.4).

Rack, network speed and NVLink have no Kubernetes-wide label; these are the defaults of the
``SEMAFF_*_LABEL`` settings and of the chart's ``scorer.rackLabel`` / ``networkLabel`` / ``nvlinkLabel``
(a chart test checks the values file says the same).
"""

from __future__ import annotations

REGION = "topology.kubernetes.io/region"
ZONE = "topology.kubernetes.io/zone"
LEGACY_REGION = "failure-domain.beta.kubernetes.io/region"
LEGACY_ZONE = "failure-domain.beta.kubernetes.io/zone"
HOSTNAME = "kubernetes.io/hostname"

RACK = "topology.kubernetes.io/rack"
NETWORK_GBPS = "semantic-affinity.io/network-gbps"
NVLINK = "semantic-affinity.io/nvlink"
