"""The intent controller: finishes every pod that carries our scheduling gate.

Level-triggered: it lists and watches the *unscheduled* pods (field selector ``spec.nodeName=``,
the set kube-scheduler itself watches; gates and annotations cannot be selected server-side) and
keeps those carrying our gate, so on start-up the list alone finds every pod left gated by a crash,
however the gate got there. For each
gated pod it analyses the hint (single-flight per hint through the intent cache, bounded
concurrency, a per-call timeout and a few retries), then sends ONE JSON Patch that writes the
output annotations and removes only our gate (guarded by a ``test`` on the gate's index and on the
hint the analysis was made for). A conflict re-reads the pod and tries again. No
pod stays gated: after ``ungate_deadline_s`` without a result the pod gets status ``failed``, loses
the gate and schedules neutrally, with a Warning Event.

Warm paths: pods already analysed seed the cache (their signatures must verify with our key), and
the hints in Deployment / StatefulSet / Job pod templates are analysed as soon as the workload
appears, so most of its pods take the cache-hit path at admission and are never gated.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import orjson

from shared.codec import (
    ANALYSIS,
    HINT,
    LEGACY_HINT,
    OUTPUT_KEYS,
    SCHEDULING_GATE,
    STATUS,
    Analysis,
    Status,
)
from shared.pacing import paced
from shared.sanitise import SanitisedHint, sanitise
from shared.signing import Signer
from webhook import events, patch
from webhook.admission import sanitise_cached
from webhook.analysers.base import Analyser, analyse
from webhook.analysers.cache import IntentCache
from webhook.kube import DEPLOYMENTS, JOBS, PODS, STATEFULSETS, KubeError, backoff, list_watch
from webhook.metrics import Metrics
from webhook.results import AnalyserId, Result, failed_result, from_outcome, from_pod_annotations
from webhook.settings import Settings

log = logging.getLogger(__name__)

WORKLOADS = (DEPLOYMENTS, STATEFULSETS, JOBS)
UNSCHEDULED = "spec.nodeName="  # field selector: pods not bound to a node (every gated pod is one)
# after this many 422 answers (the apiserver refuses what we write, not a concurrent change), write a
# minimal "failed" patch carrying the apiserver's reason so the pod is never left gated
MAX_REJECTIONS_BEFORE_FALLBACK = 3
# 409 answers (the pod changed under us) are retried on the re-read pod; after this many, with a backoff
CONFLICTS_BEFORE_BACKOFF = 3
REPORTED_MAX = 10_000  # pods remembered as already reported by Events
# A new leader reports hinted pods created this recently that no webhook call mutated: the ones let
# through while the previous leader died are bound by then, so the unscheduled watch never sees them.
RECENT_MISS_S = 600.0
NOT_APPLIED_NOTE = (
    "the hint was not applied: the pod was admitted without a call to the semantic-affinity webhook "
    "(it was unreachable and failurePolicy Ignore let the pod through, or it was not installed yet), so the "
    "pod schedules without placement intents; delete the pod (its controller recreates it) to apply the hint")


# --- pure decision logic ------------------------------------------------------------------------

def is_gated(pod: Mapping[str, Any]) -> bool:
    """The pod carries our gate and is not being deleted."""
    metadata = pod.get("metadata") or {}
    return patch.gate_index(pod.get("spec"), SCHEDULING_GATE) is not None and not metadata.get("deletionTimestamp")


def hint_source(annotations: Mapping[str, Any] | None) -> tuple[str, str] | None:
    """(annotation key, hint) as ``shared.codec.read_hint`` chooses it: the preferred key wins."""
    for key in (HINT, LEGACY_HINT):
        value = (annotations or {}).get(key)
        if isinstance(value, str) and value.strip():
            return key, value
    return None


def missed_by_admission(pod: Mapping[str, Any], excluded: frozenset[str]) -> bool:
    """A hinted pod with no status of ours, in a namespace the webhook configuration sends: admission missed it."""
    metadata = pod.get("metadata") or {}
    annotations = metadata.get("annotations") or {}
    return (hint_source(annotations) is not None and STATUS not in annotations
            and metadata.get("namespace") not in excluded and not metadata.get("deletionTimestamp"))


def finish_patch(
    pod: Mapping[str, Any], annotations: Mapping[str, str], *, guard: bool = True
) -> list[dict[str, Any]] | None:
    """The one patch that finishes ``pod``: preconditions, output annotations, removal of our gate.

    With ``guard`` the patch applies only to the pod version that was read: the analysis belongs to
    that version's hint, so a hint edited meanwhile makes the apiserver answer 409 and the controller
    re-reads and re-analyses. (Never a JSON-Patch ``test`` on the hint itself: see ``webhook.patch``.)
    None when our gate is no longer there (someone else finished the pod).
    """
    metadata = pod.get("metadata") or {}
    index = patch.gate_index(pod.get("spec"), SCHEDULING_GATE)
    if index is None:
        return None
    existing = metadata.get("annotations")
    ops: list[dict[str, Any]] = []
    version = metadata.get("resourceVersion")
    if guard and isinstance(version, str) and version:
        ops.append(patch.expect_version(version))
    ops += patch.remove_scheduling_gate(index, SCHEDULING_GATE)
    ops += patch.remove_map_entries(existing, ("metadata", "annotations"),
                                    [k for k in OUTPUT_KEYS if k not in annotations])
    ops += patch.set_map_entries(existing, ("metadata", "annotations"), annotations)
    return ops


def status_message(exc: KubeError) -> str:
    """The apiserver's own reason from a refused call (its Status ``message``), cut for an annotation."""
    try:
        body = orjson.loads(exc.body)
        message = body.get("message") if isinstance(body, dict) else None
    except orjson.JSONDecodeError:
        message = None
    return str(message or f"HTTP {exc.status}")[:200]


