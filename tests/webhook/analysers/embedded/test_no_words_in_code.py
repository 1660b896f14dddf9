"""Issue 12, point 1: the pipeline code holds no words; every word is in ``lang/<code>/<concept>.txt``.

Each module of the package is parsed; every string literal it holds (f-string parts included,
docstrings excepted) is cut into alphabetic tokens of three or more letters, and no token may be a
word of any language's data files. A literal that is wholly a name the code uses for itself
(a concept, a catalogue identifier, a slot kind) is not text and is not cut.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from shared.catalogue import BY_NAME
from webhook.analysers.embedded import langdata

PACKAGE = langdata.ROOT.parent
_MODULES = frozenset(p.stem for p in PACKAGE.glob("*.py"))  # "workloads": a module of the package, by name
_ESCAPE = re.compile(r"\\[A-Za-z]")  # \b, \s, \w: regular-expression syntax, not letters of a word
_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")  # "{level_zone}" in a template names a concept
_DATA_FILE = re.compile(r"[a-z_]+\.(?:json|txt)")  # "specs.json": a data file of the package
_TOKEN = re.compile(r"[^\W\d_]{3,}")

# Names the code gives to its own records, never matched against a hint: the kinds of slots
# (``Slot.kind``, also the placeholders written over masked names), the fields of a cue spec in
# specs.json / relations.json and their template fragments, and the reason code of an unsupported language.
_TECHNICAL = frozenset({
    "zone", "region", "rack", "node", "gpu", "gpus", "cores", "size", "rate", "model",
    "intent", "when", "negated", "cue", "patterns", "one", "per", "gap", "level", "levels",
    "language-not-supported",
})


def tokens(text: str) -> list[str]:
    """The alphabetic tokens of three or more letters in ``text`` (lower case, regex escapes removed)."""
    return [t.lower() for t in _TOKEN.findall(_ESCAPE.sub(" ", _PLACEHOLDER.sub(" ", text)))]


def data_words() -> frozenset[str]:
    """Every token spelled by a line of any language's data file."""
    found: set[str] = set()
    for path in langdata.ROOT.glob("*/*.txt"):
        for code in langdata.languages():
            for line in langdata.in_language(code, path.stem):
                found.update(tokens(line))
    return frozenset(found)


def _identifier_parts() -> frozenset[str]:
    names = {s.name for s in BY_NAME.values()} | {m.key for s in BY_NAME.values() for m in s.metadata}
    return frozenset(part for name in names for part in name.split("_") if part) | _TECHNICAL


def _is_name(value: str, concepts: set[str], parts: frozenset[str]) -> bool:
    """A literal that is wholly a concept name, or made only of identifier parts ("avoid_", "zones")."""
    value = value.strip("{}").lower()  # "{level_" + level + "}": the parts of a placeholder
    if value in concepts or value in _TECHNICAL or value in _MODULES or _DATA_FILE.fullmatch(value):
        return True
    return re.fullmatch(r"[a-z_]+", value) is not None and all(p in parts for p in value.split("_") if p)


def literals(path: Path) -> Iterator[tuple[int, str]]:
    """(line, value) of every string literal of one module but its docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def words_in(path: Path, vocabulary: frozenset[str]) -> list[tuple[int, str]]:
    """(line, word) for every data-file word a literal of ``path`` spells."""
    concepts = {p.stem for p in langdata.ROOT.glob("*/*.txt")}
    parts = _identifier_parts()
    return [(line, token) for line, value in literals(path) if not _is_name(value, concepts, parts)
            for token in tokens(value) if token in vocabulary]


@pytest.mark.parametrize("module", sorted(p.name for p in PACKAGE.glob("*.py")))
def test_the_pipeline_code_holds_no_words(module: str) -> None:
    found = words_in(PACKAGE / module, data_words())
    assert found == [], f"{module}: words in code (move them to lang/<code>/<concept>.txt): {found}"


def test_the_check_sees_words_in_patterns_and_f_strings(tmp_path: Path) -> None:
    vocabulary = frozenset({"share", "zona", "between"})
    source = tmp_path / "sample.py"
    source.write_text('"""Docstrings may say share."""\nimport re\n'
                      'A = re.compile(r"\\bshare\\s+(?:zona)")\nB = f"{A}between"\nC = "zone"\n')
    assert sorted(w for _, w in words_in(source, vocabulary)) == ["between", "share", "zona"]


@pytest.mark.parametrize("spec_file", ["specs.json", "relations.json"])
def test_the_spec_templates_hold_no_words(spec_file: str) -> None:
    # a template is structure: its words are named concepts ({level_zone}), never spelled out
    vocabulary = data_words()
    specs = json.loads((PACKAGE / spec_file).read_text(encoding="utf-8"))
    found = [(spec["cue"], token) for spec in specs for pattern in spec["patterns"] for token in tokens(pattern)
             if token in vocabulary]
    assert found == [], f"{spec_file}: words in templates (name a concept instead): {found}"
