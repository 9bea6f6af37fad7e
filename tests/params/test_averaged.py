"""A2DE's tables: their size, and the refusal of tables larger than the memory."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from augnb.classifiers.ande import AnDE
from augnb.params import averaged


def _table(n_rows: int, cards: list[int], seed: int = 0) -> tuple:
    rng = np.random.default_rng(seed)
    columns = {
        f"f{j}": pd.Categorical(rng.integers(0, r, n_rows)) for j, r in enumerate(cards)
    }
    X = pd.DataFrame(columns)
    return X, pd.Series(rng.integers(0, 3, n_rows))


def test_pair_tables_cells_count_every_table():
    X, y = _table(60, [2, 3, 4, 2, 5])
    packed = AnDE(n=2).fit(X, y)._pair_packed
    cells = packed.counts.size + packed.log_prob.size + packed.child.size
    assert averaged._pair_tables_cells([2, 3, 4, 2, 5], 3) == cells


def test_a2de_tables_larger_than_the_memory_are_refused(monkeypatch):
    """Before, they were allocated (lazily) and filled until the process was
    killed, or numpy's allocation error came from deep inside the fit."""
    X, y = _table(60, [4] * 12)
    cells = averaged._pair_tables_cells([4] * 12, 3)
    monkeypatch.setattr(averaged, "_physical_memory", lambda: 8 * cells - 8)
    with pytest.raises(MemoryError, match=r"AnDE\(n=2\).*12 features.*AnDE\(n=1\)"):
        AnDE(n=2).fit(X, y)
    assert AnDE(n=1).fit(X, y).predict(X).shape == (60,)
    monkeypatch.setattr(averaged, "_physical_memory", lambda: 8 * cells)
    assert AnDE(n=2).fit(X, y).predict(X).shape == (60,)
