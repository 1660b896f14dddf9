"""prefer_gpu_memory_gb: φ(n) = 1 if a GPU of n has ≥ the wanted memory: free framebuffer when DCGM measured
it recently, else the GFD per-GPU memory label. No GPUs: 0; GPUs of unknown memory: neutral."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.evaluators import Context, Phi
from scorer.facts import NodeFacts
from shared.catalogue import IntentSpec, Kind
from shared.intents import Intent

KIND = Kind.GPU_MEMORY


def evaluate(intent: Intent, spec: IntentSpec, nodes: Sequence[NodeFacts], ctx: Context) -> Phi:
    wanted = intent.number("prefer_gpu_memory_gb")
    live, fresh_after = ctx.live, ctx.fresh_after
    phi: Phi = []
    for n in nodes:
        if not n.known:
            phi.append(None)
            continue
        if not n.has_gpus:
            phi.append(0.0)
            continue
        memory = n.gpu_memory_gb
        sample = live.get(n.name) if live else None
        if sample is not None and sample.gpu_fb_free_gb is not None and sample.gpu_fb_free_at >= fresh_after:
            memory = sample.gpu_fb_free_gb
        phi.append(None if memory is None else (1.0 if memory >= wanted else 0.0))
    return phi
