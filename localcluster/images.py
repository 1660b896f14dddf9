"""Container images for the local node, built without a Docker engine (debootstrap + umoci), cached.

Three images, each an OCI image-layout tarball under ``<cache>/images`` whose file name carries a hash
of everything it is built from, so a change of its sources rebuilds it and nothing else does:

- ``semantic-affinity:<version>``: the project image. What goes into it is read from the repository's
  Dockerfile (:func:`dockerfile_recipe`: the sources it copies, its user, working directory,
  environment and command), so the Dockerfile stays the one definition for both paths. The root
  filesystem is Debian bookworm minbase (Debian's python3 is 3.11, as in ``python:3.11-slim``); the
  project and its dependencies are installed from wheels built on the host into a venv, since the
  chroot itself never needs the network;
- ``registry.k8s.io/pause``: a static C program (images/pause.c);
- ``registry.k8s.io/kube-scheduler:<version>``: the kube-scheduler built by hack/build-control-plane.sh.

Recipe and measurements: research/real-node.md ("Images without a Docker engine").
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from localcluster.binaries import REPO

CACHE = Path(os.environ.get("SEMAFF_CACHE", Path.home() / ".cache" / "semantic-affinity")) / "images"
HERE = Path(__file__).resolve().parent
PAUSE_SOURCE = HERE / "images" / "pause.c"
PAUSE_REF = "registry.k8s.io/pause:3.10"
PROJECT_REPOSITORY = "semantic-affinity"
SCHEDULER_REPOSITORY = "registry.k8s.io/kube-scheduler"
SUITE = "bookworm"
# python3-venv for the venv the project lives in; ca-certificates for the Bedrock/OpenAI backends.
BASE_PACKAGES = ("python3", "python3-venv", "ca-certificates")
# Documentation and translations: nothing at run time reads them (C.UTF-8 is built into glibc).
SLIM_PATHS = ("usr/share/doc", "usr/share/man", "usr/share/info", "usr/share/locale")
VENV = "/opt/semaff"
NONROOT = 65532


@dataclass(frozen=True, slots=True)
class Recipe:
    """What the Dockerfile puts into the project image (its last stage's runtime settings)."""

    sources: tuple[str, ...]
    user: str
    workdir: str
    env: dict[str, str] = field(default_factory=dict)
    cmd: tuple[str, ...] = ()
    exposed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Image:
    """A built image: its reference (``name:tag``) and the OCI layout tarball holding it."""

    ref: str
    tarball: Path

    @property
    def repository(self) -> str:
        return self.ref.rsplit(":", 1)[0]

    @property
    def tag(self) -> str:
        return self.ref.rsplit(":", 1)[1]


def _instructions(text: str) -> list[tuple[str, str]]:
    """Dockerfile instructions as (KEYWORD, arguments), continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n", " ", "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")))
    out = []
    for line in joined.splitlines():
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            out.append((keyword.upper(), rest.strip()))
    return out


def dockerfile_recipe(path: Path = REPO / "Dockerfile") -> Recipe:
    """Parse the Dockerfile: the build stage's ``COPY`` sources and the final stage's runtime settings."""
    sources: list[str] = []
    user = workdir = ""
    env: dict[str, str] = {}
    cmd: tuple[str, ...] = ()
    exposed: tuple[str, ...] = ()
    stage = -1
    for keyword, args in _instructions(path.read_text()):
        if keyword == "FROM":
            stage += 1
            user, workdir, env = "", "", {}
        elif keyword == "COPY" and not args.startswith("--from"):
            *srcs, _dest = shlex.split(args)
            sources.extend(s.rstrip("/") for s in srcs)
        elif keyword == "USER":
            user = args
        elif keyword == "WORKDIR":
            workdir = args
        elif keyword == "ENV":
            env.update(dict(pair.split("=", 1) for pair in shlex.split(args)))
        elif keyword == "CMD":
            cmd = tuple(json.loads(args))
        elif keyword == "EXPOSE":
            exposed = tuple(args.split())
    if stage < 1 or not sources or not user:
        raise ValueError(f"{path}: expected a build stage with COPY and a final stage with USER")
    return Recipe(tuple(sources), user, workdir, env, cmd, exposed)


def project_version() -> str:
    """The version in pyproject.toml (the chart's appVersion and the image tag)."""
    match = re.search(r'^version\s*=\s*"([^"]+)"', (REPO / "pyproject.toml").read_text(), re.MULTILINE)
    if not match:
        raise ValueError("pyproject.toml has no version")
    return match.group(1)


def _files(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out.extend(p for p in sorted(path.rglob("*")) if p.is_file() and "__pycache__" not in p.parts)
        else:
            out.append(path)
    return out


def source_key(paths: Iterable[Path], *extra: str) -> str:
    """A short hash of the files' relative paths and contents (and ``extra`` strings): the cache key."""
    digest = hashlib.sha256()
    for path in _files(paths):
        rel = path.relative_to(REPO) if path.is_relative_to(REPO) else path
        digest.update(str(rel).encode() + b"\0" + path.read_bytes() + b"\0")
    for item in extra:
        digest.update(item.encode() + b"\0")
    return digest.hexdigest()[:16]


def _run(argv: Sequence[str | Path], **kwargs: object) -> None:
    subprocess.run([str(a) for a in argv], check=True, **kwargs)  # type: ignore[call-overload]


def _log(message: str) -> None:
    print(f"[images] {message}", file=sys.stderr, flush=True)


def _pack(
    rootfs: Path,
    ref: str,
    out: Path,
    *,
    user: str,
    workdir: str,
    env: dict[str, str],
    entrypoint: Sequence[str] = (),
    cmd: Sequence[str] = (),
    exposed: Sequence[str] = (),
) -> Path:
    """One-layer OCI image of ``rootfs`` with the given config, written as a layout tarball to ``out``."""
    tag = ref.rsplit(":", 1)[1]
    with tempfile.TemporaryDirectory(prefix="semaff-oci-", dir=out.parent) as tmp:
        layout = Path(tmp) / "layout"
        _run(["umoci", "init", "--layout", layout])
        _run(["umoci", "new", "--image", f"{layout}:{tag}"])
        # unpack + repack, not `umoci insert`: 0.4.7's insert writes a layer without the tar padding
        # and end-of-archive blocks. As root, ownership and modes are kept as they are in rootfs.
        bundle = Path(tmp) / "bundle"
        _run(["umoci", "unpack", "--image", f"{layout}:{tag}", bundle], stdout=subprocess.DEVNULL)
        _run(["cp", "-a", f"{rootfs}/.", bundle / "rootfs"])
        _run(["umoci", "repack", "--image", f"{layout}:{tag}", bundle], stdout=subprocess.DEVNULL)
        config = [
            "umoci",
            "config",
            "--image",
            f"{layout}:{tag}",
            "--config.user",
            user,
            "--os",
            "linux",
            "--architecture",
            "amd64",
            "--author",
            "semantic-affinity localcluster",
        ]
        if workdir:
            config += ["--config.workingdir", workdir]
        for key, value in env.items():
            config += ["--config.env", f"{key}={value}"]
        for item in entrypoint:
            config += ["--config.entrypoint", item]
        for item in cmd:
            config += ["--config.cmd", item]
        for port in exposed:
            config += ["--config.exposedports", port if "/" in port else f"{port}/tcp"]
        _run(config)
        _run(["umoci", "gc", "--layout", layout])
        partial = out.with_suffix(".partial")
        _run(["tar", "-C", layout, "-cf", partial, "."])
        partial.rename(out)
    return out


def _cached(name: str, key: str) -> Path:
    CACHE.mkdir(parents=True, exist_ok=True)
    return CACHE / f"{name}-{key}.tar"


def pause_image() -> Image:
    """registry.k8s.io/pause from images/pause.c (static, so the image is the binary alone)."""
    out = _cached("pause", source_key([PAUSE_SOURCE], PAUSE_REF))
    if not out.exists():
        began = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="semaff-pause-") as tmp:
            rootfs = Path(tmp) / "rootfs"
            rootfs.mkdir()
            _run(["gcc", "-static", "-Os", "-s", "-o", rootfs / "pause", PAUSE_SOURCE])
            _pack(rootfs, PAUSE_REF, out, user="65535:65535", workdir="/", env={}, entrypoint=["/pause"])
        _log(f"built {PAUSE_REF} in {time.monotonic() - began:.1f}s: {out}")
    return Image(PAUSE_REF, out)


def _passwd_files(etc: Path, uid: int, name: str) -> None:
    etc.mkdir(parents=True, exist_ok=True)
    (etc / "passwd").write_text(f"root:x:0:0:root:/root:/sbin/nologin\n{name}:x:{uid}:{uid}::/tmp:/sbin/nologin\n")
    (etc / "group").write_text(f"root:x:0:\n{name}:x:{uid}:\n")


def scheduler_image(bin_dir: Path, version: str) -> Image:
    """registry.k8s.io/kube-scheduler:<version> from the built static binary, user 65532."""
    binary = bin_dir / "kube-scheduler"
    ref = f"{SCHEDULER_REPOSITORY}:{version}"
    out = _cached("kube-scheduler", source_key([binary], ref))
    if not out.exists():
        began = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="semaff-sched-") as tmp:
            rootfs = Path(tmp) / "rootfs"
            (rootfs / "usr/local/bin").mkdir(parents=True)
            (rootfs / "tmp").mkdir(mode=0o1777)
            shutil.copy2(binary, rootfs / "usr/local/bin/kube-scheduler")
            _passwd_files(rootfs / "etc", NONROOT, "nonroot")
            _pack(
                rootfs,
                ref,
                out,
                user=f"{NONROOT}:{NONROOT}",
                workdir="/",
                env={},
                entrypoint=["/usr/local/bin/kube-scheduler"],
            )
        _log(f"built {ref} in {time.monotonic() - began:.1f}s: {out}")
    return Image(ref, out)


def _debian_mirror() -> str:
    """The host's own Debian mirror (from its apt sources), so debootstrap uses what apt uses."""
    for source in sorted(Path("/etc/apt").glob("sources.list.d/*.sources")):
        stanza = source.read_text()
        uris = re.search(r"^URIs:\s*(\S+)", stanza, re.MULTILINE)
        suites = re.search(r"^Suites:\s*(.+)$", stanza, re.MULTILINE)
        if uris and suites and SUITE in suites.group(1).split() and "security" not in uris.group(1):
            return uris.group(1)
    legacy = Path("/etc/apt/sources.list")
    if legacy.exists():
        for line in legacy.read_text().splitlines():
            parts = line.split()
            if len(parts) >= 3 and parts[0] == "deb" and parts[2] == SUITE:
                return parts[1]
    raise RuntimeError(f"no Debian {SUITE} mirror in /etc/apt: debootstrap needs one")


def base_rootfs() -> Path:
    """Debian bookworm minbase + python3 as a tarball (about 3 min once; reused by every project build)."""
    out = CACHE / f"rootfs-{SUITE}-{source_key([], *BASE_PACKAGES, *SLIM_PATHS)}.tar"
    if out.exists():
        return out
    CACHE.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="semaff-rootfs-", dir=CACHE) as tmp:
        rootfs = Path(tmp) / "rootfs"
        _run(
            [
                "debootstrap",
                "--variant=minbase",
                f"--include={','.join(BASE_PACKAGES)}",
                SUITE,
                rootfs,
                _debian_mirror(),
            ],
            stdout=subprocess.DEVNULL,
        )
        for junk in ("var/cache/apt/archives", "var/lib/apt/lists"):
            for path in (rootfs / junk).glob("*"):
                if path.is_file():
                    path.unlink()
        for slim in SLIM_PATHS:  # what Debian's slim images leave out too (43 MiB here)
            for path in (rootfs / slim).glob("*"):
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                else:
                    path.unlink()
        partial = out.with_suffix(".partial")
        _run(["tar", "-C", rootfs, "--numeric-owner", "-cf", partial, "."])
        partial.rename(out)
    _log(f"built the {SUITE} base root filesystem in {time.monotonic() - began:.1f}s: {out}")
    _remove_others(f"rootfs-{SUITE}-*.tar", out)
    return out


