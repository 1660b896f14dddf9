"""The daemonless project image holds what the Dockerfile describes (node tier: builds the image, cached).

The Dockerfile installs the wheel pip builds from the sources it copies; the daemonless path
(localcluster.images) reads those sources from the Dockerfile and installs the same wheel into a
venv. Compared here: every file of the project's own distribution, every runtime dependency, and
the image config (user, working directory, environment, command).
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from localcluster import images

pytestmark = [pytest.mark.e2e, pytest.mark.node]

SITE = f"{images.VENV.lstrip('/')}/lib/python3.11/site-packages"


def _name(requirement: str) -> str:
    return re.split(r"[\s;<>=!~\[(]", requirement, maxsplit=1)[0].lower().replace("-", "_").replace(".", "_")


@pytest.fixture(scope="module")
def built() -> tuple[dict, list[str]]:
    config, paths, _ = images.oci_contents(images.project_image().tarball)
    return config, paths


def test_the_image_holds_the_wheel_the_dockerfile_would_install(built, tmp_path: Path) -> None:
    _, paths = built
    images.build_wheels(images.dockerfile_recipe(), tmp_path)
    (wheel,) = tmp_path.glob("semantic_affinity-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        expected = {n for n in archive.namelist() if ".dist-info/" not in n}
        metadata = archive.read(next(n for n in archive.namelist() if n.endswith("METADATA"))).decode()
    requires = [
        line.split(":", 1)[1].strip()
        for line in metadata.splitlines()
        if line.startswith("Requires-Dist:") and "extra ==" not in line
    ]
    installed = {p.removeprefix(SITE + "/") for p in paths if p.startswith(SITE + "/")}
    assert expected, "the wheel holds no files"
    missing = sorted(expected - installed)
    assert not missing, f"files of the wheel not in the image: {missing[:10]}"
    # Only the Dockerfile's sources: nothing of the repository that it does not copy.
    ours = {p.split("/")[0] for p in installed if not p.split("/")[0].endswith((".dist-info", ".pth"))}
    assert {"shared", "webhook", "scorer", "certs"} <= ours
    assert "localcluster" not in ours and "tests" not in ours
    dists = {_name(p.split("/")[0].split("-")[0]) for p in installed if p.split("/")[0].endswith(".dist-info")}
    assert requires, "the wheel declares no dependencies"
    absent = sorted(r for r in requires if _name(r) not in dists)
    assert not absent, f"runtime dependencies not installed in the image: {absent}"


def test_the_image_config_is_the_dockerfiles(built) -> None:
    config, paths = built
    recipe = images.dockerfile_recipe()
    runtime = config["config"]
    assert runtime["User"] == recipe.user
    assert runtime["WorkingDir"] == recipe.workdir
    assert runtime["Cmd"] == list(recipe.cmd)
    env = dict(item.split("=", 1) for item in runtime["Env"])
    assert {k: env.get(k) for k in recipe.env} == recipe.env
    assert env["PATH"].split(":")[0] == f"{images.VENV}/bin"  # `python` is the venv's, as the chart runs it
    assert set(runtime.get("ExposedPorts", {})) == {f"{p}/tcp" for p in recipe.exposed}
    uid = recipe.user.split(":")[0]
    assert "etc/passwd" in paths
    # Bytecode compiled at build time: the root filesystem is read-only at run time.
    assert any(p.startswith(f"{SITE}/webhook/__pycache__/") for p in paths)
    assert uid == str(images.NONROOT)
