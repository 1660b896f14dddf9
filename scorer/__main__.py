"""``python -m scorer``: the kube-scheduler extender, configured by SEMAFF_* variables (scorer/README.md)."""

from __future__ import annotations

import logging
import os
import sys

from aiohttp import web

from scorer.app import make_app
from scorer.settings import Settings, SettingsError
from shared.service import configure_logging


def main() -> int:
    try:
        settings = Settings.from_env(os.environ)
    except SettingsError as exc:
        print(f"scorer: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    logging.getLogger("scorer").info("starting", extra={
        "port": settings.port, "mode": settings.scoring_mode.value, "prometheus": bool(settings.prometheus_url),
        "filter": settings.filter_enabled})
    web.run_app(make_app(settings), host=settings.listen_address, port=settings.port, print=None,
                access_log=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
