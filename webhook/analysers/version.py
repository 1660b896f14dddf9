"""Analyser versions derived from what decides the output, so they change whenever the output can.

The version is part of the cache key and of the analysis annotation (``prompt_version``): the webhook's
cache, the cache seeded from signed pods and a standby's learnt results only reuse a document made by
the very same rules, word lists or prompt. A hand-bumped constant went stale across many
behaviour changes; a digest of the content cannot. Comments and docstrings are part of the digest too:
a needless version change costs one fresh analysis per hint, a missed one serves stale intents.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
# The shared normaliser and the catalogue it validates against shape every backend's document.
NORMALISER_FILES = (SHARED / "catalogue.py", SHARED / "normalise.py", SHARED / "intents.py")
DIGEST_CHARS = 12
# What a source tree holds that can change behaviour (code and data, not caches).
BEHAVIOUR_SUFFIXES = frozenset((".py", ".json", ".txt", ".yaml", ".yml", ".toml"))


def digest(parts: Iterable[tuple[str, bytes]]) -> str:
    """Short sha256 over (name, content) pairs, independent of their order."""
    hasher = hashlib.sha256()
    for name, content in sorted(parts):
        hasher.update(f"{name}\0{len(content)}\0".encode())
        hasher.update(content)
    return hasher.hexdigest()[:DIGEST_CHARS]


def tree_parts(root: Path) -> list[tuple[str, bytes]]:
    """(path relative to ``root``, bytes) of every behaviour file under ``root``."""
    return [(path.relative_to(root).as_posix(), path.read_bytes()) for path in sorted(root.rglob("*"))
            if path.is_file() and path.suffix in BEHAVIOUR_SUFFIXES and "__pycache__" not in path.parts]


def file_parts(paths: Iterable[Path]) -> list[tuple[str, bytes]]:
    """(file name, bytes) of each of ``paths``."""
    return [(f"shared/{path.name}", path.read_bytes()) for path in paths]


def content_version(prefix: str, parts: Iterable[tuple[str, bytes]]) -> str:
    """``prefix-<digest>``: the version string of an analyser whose behaviour is ``parts`` plus the normaliser."""
    return f"{prefix}-{digest([*parts, *file_parts(NORMALISER_FILES)])}"