def _stage_sources(recipe: Recipe, into: Path) -> None:
    for source in recipe.sources:
        src = REPO / source
        if src.is_dir():
            shutil.copytree(src, into / source, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, into / source)


def build_wheels(recipe: Recipe, wheelhouse: Path) -> None:
    """Wheels of the project (from exactly the Dockerfile's sources) and of its dependencies, on the host.

    ``--only-binary=:all:`` as in the Dockerfile: every dependency ships manylinux wheels.
    """
    with tempfile.TemporaryDirectory(prefix="semaff-src-") as tmp:
        src = Path(tmp)
        _stage_sources(recipe, src)
        _run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--only-binary=:all:", "--wheel-dir", wheelhouse, src],
            stdout=subprocess.DEVNULL,
        )


def _chroot(rootfs: Path, *argv: str) -> None:
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8"}
    _run(["chroot", rootfs, *argv], env=env, stdout=subprocess.DEVNULL)


def project_image() -> Image:
    """The project image (see the module docstring), rebuilt when any file the Dockerfile copies changes."""
    recipe = dockerfile_recipe()
    version = project_version()
    ref = f"{PROJECT_REPOSITORY}:{version}"
    base = base_rootfs()
    key = source_key([REPO / "Dockerfile", *(REPO / s for s in recipe.sources), Path(__file__)], base.name, ref)
    out = _cached("semantic-affinity", key)
    if out.exists():
        return Image(ref, out)
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="semaff-image-", dir=CACHE) as tmp:
        rootfs = Path(tmp) / "rootfs"
        rootfs.mkdir()
        _run(["tar", "-C", rootfs, "--numeric-owner", "-xf", base])
        wheels = rootfs / "wheels"
        wheels.mkdir()
        build_wheels(recipe, wheels)
        name = PROJECT_REPOSITORY.replace("-", "_")
        _chroot(rootfs, "python3", "-m", "venv", VENV)
        _chroot(
            rootfs,
            f"{VENV}/bin/pip",
            "install",
            "--quiet",
            "--no-index",
            "--no-cache-dir",
            "--find-links",
            "/wheels",
            "--only-binary=:all:",
            name,
        )
        # pip is not needed at run time (the Dockerfile's image has it from its base; nothing uses it).
        _chroot(rootfs, f"{VENV}/bin/python", "-m", "compileall", "-q", VENV)
        uid, _, gid = recipe.user.partition(":")
        _chroot(rootfs, "groupadd", "--gid", gid or uid, "semaff")
        _chroot(
            rootfs,
            "useradd",
            "--uid",
            uid,
            "--gid",
            gid or uid,
            "--home-dir",
            "/tmp",
            "--no-create-home",
            "--shell",
            "/usr/sbin/nologin",
            "semaff",
        )
        shutil.rmtree(wheels)
        for path in (rootfs / "root/.cache", rootfs / "var/log/apt"):
            shutil.rmtree(path, ignore_errors=True)
        env = {"PATH": f"{VENV}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", **recipe.env}
        _pack(
            rootfs, ref, out, user=recipe.user, workdir=recipe.workdir, env=env, cmd=recipe.cmd, exposed=recipe.exposed
        )
    _log(f"built {ref} in {time.monotonic() - began:.1f}s: {out} ({out.stat().st_size / 2**20:.0f} MiB)")
    _remove_others("semantic-affinity-*.tar", out)
    return Image(ref, out)


