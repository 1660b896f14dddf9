"""RFC 6901 escaping and the patch builders, checked with the jsonpatch reference implementation."""

from __future__ import annotations

import jsonpatch

from webhook import patch


def test_escape_order_matters() -> None:
    assert patch.escape("semantic-affinity.io/status") == "semantic-affinity.io~1status"
    assert patch.escape("a~/b") == "a~0~1b"  # '~' first, else '/' -> '~1' -> '~01'
    assert patch.pointer("metadata", "annotations", "x/~y") == "/metadata/annotations/x~1~0y"
    doc = {"metadata": {"annotations": {"x/~y": "1"}}}
    assert jsonpatch.apply_patch(doc, [{"op": "remove", "path": patch.pointer("metadata", "annotations", "x/~y")}]) \
        == {"metadata": {"annotations": {}}}


def test_set_entries_creates_the_map_when_absent() -> None:
    for existing in (None, {}, {"other": "v"}):
        doc = {"metadata": {} if existing is None else {"annotations": dict(existing)}}
        ops = patch.set_map_entries(existing, ("metadata", "annotations"), {"a.io/k": "v"})
        out = jsonpatch.apply_patch(doc, ops)
        assert out["metadata"]["annotations"] == {**(existing or {}), "a.io/k": "v"}


def test_gates_created_appended_not_duplicated() -> None:
    for spec in ({}, {"schedulingGates": None}, {"schedulingGates": []}):
        out = jsonpatch.apply_patch({"spec": dict(spec)}, patch.add_scheduling_gate(spec, "g.io/x"))
        assert out["spec"]["schedulingGates"] == [{"name": "g.io/x"}]
    spec = {"schedulingGates": [{"name": "other.io/y"}]}
    out = jsonpatch.apply_patch({"spec": spec}, patch.add_scheduling_gate(spec, "g.io/x"))
    assert out["spec"]["schedulingGates"] == [{"name": "other.io/y"}, {"name": "g.io/x"}]
    assert patch.add_scheduling_gate(out["spec"], "g.io/x") == []
    assert patch.gate_index(out["spec"], "g.io/x") == 1 and patch.gate_index({}, "g.io/x") is None
