"""Model files over and under ``load_model``'s size limit: the Saving page's examples.

Run from the repository root (about three minutes; the kDB example holds
about 8 GB in memory while it is saved):

    PYTHONPATH=src python benchmarks/model_file_sizes.py

Fits, saves and measures two models of random codes (2 classes, uniform
codes, ``--rows`` rows):

* ``AnDE(n=2)`` on ``--ande-features`` features of three values;
* ``KDB(k=3)`` fitted with ``partial_fit`` on eight features of
  ``--kdb-values`` values, which keeps the counts of every subset of up to
  four features (and the class).

For each: the archive's members, the bytes of its arrays and of its JSON
document, what ``load_model`` counts against its limit (the arrays plus
ten times the document) and the file's size. For the kDB the bytes of the
count tables that ``partial_fit`` keeps are also computed from their shapes
(every subset of ``s <= 4`` features: ``classes x values**s`` float64
cells), beside the bytes of the fitted model's tables (counts and log
probabilities of each feature given its parents, by observed parent
configuration), to account for the measured arrays. Writes
``benchmarks/results/model_file_sizes.json`` atomically.
"""

from __future__ import annotations

import os
import tempfile
import time
import zipfile
from math import comb

import numpy as np
import pandas as pd
from _common import machine_info, parser, save, write_json

from augnb import KDB, AnDE, save_model
from augnb._model_io import _DOCUMENT, _DOCUMENT_WEIGHT, MAX_MODEL_BYTES

GIB = 2**30


def codes(rows, features, values, seed=0):
    """Uniform random codes as a frame of categories, and two classes."""
    rng = np.random.default_rng(seed)
    levels = pd.CategoricalDtype(list(range(values)))
    X = pd.DataFrame(
        rng.integers(0, values, (rows, features)),
        columns=[f"x{j}" for j in range(features)],
    ).astype(levels)
    return X, rng.integers(0, 2, rows)


def measure(model, folder):
    """Save ``model`` and read its archive's directory."""
    path = os.path.join(folder, "model.augnb")
    t0 = time.perf_counter()
    save_model(model, path)
    seconds = time.perf_counter() - t0
    with zipfile.ZipFile(path) as archive:
        infos = archive.infolist()
        document = archive.getinfo(_DOCUMENT).file_size
    arrays = sum(info.file_size for info in infos) - document
    row = {
        "members": len(infos),
        "array_bytes": arrays,
        "document_bytes": document,
        "load_bytes": arrays + _DOCUMENT_WEIGHT * document,
        "file_bytes": os.path.getsize(path),
        "save_seconds": seconds,
    }
    os.remove(path)
    row["load_GiB"] = row["load_bytes"] / GIB
    row["over_default_limit"] = row["load_bytes"] > MAX_MODEL_BYTES
    return row


def subset_count_bytes(features, values, k, classes):
    """Bytes of a partial_fit kDB's float64 count tables, from their shapes.

    Every subset of ``1..k+1`` features keeps ``classes x values**s`` cells.
    """
    return 8 * classes * sum(comb(features, s) * values**s for s in range(1, k + 2))


def main() -> None:
    ap = parser(__doc__, rows=2000, out="model_file_sizes.json")
    ap.add_argument("--ande-features", type=int, default=100)
    ap.add_argument("--kdb-values", type=int, default=50)
    args = ap.parse_args()
    out = {"machine": machine_info(), "args": vars(args)}
    with tempfile.TemporaryDirectory() as folder:
        X, y = codes(args.rows, args.ande_features, 3)
        t0 = time.perf_counter()
        model = AnDE(n=2).fit(X, y)
        row = {"fit_seconds": time.perf_counter() - t0, **measure(model, folder)}
        del model
        out["ande"] = row
        write_json(out, args.out)
        print(f"AnDE(n=2), {args.ande_features} features of 3 values: {row}")

        X, y = codes(args.rows, 8, args.kdb_values)
        t0 = time.perf_counter()
        model = KDB(k=3).partial_fit(X, y, classes=[0, 1])
        row = {"fit_seconds": time.perf_counter() - t0, **measure(model, folder)}
        subsets = subset_count_bytes(8, args.kdb_values, 3, 2)
        cpds = sum(c.counts.nbytes + c.log_prob.nbytes for c in model.model_.cpds)
        del model
        row.update(
            subset_count_bytes=subsets,
            subset_count_GiB=subsets / GIB,
            model_table_bytes=cpds,
            other_array_bytes=row["array_bytes"] - subsets - cpds,
        )
        out["kdb"] = row
        print(f"KDB(k=3) partial_fit, 8 features of {args.kdb_values} values: {row}")
    save(out, args.out)


if __name__ == "__main__":
    main()
