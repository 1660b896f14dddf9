"""shared.lines: a newline-delimited stream cut anywhere gives each non-blank line once, whole, in order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shared.lines import LineSplitter


@given(st.lists(st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"")), max_size=12),
       st.lists(st.integers(min_value=0, max_value=400), max_size=10),
       st.sampled_from([b"", b"\n", b"\n\n", b"\n \n"]))
def test_lines_survive_any_cut(lines: list[bytes], cuts: list[int], ending: bytes) -> None:
    data = b"\n".join(lines) + ending
    points = sorted({min(c, len(data)) for c in cuts})
    chunks = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    splitter = LineSplitter()
    got = [line for chunk in chunks for line in splitter.feed(chunk)]
    rest = splitter.rest()
    got += [rest] if rest is not None else []
    assert got == [line for line in lines if line and not line.isspace()]


def test_a_long_line_in_many_pieces_is_joined_once_and_rest_empties() -> None:
    splitter = LineSplitter()
    assert splitter.feed(b"x" * 100) == [] and splitter.feed(b"y" * 100) == []
    assert splitter.feed(b"z\nnext") == [b"x" * 100 + b"y" * 100 + b"z"]
    assert splitter.rest() == b"next" and splitter.rest() is None
