"""Informers for Nodes, Pods, NodeResourceTopology, ResourceSlices and ResourceClaims over kubernetes-asyncio,
raw JSON only.

Each informer lists (full replace of its part of the cache), then watches from the list's
resourceVersion with bookmarks; on ``410 Gone`` it re-lists at once, and it re-lists anyway every
``relist_s`` (the paper's periodic reconciliation, 60 s). Errors back off exponentially up to 30 s.
Objects are decoded with orjson straight from the response lines and parsed into records once by
``ClusterState``: generated model classes are never built (they cost more than everything else).

Pods are listed with a field selector (bound, not finished), as kube-scheduler's own cache does:
unbound pods never count, and the API sends DELETED when a pod stops matching. ResourceSlices are
listed with ``spec.driver=<driver>`` (a documented field selector), ResourceClaims in all namespaces;
on a server without resource.k8s.io/v1 both wait like a missing CRD (404).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson

from scorer.state import ClusterState
from shared.lines import LineSplitter
from shared.pacing import paced

log = logging.getLogger("scorer.sources.kube")

POD_SELECTOR = "spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed"
NRT_GROUP, NRT_VERSION, NRT_PLURAL = "topology.node.k8s.io", "v1alpha2", "noderesourcetopologies"

ListCall = Callable[..., Awaitable[Any]]  # a generated list_* function; called with _preload_content=False


class Gone(Exception):
    """The watch's resourceVersion is too old (HTTP 410 / ERROR event with code 410): re-list."""


class Absent(Exception):
    """The resource does not exist on this server (404: e.g. the NRT CRD is not installed)."""


@dataclass(frozen=True, slots=True)
class Resource:
    """One watched resource and where its objects go in the cache."""

    name: str
    call: ListCall
    replace: Callable[[list[Mapping[str, Any]]], None]
    upsert: Callable[[Mapping[str, Any]], None]
    delete: Callable[[Mapping[str, Any]], None]
    kwargs: Mapping[str, Any] = field(default_factory=dict)


async def _lines(response: aiohttp.ClientResponse) -> AsyncIterator[bytes]:
    """Newline-delimited watch events, however long a line is (``shared.lines``: linear in the bytes)."""
    splitter = LineSplitter()
    async for chunk in response.content.iter_any():
        async for line in paced(splitter.feed(chunk)):  # a burst in one chunk: /prioritize and probes run
            yield line
    rest = splitter.rest()
    if rest is not None:
        yield rest


