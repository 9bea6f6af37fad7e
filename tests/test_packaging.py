"""The declared dependency versions: the lowest ones are the ones CI tests."""

from __future__ import annotations

from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: tomli, in the dev extra
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"
    ]


def _declared() -> list[Requirement]:
    project = _project()
    extras = project["optional-dependencies"]
    # What a user installs: the package and its plot and dask extras.
    lines = [*project["dependencies"], *extras["plot"], *extras["dask"]]
    return [Requirement(line) for line in lines]


def _pinned() -> dict[str, Version]:
    pins = {}
    for line in (ROOT / ".ci" / "minimum-versions.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = Version(version)
    return pins


def test_every_lower_bound_is_pinned_for_the_minimum_versions_run():
    pinned = _pinned()
    for req in _declared():
        lower = [Version(s.version) for s in req.specifier if s.operator == ">="]
        assert len(lower) == 1, f"{req}: one lower bound (>=) expected"
        name = canonicalize_name(req.name)
        assert pinned.get(name) == lower[0], (
            f"{req}: .ci/minimum-versions.txt pins {pinned.get(name)}"
        )


def test_the_minimum_versions_pin_nothing_undeclared():
    declared = {canonicalize_name(r.name) for r in _declared()}
    pinned = _pinned()
    # dask[distributed] brings distributed, released with dask.
    assert pinned.pop("distributed") == pinned["dask"]
    assert set(pinned) == declared


def test_the_required_pyarrow_runs_no_code_from_a_file():
    # pyarrow up to 14.0.0 unpickles a Parquet or Feather file's extension
    # type (CVE-2023-47248): reading a table must never run code from it.
    project = _project()
    lines = [
        *project["dependencies"],
        *(r for deps in project["optional-dependencies"].values() for r in deps),
    ]
    pins = [Requirement(r) for r in lines if r.startswith("pyarrow")]
    assert pins
    for req in pins:
        lower = [Version(s.version) for s in req.specifier if s.operator == ">="]
        assert lower and min(lower) >= Version("14.0.1"), req
        assert not req.specifier.contains("14.0.0"), req
