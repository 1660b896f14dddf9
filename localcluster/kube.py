"""A small synchronous Kubernetes REST client for tests (stdlib only).

Tests and the harness speak plain JSON to the API server, exactly the wire format kubectl uses,
so what a test sends is what a user's manifest becomes. One ``Kube`` keeps one keep-alive HTTPS
connection; use one per thread.
"""

from __future__ import annotations

import http.client
import json
import ssl
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

JSON = "application/json"
MERGE_PATCH = "application/merge-patch+json"
JSON_PATCH = "application/json-patch+json"
STRATEGIC_PATCH = "application/strategic-merge-patch+json"


class ApiError(RuntimeError):
    """A non-2xx answer; ``status`` is the HTTP code, ``body`` the decoded Status object."""

    def __init__(self, method: str, path: str, status: int, body: Any) -> None:
        message = body.get("message") if isinstance(body, dict) else body
        super().__init__(f"{method} {path}: {status} {message}")
        self.status = status
        self.body = body


class Kube:
    """``server`` is ``https://127.0.0.1:PORT``; identity is a client certificate."""

    def __init__(
        self, server: str, ca_file: str | Path, cert_file: str | Path, key_file: str | Path, timeout: float = 30
    ):
        url = urllib.parse.urlsplit(server)
        self.host, self.port = url.hostname or "127.0.0.1", url.port or 443
        self.timeout = timeout
        self._ssl = ssl.create_default_context(cafile=str(ca_file))
        self._ssl.load_cert_chain(str(cert_file), str(key_file))
        self._conn: http.client.HTTPSConnection | None = None

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        params: Mapping[str, Any] | None = None,
        content_type: str = JSON,
    ) -> Any:
        """One API call; returns the decoded JSON body, raises ApiError on a non-2xx status."""
        if params:
            path = f"{path}?{urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})}"
        data = None if body is None else json.dumps(body).encode()
        headers = {"Accept": JSON}
        if data is not None:
            headers["Content-Type"] = content_type
        for attempt in (1, 2):  # one retry when a kept-alive connection was closed by the server
            if self._conn is None:
                self._conn = http.client.HTTPSConnection(self.host, self.port, context=self._ssl, timeout=self.timeout)
            try:
                self._conn.request(method, path, body=data, headers=headers)
                response = self._conn.getresponse()
                raw = response.read()
                break
            except (http.client.HTTPException, ConnectionError, OSError):
                self.close()
                if attempt == 2:
                    raise
        decoded: Any = json.loads(raw) if raw and raw[:1] in b"{[" else raw.decode(errors="replace")
        if response.status >= 300:
            raise ApiError(method, path, response.status, decoded)
        return decoded

    # -- conveniences -----------------------------------------------------------------------

    def get(self, path: str, **params: Any) -> Any:
        return self.request("GET", path, params=params)

    def create(self, path: str, body: Any, **params: Any) -> Any:
        return self.request("POST", path, body, params=params)

    def patch(self, path: str, body: Any, content_type: str = MERGE_PATCH) -> Any:
        return self.request("PATCH", path, body, content_type=content_type)

    def delete(self, path: str, missing_ok: bool = True, **params: Any) -> Any:
        try:
            return self.request("DELETE", path, params=params)
        except ApiError as exc:
            if missing_ok and exc.status == 404:
                return None
            raise

    def items(self, path: str, **params: Any) -> list[dict[str, Any]]:
        return list(self.get(path, **params).get("items") or [])

    def watch(self, path: str, timeout: float = 600, **params: Any) -> Iterator[dict[str, Any]]:
        """Watch events (``{"type": ..., "object": ...}``) on their own connection until closed."""
        query = urllib.parse.urlencode({"watch": "1", **{k: v for k, v in params.items() if v is not None}})
        conn = http.client.HTTPSConnection(self.host, self.port, context=self._ssl, timeout=timeout)
        try:
            conn.request("GET", f"{path}?{query}", headers={"Accept": JSON})
            response = conn.getresponse()
            if response.status >= 300:
                raise ApiError("WATCH", path, response.status, response.read().decode(errors="replace"))
            for line in response:
                if line.strip():
                    yield json.loads(line)
        finally:
            conn.close()


def wait_for(what: str, check: Callable[[], T | None], timeout: float, interval: float = 0.25) -> T:
    """Poll ``check`` until it returns something truthy; raise TimeoutError naming ``what`` otherwise.

    Exceptions from ``check`` count as "not yet" (a server still starting), the last one is reported.
    """
    deadline = time.monotonic() + timeout
    last: BaseException | None = None
    while True:
        try:
            value = check()
            if value:
                return value
        except Exception as exc:  # a component still coming up answers with errors
            last = exc
        if time.monotonic() >= deadline:
            raise TimeoutError(
                f"timed out after {timeout:.0f}s waiting for {what}" + (f" (last error: {last})" if last else "")
            )
        time.sleep(interval)
