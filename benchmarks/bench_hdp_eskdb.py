"""HDP smoothing and ESKDB: cross-validated accuracy beside Lidstone and RF.

Run from the repository root (20-40 minutes on a busy 2-core machine):

    PYTHONPATH=src python benchmarks/bench_hdp_eskdb.py

The same ``StratifiedKFold(n_splits=10, shuffle=True, random_state=0)`` folds
for every learner (``--folds 5 --repeats 2`` runs 5x2 CV instead). augnb
learners discretise numeric columns with MDLP inside each training fold;
scikit-learn's ``RandomForestClassifier(n_estimators=500)`` gets ordinal
codes of the categorical columns (missing values as NaN) and the numeric
columns as they are. Prints the mean accuracy and the seconds of all fits
and predictions of each learner, and writes
``benchmarks/results/hdp_eskdb.json`` (atomically, after every data set).
"""

from __future__ import annotations

import warnings

from _common import (
    KDB_DATASETS,
    commit_hash,
    cv_rows,
    machine_info,
    parser,
    random_forest,
)
from sklearn.model_selection import RepeatedStratifiedKFold

from augnb import ESKDB, KDB, SKDB

DATASETS = (*KDB_DATASETS, "primary_tumor", "promoters")


LEARNERS = {
    "KDB(k=2)": lambda: KDB(k=2),
    "KDB(k=2,hdp)": lambda: KDB(k=2, smoothing="hdp", random_state=0),
    "SKDB(k=5)": lambda: SKDB(k=5),
    "SKDB(k=5,hdp)": lambda: SKDB(k=5, smoothing="hdp", random_state=0),
    "ESKDB": lambda: ESKDB(random_state=0),
    "RF(500)": random_forest,
}


def main() -> None:
    ap = parser(__doc__, datasets=list(DATASETS), out="hdp_eskdb.json")
    ap.add_argument("--learners", nargs="+", default=list(LEARNERS))
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    cv = RepeatedStratifiedKFold(
        n_splits=args.folds, n_repeats=args.repeats, random_state=0
    )
    out = {
        "commit": commit_hash(),
        "machine": machine_info(),
        "cv": f"{args.repeats}x{args.folds}-fold stratified, random_state=0",
        "datasets": {},
    }
    learners = {label: LEARNERS[label] for label in args.learners}
    cv_rows(args.datasets, learners, cv, out, args.out)


if __name__ == "__main__":
    main()
