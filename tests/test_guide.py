"""The Python snippets of docs/guide.md run, in order, as one script."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import matplotlib

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide.md"


def test_guide_snippets_run(capsys):
    from augnb.data.audit import DataAuditWarning

    matplotlib.use("Agg")
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 6
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(compile("\n".join(blocks), str(GUIDE), "exec"), {})
    out = capsys.readouterr().out
    assert "['income']" in out
    # The guide's examples are clean data: no audit warning to puzzle a reader.
    audits = [str(w.message) for w in caught if w.category is DataAuditWarning]
    assert not audits, audits
