"""Statistics on integer codes: counts, entropies, mutual information, tests.

Every function here works on integer codes (``-1`` = missing) and cardinalities;
there is no pandas and no estimator object below this line.
"""

from __future__ import annotations

from augnb.stats.counts import (
    compound_codes,
    family_index,
    joint_counts,
    lidstone_log_prob,
    pairwise_class_counts,
)
from augnb.stats.independence import (
    TestResult,
    ci_test,
    ind_test,
)
from augnb.stats.information import (
    cmi_from_counts,
    conditional_mutual_information,
    entropy,
    entropy_from_counts,
    mi_from_counts,
    mutual_information,
    pairwise_cmi,
)

__all__ = [
    "TestResult",
    "ci_test",
    "cmi_from_counts",
    "compound_codes",
    "conditional_mutual_information",
    "entropy",
    "entropy_from_counts",
    "family_index",
    "ind_test",
    "joint_counts",
    "lidstone_log_prob",
    "mi_from_counts",
    "mutual_information",
    "pairwise_class_counts",
    "pairwise_cmi",
]
