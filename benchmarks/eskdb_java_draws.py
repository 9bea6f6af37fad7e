"""augnb's ESKDB with the random numbers of the authors' Java code, same folds.

Run: python benchmarks/eskdb_java_draws.py [--datasets iris ...] [--splits 5]
     [--repeats 1] [--seed 0] [--out NAME]

An experiment that explains the accuracy differences between augnb's ESKDB
and the authors' Java code (``benchmarks/eskdb_java_peer.py``): it fits
augnb's ESKDB on the same folds twice, once as it is and once with the
uniform numbers that the Java code draws, everything else unchanged.

The Java discretiser (``MDL_R/MDLR.java``) draws each cut point with the
first ``nextDouble()`` of a fresh ``java.util.Random(seed)``, the seed going
up by one per draw from the member's seed; the learner draws the member's
ranking from one ``java.util.Random(member seed)`` stream, feature by
feature, in proportion to the renormalised mutual information. The member
seeds are the driver's: ``1990093 + 20 i + m`` for member ``m`` of fold
``i``. This script reproduces ``java.util.Random`` (its 48-bit linear
congruential generator) and feeds those numbers to augnb's draws: the
random MDL discretiser through a ``RandomState`` whose ``random_sample``
returns them, the ranking through the Java code's sequential draw. (The Java
discretiser also goes through the columns last to first and does not
advance its seed after a forced cut; both are ignored here.)

Writes ``benchmarks/results/<out>.json`` and ``<out>.md``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from _common import ROOT, machine_info, nested_cv, parser, save_report

from augnb import ESKDB
from augnb.discretize import RandomMDLPDiscretizer
from augnb.structure.kdb import kdb_order
from augnb.structure.skdb import skdb_structure

_MASK = (1 << 48) - 1
_MULT = 0x5DEECE66D

#: The authors' driver starts its members' seeds here.
FIRST_SEED = 1990093


class JavaRandom:
    """``java.util.Random``: ``nextDouble()`` from a 48-bit LCG."""

    def __init__(self, seed: int) -> None:
        self.state = (seed ^ _MULT) & _MASK

    def _next(self, bits: int) -> int:
        self.state = (self.state * _MULT + 0xB) & _MASK
        return self.state >> (48 - bits)

    def next_double(self) -> float:
        return ((self._next(26) << 27) + self._next(27)) * 2.0**-53


class JavaCutDraws(np.random.RandomState):
    """Each uniform is the first number of ``java.util.Random(seed)``, seed + 1."""

    def __init__(self, seed: int) -> None:
        super().__init__(0)
        self.java_seed = seed

    def random_sample(self, size=None):
        # augnb's random MDL draws a column's uniforms ahead (size given),
        # then sets the state back and moves it on by those it used.
        n = 1 if size is None else int(np.prod(size))
        values = [JavaRandom(self.java_seed + i).next_double() for i in range(n)]
        self.java_seed += n
        return values[0] if size is None else np.reshape(values, size)

    def get_state(self, legacy=True):
        return self.java_seed

    def set_state(self, state):
        self.java_seed = state


def java_ranking(mi: np.ndarray, seed: int) -> np.ndarray:
    """The Java learner's ranking: sequential draws in proportion to MI.

    Features never drawn (no mutual information left) follow in index order
    (the Java code drops them; augnb's members need a full permutation).
    """
    rng = JavaRandom(seed)
    w = np.maximum(np.asarray(mi, dtype=float), 0.0)
    order: list[int] = []
    while w.sum() > 0:
        p = w / w.sum()
        u = rng.next_double()
        i = int(np.flatnonzero((u <= np.cumsum(p)) & (p > 0))[0])
        order.append(i)
        w[i] = 0.0
    rest = [f for f in range(len(mi)) if f not in order]
    return np.array(order + rest, dtype=np.int64)


_ORIGINAL_FIT = ESKDB.fit


class _JavaMembers:
    """Patches ESKDB's members to draw with the Java numbers (n_jobs=1)."""

    def __init__(self, members: int) -> None:
        self.members = members
        self.fit_index = 0
        self.member = 0

    def seed(self) -> int:
        return FIRST_SEED + self.fit_index * self.members + self.member

    def install(self) -> None:
        original_fit = _ORIGINAL_FIT
        state = self

        def fit(est, X, y, **kw):
            state.member = 0
            try:
                return original_fit(est, X, y, **kw)
            finally:
                state.fit_index += 1

        def learn_member(
            est, data, raw, columns, cut_seed, order_seed, information=None
        ):
            java_seed = state.seed()
            state.member += 1
            disc = RandomMDLPDiscretizer(
                random_state=JavaCutDraws(java_seed)
            ).fit(pd.DataFrame(raw, columns=columns), data.y)
            codes, cards = est._member_codes(data.codes, data.values, disc)
            _, mi = kdb_order(codes, data.y, cards, data.n_classes)
            sel = skdb_structure(
                codes,
                data.y,
                cards,
                data.n_classes,
                k=int(est.k),
                order=java_ranking(mi, java_seed),
                theta=float(est.theta),
                alpha=float(est.alpha),
                criterion=est.criterion,
            )
            return disc, (codes, cards), sel

        ESKDB.fit = fit
        ESKDB._learn_member = learn_member


def main(argv: list[str] | None = None) -> int:
    ap = parser(
        __doc__,
        datasets=["iris", "ecoli", "glass", "balance_scale"],
        seed=0,
        out="eskdb_java_draws",
    )
    ap.add_argument("--splits", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument(
        "--cache", default=str(ROOT / "benchmarks" / "results" / "eskdb_rf_cache")
    )
    args = ap.parse_args(argv)
    plain = nested_cv({"ESKDB": ESKDB(random_state=args.seed, n_jobs=1)}, args)
    members = ESKDB().n_estimators
    # The data sets run one after another, the folds in order: fit i of a
    # data set is fold i (the driver's seeds restart per data set).
    rows = []
    for name in args.datasets:
        _JavaMembers(members).install()
        one = vars(args) | {"datasets": [name], "cache": None}
        java = nested_cv(
            {"ESKDB_java_draws": ESKDB(random_state=args.seed, n_jobs=1)},
            type("Args", (), one),
            progress=False,
        )
        rows.append(java)
    java = pd.concat(rows, ignore_index=True)
    both = pd.concat([plain, java], ignore_index=True)
    agg = both.groupby(["dataset", "estimator"], sort=False)[
        ["accuracy", "log_loss"]
    ].mean()
    lines = [
        "# augnb ESKDB with its own draws and with the Java code's draws",
        "",
        f"{args.repeats} x {args.splits} stratified CV, seed {args.seed}; "
        "the same folds as `eskdb_java_peer`.",
        "",
        "| data set | acc, augnb draws | acc, Java draws | log-loss, augnb draws "
        "| log-loss, Java draws |",
        "|---|---:|---:|---:|---:|",
    ]
    for name in args.datasets:
        a, j = agg.loc[(name, "ESKDB")], agg.loc[(name, "ESKDB_java_draws")]
        lines.append(
            f"| {name} | {100 * a['accuracy']:.2f} | {100 * j['accuracy']:.2f} "
            f"| {a['log_loss']:.4f} | {j['log_loss']:.4f} |"
        )
    text = "\n".join(lines) + "\n"
    payload = {
        "machine": machine_info(),
        "args": vars(args),
        "folds": both.replace({np.nan: None}).to_dict(orient="records"),
    }
    save_report(payload, text, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
