"""prefer_gpu_models: φ(n) = 1 if n's GPU product (GFD label) matches one of the listed models.

A model matches when its tokens appear in the product's tokens in order: "H100" and "h100 80gb" match
"NVIDIA-H100-80GB-HBM3", but "A10" does not match "NVIDIA-A100-SXM4-80GB".
"""

from __future__ import annotations

import numpy as np

from scorer.evaluators import Context
from scorer.facts import gpu_tokens
from scorer.table import NodeView
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.GPU_MODEL


def _contains(haystack: tuple[str, ...], needle: tuple[str, ...]) -> bool:
    width = len(needle)
    return any(haystack[i : i + width] == needle for i in range(len(haystack) - width + 1))


def evaluate(intent: Intent, spec: IntentSpec, view: NodeView, ctx: Context) -> np.ndarray:
    models = [tokens for tokens in (gpu_tokens(m) for m in intent.items("prefer_gpu_models")) if tokens]

    def verdict(product: str) -> float:  # once per distinct product, not per node
        tokens = gpu_tokens(product)
        return 1.0 if any(_contains(tokens, m) for m in models) else 0.0

    by_product = view.by_product(verdict)
    # no product label: no GPUs at all is a clear 0; GPUs of an unknown model are neutral
    without = np.where(view.column("gpu_count") > 0, np.nan, 0.0)
    return np.where(np.isnan(by_product), np.where(view.known, without, np.nan), by_product)
