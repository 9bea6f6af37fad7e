"""Discretisation of continuous features into declared bins.

Every discretiser is a scikit-learn transformer that maps a DataFrame to a
DataFrame with the same columns and index; each discretised column becomes a
pandas Categorical whose categories ``0..B-1`` are its declared levels. The
input is read as the estimators read it (an array's columns are named
``0..n-1``, an object column of numbers is numeric); by default the float
columns are discretised.

- :class:`MDLPDiscretizer`: supervised Fayyad–Irani entropy / MDL cuts.
- :class:`RandomMDLPDiscretizer`: MDL cuts drawn at random (ESKDB's members).
- :class:`EqualFrequencyDiscretizer`: equal-count (maximum-entropy) bins.
- :class:`EqualWidthDiscretizer`: equal-width bins over the training range.
- :class:`MeanBinarizer`: two bins split at the training mean.
- :class:`SOACDiscretizer`: sub-optimal agglomerative clustering (Yatsko et al.).
- :func:`mdlp_cut_points`, :func:`random_mdlp_cut_points`,
  :func:`soac_cut_points`: the searches on one array.
"""

from __future__ import annotations

from augnb.discretize.mdlp import MDLPDiscretizer, mdlp_cut_points
from augnb.discretize.random_mdlp import (
    RandomMDLPDiscretizer,
    random_mdlp_cut_points,
)
from augnb.discretize.simple import (
    EqualFrequencyDiscretizer,
    EqualWidthDiscretizer,
    MeanBinarizer,
)
from augnb.discretize.soac import SOACDiscretizer, soac_cut_points

__all__ = [
    "EqualFrequencyDiscretizer",
    "EqualWidthDiscretizer",
    "MDLPDiscretizer",
    "MeanBinarizer",
    "RandomMDLPDiscretizer",
    "SOACDiscretizer",
    "mdlp_cut_points",
    "random_mdlp_cut_points",
    "soac_cut_points",
]
