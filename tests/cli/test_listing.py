"""The listing commands answer from static tables, without the heavy imports.

``augnb estimators`` reads the estimators from the source and ``augnb suites``
prints a copy of the suites' facts (augnb.cli._listing); these tests fail
when either disagrees with the registry or the suites, and when a quick
command starts importing NumPy, pandas, scikit-learn or Numba again.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from augnb.classifiers.registry import (
    describe_estimators,
    estimators,
    not_available_names,
)
from augnb.cli._listing import NOT_AVAILABLE, SUITES, SuiteRow, estimator_rows
from augnb.evaluation.suites import get_suite, list_suites

HEAVY = ("numpy", "pandas", "scipy", "sklearn", "numba", "pyarrow", "networkx")


def test_estimator_rows_match_the_registry():
    assert estimator_rows() == describe_estimators()


def test_every_estimator_declares_its_summary():
    # The source reader finds an estimator by the _summary in its class body.
    for name, cls in estimators().items():
        assert vars(cls).get("_summary"), name


def test_not_available_names_match_the_registry():
    assert NOT_AVAILABLE == not_available_names()


def test_suite_table_matches_the_suites():
    real = []
    for name in list_suites():
        suite = get_suite(name)
        real.append(
            SuiteRow(
                name=name,
                title=suite.title,
                n_bundled=len(suite.bundled),
                n_datasets=len(suite.datasets),
                estimators=tuple(suite.estimators),
                n_repeats=suite.n_repeats,
                n_splits=suite.n_splits,
                protocol=suite.protocol,
            )
        )
    assert list(SUITES) == real


def _loaded_by(code: str) -> list[str]:
    # A fresh interpreter: this test process has imported everything already.
    dump = "import json, sys; print(json.dumps(sorted(sys.modules)), file=sys.stderr)"
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\n{dump}"],
        capture_output=True,
        text=True,
        check=True,
    )
    modules = json.loads(done.stderr.strip().splitlines()[-1])
    return sorted({m.split(".")[0] for m in modules} & set(HEAVY))


def test_import_augnb_loads_no_heavy_module():
    assert _loaded_by("import augnb") == []


@pytest.mark.parametrize(
    "argv", [["--version"], ["--help"], ["estimators"], ["datasets"], ["suites"]]
)
def test_quick_commands_load_no_heavy_module(argv):
    code = (
        "from augnb.cli import main\n"
        f"status = main({argv!r})\n"
        "assert status == 0, status"
    )
    assert _loaded_by(code) == []


# A fresh interpreter that imports the whole package, with the slow tests:
# test_architecture.py's test_lazy_exports_resolve loads every export in the
# default run.
@pytest.mark.slow
def test_an_export_is_loaded_when_used():
    code = "import augnb\nassert augnb.NaiveBayes.__name__ == 'NaiveBayes'"
    assert "numba" in _loaded_by(code)