def _remove_others(pattern: str, keep: Path) -> None:
    """Drop superseded builds of one image from the cache (each is 100+ MiB)."""
    for old in CACHE.glob(pattern):
        if old != keep:
            with contextlib.suppress(OSError):
                old.unlink()


def _blob(layout: tarfile.TarFile, digest: str) -> bytes:
    member = layout.extractfile(f"./blobs/{digest.replace(':', '/')}")
    if member is None:
        raise ValueError(f"blob {digest} missing from the image layout")
    return member.read()


def oci_contents(tarball: Path) -> tuple[dict[str, Any], list[str], int]:
    """An image tarball's config, the paths in its layers, and the layers' unpacked size in bytes."""
    with tarfile.open(tarball) as layout:
        index = json.loads(_blob_index(layout))
        manifest = json.loads(_blob(layout, index["manifests"][0]["digest"]))
        config = json.loads(_blob(layout, manifest["config"]["digest"]))
        paths: list[str] = []
        size = 0
        for layer in manifest["layers"]:
            with tarfile.open(fileobj=io.BytesIO(_blob(layout, layer["digest"])), mode="r:*") as content:
                for member in content:
                    paths.append(member.name.removeprefix("./").lstrip("/"))
                    size += member.size
    return config, paths, size


def _blob_index(layout: tarfile.TarFile) -> bytes:
    member = layout.extractfile("./index.json")
    if member is None:
        raise ValueError("index.json missing from the image layout")
    return member.read()


def all_images(bin_dir: Path, k8s_version: str) -> list[Image]:
    """Every image the local node needs: pause, kube-scheduler and the project image."""
    return [pause_image(), scheduler_image(bin_dir, k8s_version), project_image()]


if __name__ == "__main__":
    from localcluster.binaries import ensure_binaries, k8s_version

    bin_dir = ensure_binaries()
    for image in all_images(bin_dir, k8s_version(bin_dir)):
        unpacked = oci_contents(image.tarball)[2]
        packed = image.tarball.stat().st_size
        print(f"{image.ref}: {packed / 2**20:.1f} MiB tarball, {unpacked / 2**20:.1f} MiB unpacked")
