"""The data boundary: column kinds, category encoding and input validation.

Names and pandas stop here; everything below works on integer codes (``-1`` =
missing or unseen) and float arrays (``NaN`` = missing).
"""

from __future__ import annotations

from augnb.data.encoding import EncodedData, as_frame, encode_target
from augnb.data.schema import ColumnSpec, Schema

__all__ = ["ColumnSpec", "EncodedData", "Schema", "as_frame", "encode_target"]
