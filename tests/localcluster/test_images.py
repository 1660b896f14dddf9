"""localcluster.images: the Dockerfile is the one definition of the project image; cache keys follow sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from localcluster import images
from localcluster.binaries import REPO

DOCKERFILE = """\
# comment
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY shared ./shared
RUN pip install . \\
 && python -m compileall -q /install

FROM python:3.11-slim
COPY --from=build /install /usr/local
ENV A=1 \\
    HOME=/tmp
USER 65532:65532
WORKDIR /tmp
EXPOSE 8443 8888
CMD ["python", "-m", "webhook"]
"""


def test_recipe_reads_sources_from_the_build_stage_and_settings_from_the_last(tmp_path: Path) -> None:
    path = tmp_path / "Dockerfile"
    path.write_text(DOCKERFILE)
    recipe = images.dockerfile_recipe(path)
    assert recipe.sources == ("pyproject.toml", "README.md", "shared")
    assert recipe.user == "65532:65532"
    assert recipe.workdir == "/tmp"  # the build stage's /src is not the runtime's
    assert recipe.env == {"A": "1", "HOME": "/tmp"}
    assert recipe.cmd == ("python", "-m", "webhook")
    assert recipe.exposed == ("8443", "8888")


def test_recipe_without_a_final_user_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "Dockerfile"
    path.write_text(DOCKERFILE.replace("USER 65532:65532\n", ""))
    with pytest.raises(ValueError, match="USER"):
        images.dockerfile_recipe(path)


def test_the_repository_dockerfile_copies_every_package_the_chart_runs() -> None:
    recipe = images.dockerfile_recipe()
    # The chart runs python -m webhook, -m scorer and the certificate Job (certs); pyproject builds them.
    assert {"pyproject.toml", "shared", "webhook", "scorer", "certs"} <= set(recipe.sources)
    assert all((REPO / s).exists() for s in recipe.sources)
    assert recipe.user.split(":")[0] == str(images.NONROOT)


def test_source_key_changes_with_content_and_name(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    a = tmp_path / "d" / "a.py"
    a.write_text("x = 1\n")
    first = images.source_key([tmp_path / "d"], "ref:1")
    assert images.source_key([tmp_path / "d"], "ref:1") == first
    a.write_text("x = 2\n")
    assert images.source_key([tmp_path / "d"], "ref:1") != first
    assert images.source_key([tmp_path / "d"], "ref:2") != images.source_key([tmp_path / "d"], "ref:1")


def test_compiled_bytecode_does_not_change_the_key(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text("y = 1\n")
    before = images.source_key([tmp_path / "pkg"])
    (tmp_path / "pkg" / "__pycache__").mkdir()
    (tmp_path / "pkg" / "__pycache__" / "m.cpython-311.pyc").write_bytes(b"\0")
    assert images.source_key([tmp_path / "pkg"]) == before
