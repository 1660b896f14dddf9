"""Analyser versions follow behaviour: any change to a rule, word list or prompt changes them."""

from __future__ import annotations

import shutil
from pathlib import Path

from webhook.analysers import prompt
from webhook.analysers.embedded import analyser as embedded
from webhook.analysers.version import content_version, digest, tree_parts


def test_digest_depends_on_content_and_names_not_order() -> None:
    parts = [("a.txt", b"avoid"), ("b.txt", b"spread")]
    assert digest(parts) == digest(list(reversed(parts)))
    assert digest(parts) != digest([("a.txt", b"avoid "), ("b.txt", b"spread")])
    assert digest(parts) != digest([("c.txt", b"avoid"), ("b.txt", b"spread")])
    assert digest([("ab", b"c")]) != digest([("a", b"bc")])  # no ambiguity at the seams


def _embedded_version(root: Path) -> str:
    return content_version("embedded", tree_parts(root))


def test_embedded_version_is_the_digest_of_its_package(tmp_path: Path) -> None:
    copy = tmp_path / "embedded"
    shutil.copytree(embedded.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert embedded.PROMPT_VERSION == _embedded_version(copy) == embedded.EmbeddedAnalyser.prompt_version
    assert embedded.PROMPT_VERSION.startswith("embedded-")
    seen = {embedded.PROMPT_VERSION}
    # every file that decides the output moves the version, whatever kind of change it is
    for path in sorted(p for p in copy.rglob("*") if p.is_file() and p.suffix in (".py", ".json", ".txt")):
        original = path.read_bytes()
        path.write_bytes(original + b"\n")
        changed = _embedded_version(copy)
        assert changed not in seen, path.name
        seen.add(changed)
        path.write_bytes(original)
    assert _embedded_version(copy) == embedded.PROMPT_VERSION
    (copy / "__pycache__").mkdir(exist_ok=True)
    (copy / "__pycache__" / "x.pyc").write_bytes(b"bytecode")
    assert _embedded_version(copy) == embedded.PROMPT_VERSION  # caches are not behaviour


def test_prompt_version_is_the_digest_of_the_prompt() -> None:
    template = prompt.build_messages("\x00")[1]
    assert content_version("prompt", [("system", prompt.system_prompt().encode()),
                                                               ("user", template.encode())]) == prompt.PROMPT_VERSION
    assert content_version("prompt", [("system", prompt.system_prompt().encode() + b" "),
                                                               ("user", template.encode())]) != prompt.PROMPT_VERSION
