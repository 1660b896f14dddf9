"""The API client of the chart's Jobs (cert_job.py, uninstall_job.py): standard library only.

The Jobs run in the project image, which has no kubectl; this file is mounted beside each script
(same ConfigMap), so ``from kube_api import Api`` finds it in the script's directory.
"""

from __future__ import annotations

import json
import os
import ssl
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

SA_DIR = Path("/var/run/secrets/kubernetes.io/serviceaccount")


class Api:
    """The few API calls the chart's Jobs need, over the in-cluster ServiceAccount credentials."""

    def __init__(self, server: str, token: str, context: ssl.SSLContext) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.context = context

    @classmethod
    def in_cluster(cls) -> Api:
        host = os.environ["KUBERNETES_SERVICE_HOST"]
        port = os.environ.get("KUBERNETES_SERVICE_PORT", "443")
        if ":" in host:  # IPv6
            host = f"[{host}]"
        context = ssl.create_default_context(cafile=str(SA_DIR / "ca.crt"))
        return cls(f"https://{host}:{port}", (SA_DIR / "token").read_text().strip(), context)

    def request(self, method: str, path: str, body: object = None, content_type: str = "application/json") -> dict:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.server + path, data=data, method=method)
        if self.token:
            req.add_header("Authorization", f"Bearer {self.token}")
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", content_type)
        with urllib.request.urlopen(req, context=self.context, timeout=30) as resp:
            return json.loads(resp.read() or b"{}")

    def get(self, path: str) -> dict | None:
        try:
            return self.request("GET", path)
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                return None
            raise

    def items(self, path: str) -> list[dict]:
        """Every item of a list, page by page."""
        items: list[dict] = []
        token = ""
        while True:
            query = urllib.parse.urlencode({"limit": 500, **({"continue": token} if token else {})})
            page = self.request("GET", f"{path}?{query}")
            items.extend(page.get("items", []))
            token = page.get("metadata", {}).get("continue", "")
            if not token:
                return items
