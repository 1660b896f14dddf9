"""The meaning-preserving perturbations: what each changes, and that names and answers are left alone."""

from __future__ import annotations

from webhook.evaluation import parse_row
from webhook.perturbations import PERTURBATIONS, perturbed

ROW = parse_row({
    "id": "en-1", "lang": "en", "category": "single",
    "hint": "Don't share a node with 'Élan-db'; ideally in eu-west-1, 1.5 TB scratch.",
    "expected": [
        {"intent": "avoid_same_node_as_deployments", "metadata": {"deployments": ["Élan-db"]}},
        {"intent": "prefer_ephemeral_storage", "metadata": {"prefer_ephemeral_storage_gb": 1536.0}},
        {"intent": "prefer_regions", "strength": 0.5, "metadata": {"prefer_regions": ["eu-west-1"]}},
    ],
})


def hint(name: str) -> str | None:
    variant = PERTURBATIONS[name](ROW)
    return None if variant is None else variant.hint


def test_each_perturbation_changes_what_it_says_and_keeps_the_names() -> None:
    assert hint("curly") == "Don\u2019t share a node with \u2019Élan-db\u2019; ideally in eu-west-1, 1.5 TB scratch."
    assert hint("noapos") == "Dont share a node with Élan-db; ideally in eu-west-1, 1.5 TB scratch."
    assert hint("nopunct") == "Don't share a node with 'Élan-db' ideally in eu-west-1 1.5 TB scratch"
    assert hint("chat") == "don't share a node with 'élan-db' ideally in eu-west-1 1.5 tb scratch"
    assert hint("wrapped") == "hi team, " + ROW.hint + " thanks!"
    assert hint("emoji") == ROW.hint + " \U0001f64f"
    # the only accent is inside an expected name: nothing to strip
    assert hint("noaccent") is None


def test_a_variant_keeps_the_expected_answer_and_marks_its_id() -> None:
    for name in PERTURBATIONS:
        variant = PERTURBATIONS[name](ROW)
        if variant is not None:
            assert variant.expected == ROW.expected and variant.id == f"en-1~{name}"


def test_typo_slips_one_letter_outside_names_and_is_deterministic() -> None:
    first, second = hint("typo"), hint("typo")
    assert first == second and first is not None and first != ROW.hint
    assert "Élan-db" in first and "eu-west-1" in first
    changed = [(a, b) for a, b in zip(ROW.hint.split(), first.split(), strict=False) if a != b]
    assert len(changed) == 1 and abs(len(changed[0][0]) - len(changed[0][1])) <= 1


def test_accents_are_stripped_outside_names() -> None:
    row = parse_row({"id": "de-1", "lang": "de", "hint": "Möglichst nicht auf Knoten müde-3, größer ist besser.",
                     "expected": [{"intent": "avoid_nodes", "strength": 0.5, "metadata": {"avoid_nodes": ["müde-3"]}}]})
    variant = PERTURBATIONS["noaccent"](row)
    assert variant is not None and variant.hint == "Moglichst nicht auf Knoten müde-3, grosser ist besser."


def test_perturbed_pairs_only_rows_that_change() -> None:
    blank = parse_row({"id": "x", "lang": "en", "hint": "plain words", "expected": []})
    assert perturbed([ROW, blank], "curly") == [(ROW, PERTURBATIONS["curly"](ROW))]
    assert len(perturbed([ROW, blank], "emoji")) == 2
