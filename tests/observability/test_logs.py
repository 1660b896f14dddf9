"""``observability.logs``: one JSON object per line, with the ``extra`` fields and the traceback."""

from __future__ import annotations

import logging
import sys

import orjson

from observability.logs import JsonFormatter


def record(msg: str, **extra: object) -> logging.LogRecord:
    entry = logging.LogRecord("scorer", logging.WARNING, __file__, 1, msg, None, None)
    entry.__dict__.update(extra)
    return entry


def test_one_json_object_with_extra_fields() -> None:
    line = JsonFormatter().format(record("neutral scores", pod="default/web-1", nodes=3))
    assert "\n" not in line
    entry = orjson.loads(line)
    assert entry["level"] == "warning" and entry["logger"] == "scorer" and entry["msg"] == "neutral scores"
    assert entry["pod"] == "default/web-1" and entry["nodes"] == 3
    assert "args" not in entry and "levelno" not in entry  # LogRecord's own attributes stay out


def test_exception_is_kept_and_odd_values_are_strings() -> None:
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        entry = record("scoring failed", node=object())
        entry.exc_info = sys.exc_info()
    parsed = orjson.loads(JsonFormatter().format(entry))
    assert "RuntimeError: boom" in parsed["exc"]
    assert parsed["node"].startswith("<object object")
