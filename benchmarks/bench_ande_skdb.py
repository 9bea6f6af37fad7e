"""AnDE and SKDB: 10-fold cross-validated accuracy beside AODE and KDB.

Run from the repository root (about 2-5 minutes on a busy 2-core machine):

    PYTHONPATH=src python benchmarks/bench_ande_skdb.py

The same ``StratifiedKFold(n_splits=10, shuffle=True, random_state=0)`` folds
for every learner; every learner with its defaults except the named
parameters (MDLP discretisation inside each training fold). Prints the mean
accuracy and the seconds of the ten fits and predictions, and writes
``benchmarks/results/ande_skdb.json``.
"""

from __future__ import annotations

from _common import KDB_DATASETS, commit_hash, cv_rows, machine_info, parser
from sklearn.model_selection import StratifiedKFold

from augnb import KDB, SKDB, AnDE
from augnb.classifiers.aode import AODE

LEARNERS = {
    "AODE": lambda: AODE(),
    "AnDE(n=2)": lambda: AnDE(n=2),
    "KDB(k=2)": lambda: KDB(k=2),
    "SKDB(k=2)": lambda: SKDB(k=2),
    "SKDB(k=5)": lambda: SKDB(k=5),
}


def main() -> None:
    args = parser(__doc__, datasets=list(KDB_DATASETS)).parse_args()
    cv = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    out = {"commit": commit_hash(), "machine": machine_info(), "datasets": {}}
    cv_rows(args.datasets, LEARNERS, cv, out, "ande_skdb.json")


if __name__ == "__main__":
    main()