def event_plan(result: Result, cached: bool) -> list[tuple[str, str, bool]]:
    """(reason, note, warning) for the Events that report ``result`` on the pod."""
    if result.document is None:
        return [(events.FAILED, f"intent analysis failed ({result.error}); scheduling gate removed, "
                                "the pod schedules without placement intents", True)]
    summary = result.annotations.get("semantic-affinity.io/summary", "")
    if result.analysis.reason:  # "no intents: language-not-supported: ..."
        summary = f"{summary}: {result.analysis.reason}"
    source = "cached analysis" if cached else f"{result.analysis.analyser} in {result.analysis.latency_ms:.0f} ms"
    plan = [(events.ANALYZED, f"{summary} [{source}]", False)]
    if result.document.conflicts:
        pairs = ", ".join(f"{a} vs {b}" for a, b in result.document.conflicts)
        plan.append((events.CONFLICT, f"conflicting intents: {pairs}; both kept, the scorer weighs them", True))
    return plan


def parse_time(value: Any) -> float | None:
    """Seconds since the epoch of an RFC 3339 timestamp (``creationTimestamp``), None if absent or bad."""
    moment = events.read_time(value)
    return None if moment is None else moment.timestamp()


def seedable(annotations: Mapping[str, Any] | None, analyser: AnalyserId) -> bool:
    """An analysed pod whose record came from the analyser we run now (else its key is never looked up)."""
    annotations = annotations or {}
    if annotations.get("semantic-affinity.io/status") not in (Status.ANALYZED, Status.NO_INTENT):
        return False
    try:
        analysis = Analysis.from_json(annotations[ANALYSIS])
    except (KeyError, ValueError, TypeError):
        return False
    return (analysis.analyser, analysis.model, analysis.prompt_version) == (
        analyser.name, analyser.model, analyser.prompt_version)


# --- the controller -----------------------------------------------------------------------------

