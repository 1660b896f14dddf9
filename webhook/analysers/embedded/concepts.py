"""Intents without names or numbers, found by cue patterns declared as data.

Each ``Cue`` says which intent a phrase supports and what it means when negated: "not on the same
node" asks for ``spread_nodes``, "isn't overloaded" for ``prefer_least_loaded_nodes``, and a negated
cue without such a meaning ("no SSD needed") yields nothing. The cues are declared in specs.json and
their words in lang/<code>/; this module compiles them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from webhook.analysers.embedded import langdata
from webhook.analysers.embedded.langdata import alternatives, group, one_of
from webhook.analysers.embedded.prefilter import Prefiltered


@dataclass(frozen=True, slots=True)
class Cue:
    intent: str | None  # when not negated
    pattern: Prefiltered  # run only over text where a match can start (a cue has hundreds of phrasings)
    when_negated: str | None = None
    # the level a cue names only by "one" said after that level's word ("... and all together on one"): the
    # intent holds only where the last level word before the cue is this level's
    elided_level: str | None = None


_B = langdata.FRAGMENTS["b"]  # word start (dash counts as part of a word)
_E = langdata.FRAGMENTS["e"]
# "one replica per rack", "una réplica por zona", "ein Pod pro Region"
# ... and any small count of replicas per level: "2 réplicas por zona", "zwei Replikas pro Zone"
_ONE_PER = (rf"(?:[1-9]|{group('count_small')})\s+(?:[\w-]+\s+)?{group('per')}\s+(?:{group('per_level_prefix')}\s+)?")


# The cue specs (specs.json): which intent a cue supports, what it means negated, and its patterns:
# language-neutral templates there, and each language's phrasings in lang/<code>/cue_<name>.txt.
# A template names concepts in braces ({level_zone}, {spread_across}) and the fragments below.
SPECS = Path(__file__).resolve().parent / "specs.json"
_FRAGMENTS = {**langdata.FRAGMENTS, "one_per": _ONE_PER}


def expand(template: str) -> str:
    """A template with its {placeholders} replaced by fragments and concept groups."""
    return langdata.expand(template, _FRAGMENTS)


def load_cues(path: Path = SPECS) -> tuple[Cue, ...]:
    """Every cue of the spec file, its patterns compiled over every language's phrasings."""
    cues = []
    for spec in json.loads(path.read_text(encoding="utf-8")):
        alternatives_ = [*spec["patterns"], *alternatives(f"cue_{spec['cue']}")]
        pattern = Prefiltered(re.compile(one_of([expand(a) for a in alternatives_])))
        cues.append(Cue(spec["intent"], pattern, spec["when_negated"], spec.get("elided")))
    return tuple(cues)


CUES: tuple[Cue, ...] = load_cues()

# A GPU is requested when a GPU word is introduced as something to have, not as the subject of a
# property ("GPUs with 24GB", "NVLink-connected GPUs", "each GPU should have ...").
# A GPU word may begin a compound whose head is a node word ("Grafikkartenknoten": a GPU node).
# "a dedicated GPU", "eine dedizierte GPU": a qualifier before the word (lang/*/gpu_qualifier.txt, vendors among them)
GPU_WORD = re.compile(rf"{_B}(?:{langdata.expand('{gpu_qualifier}')}\s+)?({group('gpu_words')[3:-1]})"
                      rf"(?:(?![\w])|(?={langdata.expand('{level_node}')}(?![\w])))")
GPU_REQUEST_BEFORE = re.compile(rf"(?:^|[\s(]){group('gpu_request_before')}\s*$")
# A request verb right before the GPU word asks for GPUs even when a property follows
# ("needs GPUs with 48 GB" -> prefer_gpu 1.0 and the memory).
GPU_REQUEST_VERB = re.compile(rf"(?:^|\s){group('gpu_request_verb')}\s*$")
GPU_REQUEST_AFTER = re.compile(rf"^(?:-|\s)*{group('gpu_request_after')}(?![\w])")
# The GPU word is the subject of a property ("GPUs with 24GB", "GPUs should have ..."): no request.
GPU_PROPERTY_AFTER = re.compile(rf"^\s*(?:[abhlptvkm]i?\d{{1,4}}[a-z]?s?(?![\w])|{group('gpu_property_after')[3:-1]})"
                                r"(?![\w])")
# "two of them" after a GPU mention counts GPUs.
COUNT_OF_THEM = re.compile(rf"{_B}(\d{{1,2}}|{group('count_them')[3:-1]})\s+{group('of_them')}{_E}")
