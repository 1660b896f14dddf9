"""Server TLS from certificate and key files, reloaded when the files change (no restart).

The listening socket keeps one ``SSLContext``; loading a new chain into it makes every later
handshake use the new certificate (OpenSSL replaces the context's certificate and key), while
established connections finish on the old one. The files are polled (cert-manager and kubelet
secret volumes replace them by symlink swap, which inotify-on-file misses); a half-written pair
that does not load is ignored until the next poll.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import ssl
from pathlib import Path

log = logging.getLogger(__name__)


def _fingerprint(cert_file: str, key_file: str) -> str:
    digest = hashlib.sha256()
    for path in (cert_file, key_file):
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


class ReloadingTLS:
    """An SSLContext plus ``watch()``, a task that reloads it when the files' contents change."""

    def __init__(self, cert_file: str, key_file: str, poll_s: float = 5.0) -> None:
        self.cert_file = cert_file
        self.key_file = key_file
        self.poll_s = poll_s
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.minimum_version = ssl.TLSVersion.TLSv1_2
        self.context.load_cert_chain(cert_file, key_file)
        self._fingerprint = _fingerprint(cert_file, key_file)
        self.reloads = 0

    def reload_if_changed(self) -> bool:
        """Load the files again if their contents changed; True when a new pair is in use."""
        try:
            fingerprint = _fingerprint(self.cert_file, self.key_file)
            if fingerprint == self._fingerprint:
                return False
            self.context.load_cert_chain(self.cert_file, self.key_file)
        except (OSError, ssl.SSLError) as exc:
            log.warning("TLS files not reloaded (will retry)", extra={"error": str(exc)})
            return False
        self._fingerprint = fingerprint
        self.reloads += 1
        log.info("TLS certificate reloaded", extra={"cert_file": self.cert_file})
        return True

    async def watch(self) -> None:
        while True:
            await asyncio.sleep(self.poll_s)
            self.reload_if_changed()
