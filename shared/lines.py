"""Newline-delimited streams (Kubernetes watch responses) split into lines in time linear in the bytes.

A watch line is one JSON event and may be longer than aiohttp's readline limit (a pod with large
annotations), and one chunk read after a burst may hold thousands of events: splitting the rest of a
growing buffer once per line copies it once per line, quadratic in the burst (a 20 MB burst of pod
deletions held the webhook's event loop for minutes). Here every chunk is split once and a long line
is joined once from its pieces. Pure: the I/O loop that reads the chunks is the caller's.
"""

from __future__ import annotations


class LineSplitter:
    """Feed chunks, get the complete non-blank lines they finish; ``rest()`` is the unterminated tail."""

    def __init__(self) -> None:
        self._pieces: list[bytes] = []  # the current, unfinished line

    def feed(self, chunk: bytes) -> list[bytes]:
        """The lines ``chunk`` completes (blank ones dropped), in order."""
        parts = chunk.split(b"\n")
        if len(parts) == 1:
            self._pieces.append(chunk)
            return []
        self._pieces.append(parts[0])
        parts[0] = b"".join(self._pieces)
        self._pieces = [parts.pop()]
        return [line for line in parts if line and not line.isspace()]

    def rest(self) -> bytes | None:
        """What is left after the last newline, if it is not blank (a stream may end without one)."""
        rest = b"".join(self._pieces)
        self._pieces = []
        return rest if rest and not rest.isspace() else None

