"""The greedy wrapper search and its cached cross-validation scorer.

One engine serves every wrapper learner (FSS, BSEJ, and later kDB, ENBC): a
candidate is scored by replacing the per-instance log factors of the nodes it
changes, never by refitting the model.
"""

from __future__ import annotations

from augnb.search.cv_cache import CachedCV
from augnb.search.folds import fold_ids, stratified_folds
from augnb.search.greedy import SearchStep, greedy_search

__all__ = ["CachedCV", "SearchStep", "fold_ids", "greedy_search", "stratified_folds"]
