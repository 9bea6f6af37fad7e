"""The example learner of docs/architecture.md runs, and behaves."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"


def test_example_learner_runs(capsys, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 2
    # A real module, so the estimator checks can pickle the example's class.
    module = types.ModuleType("augnb_architecture_example")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    exec(compile("\n".join(blocks), str(DOC), "exec"), module.__dict__)
    out = capsys.readouterr().out
    assert out.startswith("[((")  # the fitted arcs, as (parent, child) names
    # About 40 lines: one structure function and one thin class.
    n_lines = len([line for line in blocks[0].splitlines() if line.strip()])
    assert n_lines <= 45
    assert module.TopArcsNB.__mro__[1].__name__ == "BaseAugmentedNB"
