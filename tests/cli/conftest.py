from __future__ import annotations

import numpy as np
import pytest

from augnb.cli import main


@pytest.fixture
def usage_error(capsys):
    """Run ``augnb ARGV``; check it fails as a user error and return the line.

    A user error exits 2 with one line on stderr, no traceback, holding every
    one of ``words`` (the file, column or value, and the fix).
    """

    def run(argv: list[str], *words: str) -> str:
        code = main([str(a) for a in argv])
        err = capsys.readouterr().err
        assert code == 2, (argv, err)
        assert err.count("\n") == 1 and err.startswith("augnb: error: "), err
        assert "Traceback" not in err
        for word in words:
            assert word in err, (word, err)
        return err

    return run


@pytest.fixture
def car_csv(tmp_path):
    """120 rows of car as a CSV file, with an ID column ``patient`` first."""
    from augnb.datasets import load

    X, y = load("car")
    rows = np.random.default_rng(0).permutation(len(X))[:120]
    frame = X.iloc[rows].astype(object).reset_index(drop=True)
    frame.insert(0, "patient", [f"P{i:04d}" for i in range(len(frame))])
    frame["class"] = y.iloc[rows].to_numpy()
    path = tmp_path / "cars.csv"
    frame.to_csv(path, index=False)
    return path
