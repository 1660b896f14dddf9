"""The word files and cue specs hold together: no file is silently ignored, no placeholder dangles."""

from __future__ import annotations

import json
import re

from webhook.analysers.embedded import concepts, langdata, workloads
from webhook.analysers.embedded.langdata import ROOT, alternatives, group, languages, table


def _concepts_in_code() -> set[str]:
    """Every concept name the code or the specs ask for (group/alternatives/table calls, {placeholders} in
    the code, in specs.json and relations.json, and in the lines of any concept so reached)."""
    names: set[str] = set()
    package = ROOT.parent
    # in_language(<language>, "<concept>"): the concept is its second argument
    call = re.compile(r"""(?:(?:group|alternatives|table|concept_words|compile_concept)\s*\("""
                      r"""|in_language\s*\([^,()]+,)\s*f?["']([a-z_]+)["']""")
    placeholder = re.compile(r"\{([a-z_]+)\}")
    for path in package.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        names |= set(call.findall(source)) | set(placeholder.findall(source))
    for spec in json.loads(concepts.SPECS.read_text(encoding="utf-8")):
        names.add(f"cue_{spec['cue']}")
        for pattern in spec["patterns"]:
            names |= set(placeholder.findall(pattern))
    for spec in json.loads(workloads.RELATIONS.read_text(encoding="utf-8")):
        names |= {f"level_{level}" for level in spec["levels"]} | {spec.get("followed_by", "")}
        for pattern in spec["patterns"]:
            names |= set(placeholder.findall(pattern))
    todo = set(names)
    while todo:  # concept lines may name concepts in turn
        found = {m for line in alternatives(todo.pop()) for m in placeholder.findall(line)} - names
        names |= found
        todo |= found
    return names - set(concepts._FRAGMENTS) - {"level", "quoted_or_dashed", ""}


def test_every_word_file_is_read() -> None:
    # function_words: language detection reads every file of a language
    used = _concepts_in_code() | {"function_words", "level_zone", "level_rack", "level_region", "level_node"}
    files = {p.stem for code in languages() for p in (ROOT / code).glob("*.txt")}
    assert files - used == set(), "word files no code reads (a typo in a file name?)"


def test_every_placeholder_names_a_concept_with_words() -> None:
    for spec in json.loads(concepts.SPECS.read_text(encoding="utf-8")):
        for pattern in [*spec["patterns"], *alternatives(f"cue_{spec['cue']}")]:
            for name in re.findall(r"\{([a-z_]+)\}", pattern):
                assert name in concepts._FRAGMENTS or alternatives(name), (spec["cue"], name)


def test_a_concept_no_language_has_matches_nothing() -> None:
    assert re.search(group("no_such_concept"), "any text") is None
    assert re.fullmatch(group("level_node"), "nodes")


def test_tables_read_numbers() -> None:
    assert table("numbers")["two"] == 2.0
    assert table("unit_size")["tb"] == 1024.0
    assert langdata.in_language("en", "no_such_concept") == ()


def test_every_relation_placeholder_names_a_concept_with_words() -> None:
    for spec in json.loads(workloads.RELATIONS.read_text(encoding="utf-8")):
        for pattern in spec["patterns"]:
            for name in re.findall(r"\{([a-z_]+)\}", pattern):
                known = name in concepts._FRAGMENTS or name in (
                    "level", "quoted_or_dashed", "possessor", "possessor_bare")
                assert known or alternatives(name), (spec["cue"], name)
        assert all(alternatives(f"level_{level}") for level in spec["levels"]), spec["cue"]
