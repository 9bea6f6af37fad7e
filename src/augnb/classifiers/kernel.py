"""Former home of the kernel-density classifiers (see ``kernel_nb``).

Kept so that ``from augnb.classifiers.kernel import ENBC, FlexibleNB`` (and the
package's own ``augnb.classifiers`` exports) keep working.
"""

from __future__ import annotations

from augnb.classifiers.enbc import ENBC
from augnb.classifiers.kernel_nb import FlexibleNB, KernelNBModel

__all__ = ["ENBC", "FlexibleNB", "KernelNBModel"]