class IntentController:
    """Runs inside the leader's event loop; ``run()`` until cancelled."""

    def __init__(self, kube: Any, analyser: Analyser, signer: Signer, cache: IntentCache[Result],
                 settings: Settings, metrics: Metrics, recorder: events.EventRecorder,
                 clock: Any = time.time, warming: asyncio.Future[None] | None = None) -> None:
        self._kube = kube
        self._analyser = analyser
        self._signer = signer
        self._cache = cache
        self._settings = settings
        self._metrics = metrics
        self._recorder = recorder
        self._clock = clock
        # The analyser's warm-up (a local model loading): analyses wait for it, so a cold start spends the pod's
        # ungate budget, not an analysis deadline meant for a slow backend (the reason would say "timeout").
        self._warming = warming
        self._semaphore = asyncio.Semaphore(settings.analysis_concurrency)
        self._gated: dict[str, dict[str, Any]] = {}  # uid -> latest pod object
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self._reported: OrderedDict[str, None] = OrderedDict()  # pod uids whose Events were emitted
        self.analyser_id = AnalyserId.of(analyser)
        self.running = False
        self.synced = False

    # -- cache access for admission and prefetch
    def lookup(self, hint: SanitisedHint) -> Result | None:
        """The cached result for a sanitised hint (admission's cache-hit path)."""
        return self._cache.get(self.analyser_id.key(hint.sha256))

    def prefetch(self, hint: SanitisedHint) -> None:
        """Start analysing ``hint`` in the background (admission miss, workload template) if not known yet."""
        if not self.running:
            return
        key = self.analyser_id.key(hint.sha256)
        if self._cache.inflight(key) or self._cache.get(key) is not None:
            return
        self._spawn(self._cache.get_or_compute(key, lambda: self._compute(hint)))

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # -- analysis
    async def _compute(self, hint: SanitisedHint) -> Result:
        """One analysis with retries; a failed result is returned (and not cached), never raised."""
        if self._warming is not None and not self._warming.done():
            await asyncio.shield(self._warming)  # shared: one pod's cancellation must not stop the warm-up
        retries = self._settings.analysis_retries
        outcome = None
        for attempt in range(retries + 1):
            async with self._semaphore:
                outcome = await analyse(self._analyser, hint.text, deadline_s=self._settings.analysis_timeout_s,
                                        forged_markup=hint.forged_markup)
            self._metrics.analyser_latency.labels(outcome.analyser).observe(outcome.latency_ms / 1000.0)
            if not outcome.failed:
                return from_outcome(outcome, hint, self._signer)
            reason = (outcome.error or "unknown").split(":", 1)[0][:60]
            self._metrics.analyser_errors.labels(outcome.analyser, reason).inc()
            if "throttl" in reason.lower():
                self._metrics.analyser_throttles.labels(outcome.analyser).inc()
            log.warning("analysis failed", extra={"hint_sha256": hint.sha256, "attempt": attempt + 1,
                                                  "error": outcome.error})
            if attempt < retries:
                await asyncio.sleep(backoff(attempt, base_s=0.5, cap_s=4.0))
        assert outcome is not None
        return from_outcome(outcome, hint, self._signer)

    def _failed(self, hint_sha256: str, error: str) -> Result:
        aid = self.analyser_id
        return failed_result(Analysis(aid.name, aid.model, aid.prompt_version, hint_sha256, error=error))

    async def result_for(self, pod: Mapping[str, Any], deadline: float) -> tuple[Result, bool]:
        """(result, from-cache) for the pod's hint, by ``deadline`` (monotonic) at the latest."""
        source = hint_source((pod.get("metadata") or {}).get("annotations"))
        if source is None:
            return self._failed("", "no-hint: the pod carries our gate but no hint"), False
        hint = sanitise(source[1], self._settings.hint_max_chars)
        key = self.analyser_id.key(hint.sha256)
        cached = self._cache.get(key)
        if cached is not None:
            self._metrics.cache_lookups.labels("controller-hit").inc()
            return cached, True
        self._metrics.cache_lookups.labels("controller-miss").inc()
        remaining = deadline - time.monotonic()
        try:
            async with asyncio.timeout(max(remaining, 0.001)):
                result = await self._cache.get_or_compute(key, lambda: self._compute(hint))
        except TimeoutError:
            result = self._failed(hint.sha256, f"timeout: no result within {self._settings.ungate_deadline_s:g} s")
        self._metrics.cache_entries.set(len(self._cache))
        return result, False

    # -- finishing one pod
    def budget(self, created: float | None) -> float:
        """Seconds left for a pod created at ``created`` (epoch): the ungate deadline counts from creation,
        but a pod found late (no controller ran meanwhile) still gets one analysis call's worth of time."""
        deadline = self._settings.ungate_deadline_s
        if created is None:
            return deadline
        floor = min(deadline, self._settings.analysis_timeout_s)
        return max(created + deadline - self._clock(), floor)

    async def finish(self, pod: dict[str, Any]) -> bool:
        """Analyse and patch one gated pod until it is finished, gone or no longer ours. True if we patched it."""
        metadata = pod["metadata"]
        namespace, name, uid = metadata["namespace"], metadata["name"], metadata.get("uid")
        deadline = time.monotonic() + self.budget(parse_time(metadata.get("creationTimestamp")))
        conflicts = rejections = errors = 0
        refusal = ""
        while True:
            result, cached = await self.result_for(pod, deadline)
            annotations = result.hit_annotations if cached else result.annotations
            guard = True
            if rejections >= MAX_REJECTIONS_BEFORE_FALLBACK:
                # The apiserver refuses what we write (not a concurrent change): never leave the pod gated,
                # and say why in its own words.
                result = self._failed(result.hint_sha256,
                                      f"patch-rejected: the apiserver refused the intents patch ({refusal})")
                annotations, cached = result.annotations, False
                guard = rejections < 2 * MAX_REJECTIONS_BEFORE_FALLBACK
            ops = finish_patch(pod, annotations, guard=guard)
            if ops is None:
                return False
            self._mark_reported(uid)  # before the patch: its watch event must not report the pod again
            try:
                await self._kube.patch_pod(namespace, name, ops)
                break
            except KubeError as exc:
                if exc.status == 404:
                    return False
                if exc.status == 409:  # the pod changed since it was read: re-read it and try again
                    conflicts += 1
                    self._metrics.controller_patches.labels("conflict").inc()
                    if conflicts > CONFLICTS_BEFORE_BACKOFF:
                        await asyncio.sleep(backoff(conflicts - CONFLICTS_BEFORE_BACKOFF, base_s=0.2, cap_s=5.0))
                elif exc.status == 422:
                    rejections += 1
                    refusal = status_message(exc)
                    self._metrics.controller_patches.labels("rejected").inc()
                else:
                    errors += 1
                    self._metrics.controller_patches.labels("error").inc()
                    await asyncio.sleep(backoff(errors, base_s=0.2, cap_s=10.0))
                log.info("patch failed; re-reading the pod", extra={"pod": f"{namespace}/{name}",
                                                                     "status": exc.status, "error": str(exc)[:300]})
            try:
                pod = await self._kube.get_pod(namespace, name)
            except KubeError as exc:
                if exc.status == 404:
                    return False
                await asyncio.sleep(backoff(errors, base_s=0.2, cap_s=10.0))
                continue
            if pod["metadata"].get("uid") != uid or not is_gated(pod):
                return False
        self._metrics.controller_patches.labels("ok").inc()
        status = result.status.value
        created = parse_time(metadata.get("creationTimestamp"))
        if created is not None:
            self._metrics.ungate_latency.labels(status).observe(max(0.0, self._clock() - created))
        log.info("pod finished", extra={"pod": f"{namespace}/{name}", "status": status, "cached": cached,
                                        "error": result.error})
        for reason, note, warning in event_plan(result, cached):
            await self._recorder.emit(pod, reason, note, warning=warning)
        return True

    # -- watch handlers
    def _ensure(self, pod: dict[str, Any]) -> None:
        uid = pod["metadata"].get("uid")
        if not uid or uid in self._tasks:
            return
        task = asyncio.create_task(self._run_finish(uid))
        self._tasks[uid] = task
        task.add_done_callback(lambda _: self._tasks.pop(uid, None))

    async def _run_finish(self, uid: str) -> None:
        """Finish one pod; an unexpected error is logged and the pod tried again while it stays gated."""
        for attempt in itertools.count():
            pod = self._gated.get(uid)
            if pod is None:
                return
            try:
                await self.finish(pod)
                return
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("finishing a pod failed; will retry", extra={"uid": uid})
                await asyncio.sleep(backoff(attempt, base_s=0.5, cap_s=10.0))

    async def _on_list(self, pods: list[dict[str, Any]]) -> None:
        self._gated = {p["metadata"]["uid"]: p for p in pods if is_gated(p) and p["metadata"].get("uid")}
        self._metrics.gated_pods.set(len(self._gated))
        async for pod in paced(pods):  # thousands of pending pods: admission and probes run between them
            self.learn(pod)
            if not is_gated(pod):
                self._report_admitted(pod)
                self._report_missed(pod)
        for pod in list(self._gated.values()):
            self._ensure(pod)
        if not self.synced:
            log.info("controller synced", extra={"gated_pods": len(self._gated)})
        self.synced = True

    async def _on_event(self, kind: str, pod: dict[str, Any]) -> None:
        uid = (pod.get("metadata") or {}).get("uid")
        if not uid:
            return
        if kind == "DELETED" or not is_gated(pod):
            self._gated.pop(uid, None)
            if kind != "DELETED":
                self.learn(pod)
                self._report_admitted(pod)
                self._report_missed(pod)
        else:
            self._gated[uid] = pod
            self._ensure(pod)
        self._metrics.gated_pods.set(len(self._gated))

    # -- Events for pods admission served from the cache
    def _mark_reported(self, uid: str | None) -> None:
        if uid:
            self._reported[uid] = None
            self._reported.move_to_end(uid)
            while len(self._reported) > REPORTED_MAX:
                self._reported.popitem(last=False)

    def _report_admitted(self, pod: Mapping[str, Any]) -> None:
        """IntentAnalyzed (and IntentConflict) for a pod admitted with cached intents: it never waited for us,
        and for a Deployment's pods the admission warnings went to the ReplicaSet controller, not a person."""
        metadata = pod.get("metadata") or {}
        uid = metadata.get("uid")
        annotations = metadata.get("annotations") or {}
        if not uid or uid in self._reported or not seedable(annotations, self.analyser_id):
            return
        try:
            if not Analysis.from_json(annotations[ANALYSIS]).cached:
                return
        except (KeyError, ValueError, TypeError):
            return
        result = from_pod_annotations(annotations, self._signer, self._settings.hint_max_chars)
        if result is None:
            return  # not verifiable with our key: nothing of ours to report
        self._mark_reported(uid)
        self._spawn(self._emit(dict(pod), event_plan(result, cached=True)))

    def _report_missed(self, pod: Mapping[str, Any]) -> bool:
        """HintNotApplied (Warning), a log line and a metric for a hinted pod admission never mutated; True if sent."""
        metadata = pod.get("metadata") or {}
        uid = metadata.get("uid")
        if not uid or uid in self._reported or not missed_by_admission(pod, self._settings.excluded):
            return False
        self._mark_reported(uid)
        self._metrics.hints_not_applied.inc()
        log.warning("hinted pod admitted without the webhook",
                    extra={"pod": f"{metadata.get('namespace')}/{metadata.get('name')}"})
        self._spawn(self._emit(dict(pod), [(events.NOT_APPLIED, NOT_APPLIED_NOTE, True)]))
        return True

    async def _emit(self, pod: dict[str, Any], plan: list[tuple[str, str, bool]]) -> None:
        for reason, note, warning in plan:
            await self._recorder.emit(pod, reason, note, warning=warning)

    # -- warm paths
    def learn(self, pod: Mapping[str, Any]) -> bool:
        """Cache the result an analysed pod carries (signature verified with our key); True if it was new."""
        annotations = (pod.get("metadata") or {}).get("annotations")
        if not seedable(annotations, self.analyser_id):
            return False
        source = hint_source(annotations)
        if source is None:
            return False
        key = self.analyser_id.key(sanitise_cached(source[1], self._settings.hint_max_chars).sha256)
        if self._cache.get(key) is not None:
            return False
        result = from_pod_annotations(annotations, self._signer, self._settings.hint_max_chars)
        if result is None or self.analyser_id.key(result.hint_sha256) != key:
            return False
        self._cache.put(key, result)
        self._metrics.cache_entries.set(len(self._cache))
        return True

    async def seed_cache(self, pods: list[dict[str, Any]] | None = None) -> int:
        """Fill the cache from every pod already analysed with our key; returns how many entries were added."""
        if pods is None:
            pods, _ = await self._kube.list(PODS)
        added = 0
        async for pod in paced(pods):  # thousands of signature checks
            added += self.learn(pod)
        log.info("cache seeded from analysed pods", extra={"entries": added, "pods": len(pods)})
        return added

    def report_recent_misses(self, pods: list[dict[str, Any]]) -> int:
        """Report the hinted pods created in the last ``RECENT_MISS_S`` that admission missed (bound or not)."""
        since = self._clock() - RECENT_MISS_S
        recent = [p for p in pods if (parse_time((p.get("metadata") or {}).get("creationTimestamp")) or 0) >= since]
        return sum(self._report_missed(pod) for pod in recent)

    async def warm(self) -> None:
        """A standby's work: learn from the pods the leader finishes (they stay unscheduled for a moment),
        so admission on this replica takes the cache-hit path too. Runs until cancelled."""

        async def on_list(pods: list[dict[str, Any]]) -> None:
            for pod in pods:
                self.learn(pod)

        async def on_event(kind: str, pod: dict[str, Any]) -> None:
            if kind != "DELETED":
                self.learn(pod)

        if self._settings.seed_cache:
            await self._seed_quietly()
        await list_watch(self._kube, PODS, on_list, on_event, field_selector=UNSCHEDULED,
                         on_restart=lambda reason: self._metrics.watch_restarts.labels("pods-standby", reason).inc())

    def _prefetch_template(self, workload: Mapping[str, Any]) -> None:
        template = ((workload.get("spec") or {}).get("template") or {}).get("metadata") or {}
        source = hint_source(template.get("annotations"))
        if source is not None:
            self.prefetch(sanitise(source[1], self._settings.hint_max_chars))

    async def _workload_list(self, items: list[dict[str, Any]]) -> None:
        async for item in paced(items):
            self._prefetch_template(item)

    async def _workload_event(self, kind: str, item: dict[str, Any]) -> None:
        if kind in ("ADDED", "MODIFIED"):
            self._prefetch_template(item)

    async def _seed_quietly(self) -> None:
        try:
            await self.seed_cache()
        except Exception as exc:  # the cache is an optimisation: never let it stop the controller
            log.warning("cache seeding failed", extra={"error": str(exc)})

    async def _startup_sweep(self) -> None:
        """One list of every pod when this replica becomes leader: seed the cache, report recent misses."""
        try:
            pods, _ = await self._kube.list(PODS)
            if self._settings.seed_cache:
                await self.seed_cache(pods)
            self.report_recent_misses(pods)
        except Exception as exc:  # the cache is an optimisation and the report a courtesy: never stop the controller
            log.warning("start-up sweep failed", extra={"error": str(exc)})

    async def run(self) -> None:
        """List+watch gated pods (and optionally workloads) until cancelled; cancel leaves pods to the next leader."""
        self.running = True

        def restarted(resource: str) -> Any:
            return lambda reason: self._metrics.watch_restarts.labels(resource, reason).inc()

        async def workloads() -> None:
            # Templates are prefetched once the cache is seeded: after a restart nearly every template's
            # hint is already on a signed pod, and re-analysing them all would only compete with gated pods.
            await self._startup_sweep()
            if self._settings.watch_workloads:
                await asyncio.gather(*(list_watch(self._kube, r, self._workload_list, self._workload_event,
                                                  on_restart=restarted(r.kind)) for r in WORKLOADS))

        watches = [list_watch(self._kube, PODS, self._on_list, self._on_event, field_selector=UNSCHEDULED,
                              on_restart=restarted("pods")), workloads()]
        try:
            await asyncio.gather(*watches)
        finally:
            self.running = False
            self.synced = False
            self._metrics.gated_pods.set(0)  # a standby reports nothing it does not watch
            pending = [*self._tasks.values(), *self._background]
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
