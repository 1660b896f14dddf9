"""The Kubernetes API edge: plain-dict calls over kubernetes-asyncio, and a list+watch loop.

Objects stay JSON dicts (camelCase, exactly as on the wire) instead of generated models: what the
controller patches is what it read, and a pod with 256 KiB of annotations is not parsed twice.
``Kube`` is the only class here that does I/O; the controller and the leader elector take any
object with the same methods, so their logic is tested without a cluster and again against a real
kube-apiserver (tests/webhook/test_controller_e2e.py).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import orjson

from shared.lines import LineSplitter
from shared.pacing import paced

log = logging.getLogger(__name__)

WATCH_TIMEOUT_S = 290  # server-side watch timeout; the loop re-watches from the last resourceVersion
PAGE_SIZE = 500


class KubeError(Exception):
    """A non-2xx answer from the apiserver (``status`` 0: no answer at all)."""

    def __init__(self, status: int, reason: str = "", body: bytes = b"") -> None:
        super().__init__(f"HTTP {status}: {reason or body[:300]!r}")
        self.status = status
        self.reason = reason
        self.body = body


@dataclass(frozen=True, slots=True)
class Resource:
    """A listable/watchable collection: ``kind`` names it in logs and metrics."""

    kind: str
    api: str  # attribute of Kube holding the typed API object
    method: str  # list-for-all-namespaces method name


PODS = Resource("pods", "core", "list_pod_for_all_namespaces")
DEPLOYMENTS = Resource("deployments", "apps", "list_deployment_for_all_namespaces")
STATEFULSETS = Resource("statefulsets", "apps", "list_stateful_set_for_all_namespaces")
JOBS = Resource("jobs", "batch", "list_job_for_all_namespaces")


class Kube:
    """Thin async client; create it inside the running event loop (``await Kube.connect(...)``)."""

    def __init__(self, api_client: Any) -> None:
        from kubernetes_asyncio import client

        self.api_client = api_client
        self.core = client.CoreV1Api(api_client)
        self.apps = client.AppsV1Api(api_client)
        self.batch = client.BatchV1Api(api_client)
        self.events = client.EventsV1Api(api_client)
        self.coordination = client.CoordinationV1Api(api_client)

    @classmethod
    async def connect(cls, kubeconfig: str = "") -> Kube:
        """KUBECONFIG when given, else the in-cluster service account, else ~/.kube/config."""
        from kubernetes_asyncio import client, config

        configuration = client.Configuration()
        if kubeconfig:
            await config.load_kube_config(config_file=kubeconfig, client_configuration=configuration)
        else:
            try:
                config.load_incluster_config(client_configuration=configuration)
            except config.ConfigException:
                await config.load_kube_config(client_configuration=configuration)
        return cls(client.ApiClient(configuration))

    async def close(self) -> None:
        await self.api_client.close()

    @staticmethod
    async def _json(call: Awaitable[Any]) -> dict[str, Any]:
        from kubernetes_asyncio.client.exceptions import ApiException

        try:
            response = await call
        except ApiException as exc:  # raised before the body is read (e.g. by the client itself)
            raise KubeError(exc.status or 0, str(exc.reason)) from exc
        except (TimeoutError, OSError, aiohttp.ClientError) as exc:
            raise KubeError(0, f"{type(exc).__name__}: {exc}") from exc
        try:
            body = await response.read()
        except (TimeoutError, OSError, aiohttp.ClientError) as exc:  # connection lost mid-body
            raise KubeError(0, f"{type(exc).__name__}: {exc}") from exc
        finally:
            response.release()
        if not 200 <= response.status < 300:
            raise KubeError(response.status, str(response.reason or ""), body)
        return orjson.loads(body) if body else {}

    # --- pods -------------------------------------------------------------------------------------
    async def get_pod(self, namespace: str, name: str) -> dict[str, Any]:
        return await self._json(self.core.read_namespaced_pod(name, namespace, _preload_content=False))

    async def patch_pod(self, namespace: str, name: str, ops: list[dict[str, Any]]) -> dict[str, Any]:
        """RFC 6902 JSON Patch (a list body is sent as application/json-patch+json)."""
        return await self._json(self.core.patch_namespaced_pod(name, namespace, ops, _preload_content=False))

    async def create_pod(self, namespace: str, pod: dict[str, Any]) -> dict[str, Any]:
        return await self._json(self.core.create_namespaced_pod(namespace, pod, _preload_content=False))

    # --- events and leases ------------------------------------------------------------------------
    async def create_event(self, namespace: str, event: dict[str, Any]) -> dict[str, Any]:
        return await self._json(self.events.create_namespaced_event(namespace, event, _preload_content=False))

    async def get_lease(self, namespace: str, name: str) -> dict[str, Any] | None:
        try:
            return await self._json(self.coordination.read_namespaced_lease(name, namespace, _preload_content=False))
        except KubeError as exc:
            if exc.status == 404:
                return None
            raise

    async def create_lease(self, namespace: str, lease: dict[str, Any]) -> dict[str, Any]:
        return await self._json(self.coordination.create_namespaced_lease(namespace, lease, _preload_content=False))

    async def replace_lease(self, namespace: str, name: str, lease: dict[str, Any]) -> dict[str, Any]:
        """Replace with the lease's resourceVersion: a concurrent writer makes this fail with 409."""
        return await self._json(
            self.coordination.replace_namespaced_lease(name, namespace, lease, _preload_content=False))

    # --- list and watch ---------------------------------------------------------------------------
    async def list(
        self, resource: Resource, label_selector: str = "", field_selector: str = ""
    ) -> tuple[list[dict[str, Any]], str]:
        """Every object (paginated) and the list's resourceVersion."""
        method = getattr(getattr(self, resource.api), resource.method)
        items: list[dict[str, Any]] = []
        token = None
        while True:
            kwargs: dict[str, Any] = {"limit": PAGE_SIZE, "_preload_content": False}
            if label_selector:
                kwargs["label_selector"] = label_selector
            if field_selector:
                kwargs["field_selector"] = field_selector
            if token:
                kwargs["_continue"] = token
            page = await self._json(method(**kwargs))
            items += page.get("items") or []
            token = (page.get("metadata") or {}).get("continue")
            if not token:
                return items, str((page.get("metadata") or {}).get("resourceVersion") or "")

    async def watch(
        self, resource: Resource, resource_version: str, label_selector: str = "", field_selector: str = ""
    ) -> AsyncIterator[tuple[str, dict[str, Any]]]:
        """(type, object) events from ``resource_version`` until the server ends the stream.

        Lines are split by hand (``shared.lines``): a pod with large annotations exceeds aiohttp's readline
        limit, and a burst of events arrives as one chunk.
        """
        method = getattr(getattr(self, resource.api), resource.method)
        kwargs: dict[str, Any] = {
            "watch": True, "resource_version": resource_version, "allow_watch_bookmarks": True,
            "timeout_seconds": WATCH_TIMEOUT_S, "_preload_content": False,
            "_request_timeout": (10, WATCH_TIMEOUT_S + 30),
        }
        if label_selector:
            kwargs["label_selector"] = label_selector
        if field_selector:
            kwargs["field_selector"] = field_selector
        try:
            response = await method(**kwargs)
        except (TimeoutError, OSError, aiohttp.ClientError) as exc:
            raise KubeError(0, f"{type(exc).__name__}: {exc}") from exc
        try:
            if response.status != 200:
                raise KubeError(response.status, str(response.reason or ""), await response.read())
            splitter = LineSplitter()
            async for chunk in response.content.iter_any():
                async for line in paced(splitter.feed(chunk)):  # a burst in one chunk: admission and probes run
                    event = orjson.loads(line)
                    yield str(event.get("type")), event.get("object") or {}
            rest = splitter.rest()
            if rest is not None:
                event = orjson.loads(rest)
                yield str(event.get("type")), event.get("object") or {}
        finally:
            response.release()


