"""The word files and cue specs hold together: no file is silently ignored, no placeholder dangles."""

from __future__ import annotations

import json
import re

from webhook.analysers.embedded import concepts, langdata
from webhook.analysers.embedded.langdata import ROOT, alternatives, group, languages, table


def _concepts_in_code() -> set[str]:
    """Every concept name the code or the specs ask for (group/alternatives/table calls, {placeholders})."""
    names: set[str] = set()
    package = ROOT.parent
    call = re.compile(r"""(?:group|alternatives|table|concept_words)\s*\(\s*f?["']([a-z_]+)["']""")
    for path in package.glob("*.py"):
        names |= set(call.findall(path.read_text(encoding="utf-8")))
    for spec in json.loads(concepts.SPECS.read_text(encoding="utf-8")):
        names.add(f"cue_{spec['cue']}")
        for pattern in [*spec["patterns"], *alternatives(f"cue_{spec['cue']}")]:
            names |= {m for m in re.findall(r"\{([a-z_]+)\}", pattern) if m not in concepts._FRAGMENTS}
    return names


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
