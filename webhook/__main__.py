"""``python -m webhook``: read the settings once, load the key, the analyser and TLS, serve."""

from __future__ import annotations

import logging
import os
import sys

from aiohttp import web

from observability.logs import configure_logging
from shared.signing import Signer
from webhook.app import make_app
from webhook.settings import SettingsError, load_settings
from webhook.tls import ReloadingTLS

log = logging.getLogger("webhook")


def main() -> int:
    try:
        settings = load_settings(os.environ)
    except (SettingsError, OSError) as exc:
        print(f"webhook: bad configuration: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    signer = None
    if settings.signing_key_file:
        try:
            signer = Signer.from_file(settings.signing_key_file)
        except (OSError, ValueError) as exc:
            log.error("signing key not loaded", extra={"file": settings.signing_key_file, "error": str(exc)})
    else:
        log.error("SEMAFF_SIGNING_KEY_FILE is not set: no intents can be signed; the replica stays not ready")

    from webhook.analysers import create

    analyser = create(settings.analyser, settings)
    tls = ReloadingTLS(settings.tls_cert_file, settings.tls_key_file) if settings.tls_enabled else None
    if tls is None:
        log.warning("no TLS files configured: serving plain HTTP (the apiserver requires HTTPS)")
    app = make_app(settings, analyser=analyser, signer=signer, tls=tls)
    log.info("webhook starting", extra={"address": settings.listen_address, "port": settings.port,
                                        "analyser": settings.analyser, "tls": tls is not None,
                                        "key_id": signer.key_id if signer else None})
    web.run_app(app, host=settings.listen_address, port=settings.port,
                ssl_context=tls.context if tls else None, access_log=None, print=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
