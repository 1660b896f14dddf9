"""The comma model (``punctuation.restore``): where it may put a comma, and what it changes in a reading.

The properties hold for any model (they are rules around it); the probes, our own wording, show readings the
shipped model mends: a strength word typed between two wishes without punctuation grades the one it belongs to.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.webhook.analysers.embedded.probes import readings
from webhook.analysers.embedded import EmbeddedAnalyser
from webhook.analysers.embedded.punctuation import MIN_WORDS, concept_tags, model, restore, words_and_gaps

WORDS = ["keep", "it", "off", "rack-3", "ideally", "on", "eu-west-1b", "must", "have", "ssd", "spread", "replicas",
         "not", "avoid", "node", "kx-4", "bitte", "nicht", "évite", "la", "zone", "pas", "sur", "16", "cores", "gpu",
         "si", "possible", "please", "nope", "zwingend", "debe", "preferiblemente", "unbedingt", "🙏", "r9"]
hints = st.lists(st.sampled_from(WORDS), min_size=1, max_size=18).map(" ".join)


@given(hints)
@settings(max_examples=150, deadline=None)
def test_only_commas_are_added(hint: str) -> None:
    """Nothing is removed or changed: taking the added commas out gives the hint back."""
    restored = restore(hint)
    assert restored.replace(",", "") == hint.replace(",", "")
    assert len(restored) - len(hint) == restored.count(",") - hint.count(",")


@given(hints)
@settings(max_examples=150, deadline=None)
def test_no_comma_between_two_names_or_next_to_a_negation(hint: str) -> None:
    words, _ = words_and_gaps(hint)
    tags = concept_tags(words)
    cut = [w.endswith(",") for w in restore(hint).split()]
    for i in range(len(words) - 1):
        if cut[i]:
            assert not (any(c.isdigit() for c in words[i]) and any(c.isdigit() for c in words[i + 1])), hint
            assert "e:negb" not in tags[i] and "s:negb" not in tags[i + 1] and "s:nega" not in tags[i + 1], hint


@pytest.mark.parametrize("hint", [
    "keep it off rack-3, ideally on rack-5 with 16 cores and an ssd",  # the writer's own punctuation stays
    "must have ssd ideally rack-5",  # too short to tell a clause from a phrase
    "",
    "   ",
])
def test_a_punctuated_or_short_hint_is_left_as_typed(hint: str) -> None:
    assert len(words_and_gaps(hint)[0]) < MIN_WORDS or "," in hint
    assert restore(hint) == hint


def test_a_negation_keeps_its_object_across_the_gap_the_model_would_cut() -> None:
    """Under a forward negation no comma goes in before its object (a name), even where the model scores one."""
    weights, _ = model()
    hint = "under no circumstances put the batch pods on node kx-4 ideally somewhere in eu-west-1"
    restored = restore(hint, weights, margin=-1e9)  # a model that would cut every gap it may
    assert restored.split("kx-4")[0].count(",") == 0
    assert "kx-4," in restored  # after the object the negation has what it negates


def test_the_model_file_loads() -> None:
    weights, margin = model()
    assert len(weights) > 1000 and margin > 0 and all(isinstance(w, float) for w in weights.values())


# Typed without punctuation, a strength word between two wishes grades the one it belongs to (our wording).
MENDED = [
    ("ssd required nice to have 25gbit network",
     {"prefer_ssd_storage": (1.5, None), "prefer_network_speed": (0.5, None)}),
    ("es obligatorio tener ssd idealmente en la zona eu-west-1c",
     {"prefer_ssd_storage": (1.5, None), "prefer_zones": (0.5, ["eu-west-1c"])}),
    ("unbedingt ssd wenn möglich wenig ausgelastete knoten",
     {"prefer_ssd_storage": (1.5, None), "prefer_least_loaded_nodes": (0.5, None)}),
]


@pytest.mark.parametrize(("hint", "labels"), MENDED)
def test_commas_put_back_mend_the_strength_of_each_wish(hint: str, labels: dict) -> None:
    got = readings(hint)
    assert {name: strength for name, (strength, _) in got.items()} == {n: s for n, (s, _) in labels.items()}
    # without the model the strength of the first wish reaches the second: the test would fail without it
    plain = EmbeddedAnalyser(restore=lambda h: h).analyse_sync(hint)
    assert {i["intent"]: i["strength"] for i in plain} != {n: s for n, (s, _) in labels.items()}


def test_words_and_gaps_cut_only_a_trailing_mark() -> None:
    words, ends = words_and_gaps("keep 1.5 TB, on eu-west-1. ok!")
    assert words == ["keep", "1.5", "tb", "on", "eu-west-1", "ok"]
    assert ends == [4, 8, 11, 15, 25, 29]  # where a comma would go: right after the word, before its own mark
