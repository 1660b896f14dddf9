"""Robustness to typing slips: every row with an intent gets one slip (swapped, dropped or doubled letter)
in one of its longer words, and the quality loop runs on the result.

``python -m tests.bench.embedded_typos FILE.jsonl [--seed N] [--errors]``. The expected
answers stay as they are, so a slip inside a workload name counts against metadata, not subset.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sys
import tempfile
from pathlib import Path

from tests.bench.embedded_quality import evaluate

_WORD = re.compile(r"(?<![\w-])[A-Za-záéíóúñäöüß]{6,}(?![\w-])")


def perturb(rows: list[dict], seed: int) -> list[dict]:
    """One slip per row (rows without intents and without a long word are left out)."""
    rng = random.Random(seed)
    out = []
    for row in rows:
        words = list(_WORD.finditer(row["hint"]))
        if not row["expected"] or not words:
            continue
        match = rng.choice(words)
        word = match.group(0)
        i = rng.randrange(1, len(word) - 2)
        slip = rng.choice(("swap", "drop", "double"))
        new = {"swap": word[:i] + word[i + 1] + word[i] + word[i + 2:], "drop": word[:i] + word[i + 1:],
               "double": word[:i] + word[i] + word[i:]}[slip]
        hint = row["hint"][:match.start()] + new + row["hint"][match.end():]
        out.append(dict(row, hint=hint, id=f"{row['id']}~"))
    return out


def main(argv: list[str]) -> int:
    from webhook.analysers.embedded import EmbeddedAnalyser

    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
    rows = [json.loads(line) for line in Path(argv[0]).read_text().splitlines() if line.strip()]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        handle.write("\n".join(json.dumps(r, ensure_ascii=False) for r in perturb(rows, seed)) + "\n")
    try:
        analyser = EmbeddedAnalyser()
        asyncio.run(evaluate(handle.name, analyser, show_errors="--errors" in argv))
    finally:
        Path(handle.name).unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
