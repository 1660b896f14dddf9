"""prefer_gpu_models: φ(n) = 1 if n's GPU product (GFD label) matches one of the listed models.

A model matches when its tokens appear in the product's tokens in order: "H100" and "h100 80gb" match
"NVIDIA-H100-80GB-HBM3", but "A10" does not match "NVIDIA-A100-SXM4-80GB".
"""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.facts import NodeFacts, gpu_tokens
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.GPU_MODEL


def _contains(haystack: tuple[str, ...], needle: tuple[str, ...]) -> bool:
    width = len(needle)
    return any(haystack[i : i + width] == needle for i in range(len(haystack) - width + 1))


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    models = [tokens for tokens in (gpu_tokens(m) for m in intent.items("prefer_gpu_models")) if tokens]
    verdicts: dict[tuple[str, ...], float] = {}  # many nodes share a product: match each product once
    phi: Phi = []
    for n in nodes:
        if not n.known:
            phi.append(None)
        elif n.gpu_tokens:
            verdict = verdicts.get(n.gpu_tokens)
            if verdict is None:
                verdict = verdicts[n.gpu_tokens] = 1.0 if any(_contains(n.gpu_tokens, m) for m in models) else 0.0
            phi.append(verdict)
        else:
            phi.append(None if n.gpu_count > 0 else 0.0)  # GPUs without a product label: unknown model
    return phi