class Informer:
    """List + watch one resource into the cache until cancelled."""

    def __init__(self, resource: Resource, relist_s: float = 60.0, watch_timeout_s: int = 290,
                 on_error: Callable[[str], None] | None = None) -> None:
        self.resource = resource
        self.relist_s = relist_s
        self.watch_timeout_s = watch_timeout_s
        self.on_error = on_error or (lambda _: None)
        self.lists = 0  # full lists done (for tests and logs)

    async def _request(self, **kwargs: Any) -> aiohttp.ClientResponse:
        extra = dict(self.resource.kwargs or {})
        extra.update(kwargs)
        response = await self.resource.call(_preload_content=False, **extra)
        if response.status == 404:
            response.release()
            raise Absent(self.resource.name)
        if response.status == 410:
            response.release()
            raise Gone(self.resource.name)
        if response.status != 200:
            text = (await response.read())[:300]
            raise RuntimeError(f"{self.resource.name}: HTTP {response.status}: {text!r}")
        return response

    async def list_once(self) -> str:
        """One full list into the cache; returns its resourceVersion."""
        response = await self._request()
        data = orjson.loads(await response.read())
        self.resource.replace(list(data.get("items") or ()))
        self.lists += 1
        return str((data.get("metadata") or {}).get("resourceVersion", ""))

    async def watch(self, version: str, seconds: float) -> str:
        """Apply watch events for about ``seconds``; returns the last resourceVersion seen. Raises Gone."""
        timeout = max(1, int(seconds))
        response = await self._request(
            watch=True, resource_version=version, allow_watch_bookmarks=True, timeout_seconds=timeout,
            _request_timeout=aiohttp.ClientTimeout(total=None, sock_connect=10, sock_read=timeout + 30))
        try:
            async for line in _lines(response):
                event = orjson.loads(line)
                kind, obj = event.get("type"), event.get("object") or {}
                if kind == "ERROR":
                    if obj.get("code") == 410:
                        raise Gone(self.resource.name)
                    raise RuntimeError(f"{self.resource.name}: watch error {obj.get('message', obj)!r}")
                version = str((obj.get("metadata") or {}).get("resourceVersion", version))
                if kind in ("ADDED", "MODIFIED"):
                    self.resource.upsert(obj)
                elif kind == "DELETED":
                    self.resource.delete(obj)
        finally:
            response.release()
        return version

    async def run(self) -> None:
        """Forever: list, watch until the re-list is due (or 410), repeat; back off on errors."""
        loop = asyncio.get_running_loop()
        failures = 0
        while True:
            try:
                version = await self.list_once()
                failures = 0
                due = loop.time() + self.relist_s
                while (left := due - loop.time()) > 0.5:
                    version = await self.watch(version, min(left, self.watch_timeout_s))
            except asyncio.CancelledError:
                raise
            except Gone:
                log.info("watch expired; re-listing", extra={"resource": self.resource.name})
            except Absent:
                log.info("resource not served; checking again later", extra={"resource": self.resource.name})
                await asyncio.sleep(self.relist_s)
            except Exception as exc:  # network, auth, server errors: keep the cache, retry with backoff
                failures += 1
                delay = min(30.0, 0.5 * 2 ** min(failures, 6)) * random.uniform(0.8, 1.2)
                self.on_error(self.resource.name)
                log.warning("informer error; retrying", extra={"resource": self.resource.name,
                                                               "error": repr(exc)[:300], "retry_in_s": round(delay, 1)})
                await asyncio.sleep(delay)


def informers(api_client: Any, state: ClusterState, relist_s: float,
              on_error: Callable[[str], None] | None = None, dra_driver: str = "gpu.nvidia.com") -> list[Informer]:
    """The informers over one kubernetes-asyncio ApiClient: nodes, pods, NRT, ResourceSlices, ResourceClaims."""
    from kubernetes_asyncio import client

    core = client.CoreV1Api(api_client)
    custom = client.CustomObjectsApi(api_client)
    dra = client.ResourceV1Api(api_client)

    def nrt_call(**kwargs: Any) -> Awaitable[Any]:
        return custom.list_cluster_custom_object(NRT_GROUP, NRT_VERSION, NRT_PLURAL, **kwargs)

    resources = [
        Resource("nodes", core.list_node, state.replace_nodes, state.upsert_node, state.delete_node),
        Resource("pods", core.list_pod_for_all_namespaces, state.replace_pods, state.upsert_pod, state.delete_pod,
                 {"field_selector": POD_SELECTOR}),
        Resource("noderesourcetopologies", nrt_call, state.replace_nrts, state.upsert_nrt, state.delete_nrt),
        Resource("resourceslices", dra.list_resource_slice, state.replace_slices, state.upsert_slice,
                 state.delete_slice, {"field_selector": f"spec.driver={dra_driver}"}),
        Resource("resourceclaims", dra.list_resource_claim_for_all_namespaces, state.replace_claims,
                 state.upsert_claim, state.delete_claim),
    ]
    return [Informer(r, relist_s, on_error=on_error) for r in resources]


async def api_client(kubeconfig: str | None, in_cluster: bool = False) -> Any:
    """A kubernetes-asyncio ApiClient (create it inside the running loop): KUBECONFIG, else in-cluster,
    else ~/.kube/config."""
    from kubernetes_asyncio import client, config

    if kubeconfig:
        return await config.new_client_from_config(config_file=kubeconfig)
    if in_cluster:
        configuration = client.Configuration()
        config.load_incluster_config(client_configuration=configuration)
        return client.ApiClient(configuration=configuration)
    return await config.new_client_from_config()
