from __future__ import annotations

import numpy as np

from augnb.evaluation.significance import friedman_test
from augnb.evaluation.suite_result import iman_davenport_text


def test_iman_davenport_text():
    res = friedman_test(ranks=[3.143, 2.000, 2.893, 1.964], n_datasets=14)
    text = iman_davenport_text(res.iman_davenport)
    assert text.startswith("F_F = 3.69 (df = 3, 39), p = 0.0")
    assert "(df" not in iman_davenport_text(res.iman_davenport, with_df=False)


def test_iman_davenport_text_at_its_maximum_says_why():
    # Every data set ranks the algorithms alike: no bare "inf" and "p = 0".
    res = friedman_test(np.tile([0.9, 0.8, 0.7], (6, 1)))
    text = iman_davenport_text(res.iman_davenport)
    assert text == (
        "F_F = ∞ (df = 2, 10; every data set ranks the algorithms in the same "
        "order), exact p = 1.3e-04"
    )
    assert "inf" not in text and "p = 0" not in text
    short = iman_davenport_text(res.iman_davenport, with_df=False)
    assert short.startswith("F_F = ∞ (every data set")
