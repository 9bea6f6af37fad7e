"""The Python snippets of docs/guide.md run, in order, as one script."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide.md"


def test_guide_snippets_run(capsys):
    matplotlib.use("Agg")
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 6
    exec(compile("\n".join(blocks), str(GUIDE), "exec"), {})
    out = capsys.readouterr().out
    assert "['income']" in out