def backoff(attempt: int, base_s: float = 0.5, cap_s: float = 30.0) -> float:
    """Exponential backoff with jitter: attempt 0 waits about ``base_s``."""
    return min(cap_s, base_s * 2**attempt) * random.uniform(0.5, 1.0)


class Gone(Exception):
    """The watch's resourceVersion is too old (410): list again."""


async def list_watch(
    kube: Any,
    resource: Resource,
    on_list: Callable[[list[dict[str, Any]]], Awaitable[None]],
    on_event: Callable[[str, dict[str, Any]], Awaitable[None]],
    label_selector: str = "",
    field_selector: str = "",
    on_restart: Callable[[str], None] = lambda _: None,
) -> None:
    """Level-triggered list+watch until cancelled: list (``on_list`` gets the whole state), then watch from
    the list's resourceVersion; bookmarks advance it; 410 Gone re-lists; errors back off and re-list.
    """
    failures = 0
    while True:
        try:
            items, version = await kube.list(resource, label_selector, field_selector)
            await on_list(items)
            failures = 0
            while True:
                async for kind, obj in kube.watch(resource, version, label_selector, field_selector):
                    if kind == "ERROR":
                        if obj.get("code") == 410:
                            raise Gone()
                        raise KubeError(int(obj.get("code") or 0), str(obj.get("message") or ""))
                    version = str((obj.get("metadata") or {}).get("resourceVersion") or version)
                    if kind != "BOOKMARK":
                        await on_event(kind, obj)
        except asyncio.CancelledError:
            raise
        except Gone:
            on_restart("gone")
            log.info("watch expired; listing again", extra={"resource": resource.kind})
        except KubeError as exc:
            if exc.status == 410:
                on_restart("gone")
                continue
            on_restart("error")
            failures += 1
            delay = backoff(failures)
            log.warning("watch failed; retrying", extra={"resource": resource.kind, "error": str(exc),
                                                         "retry_in_s": round(delay, 2)})
            await asyncio.sleep(delay)
        except Exception as exc:  # a handler bug must not end the controller
            on_restart("error")
            failures += 1
            log.exception("watch loop failed; retrying", extra={"resource": resource.kind, "error": str(exc)})
            await asyncio.sleep(backoff(failures))
