"""Distinct rows of small non-negative integer codes, found fast.

``np.unique(axis=0)`` sorts rows as structured records, tens of times slower than sorting
one integer per row. Rows of codes that pack into one int64 (mixed radix, column by
column) are found as one 1-D ``unique``; wider ones as rows.
"""

from __future__ import annotations

import numpy as np

#: Packed codes stay below this, so that no sum of a row's digits overflows int64.
_PACKED_LIMIT = 1 << 62


def unique_rows(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """As ``np.unique(codes, axis=0, return_index=True, return_inverse=True)`` for a 2-D
    array of non-negative integer codes: the distinct rows in sorted (lexicographic)
    order, the first row holding each, and each row's index among them (1-D)."""
    codes = np.asarray(codes)
    n_rows, n_columns = codes.shape
    packable = n_rows > 0 and n_columns > 0 and codes.min() >= 0
    if packable:
        radix = codes.max(axis=0).astype(object) + 1  # (Python ints: their product is exact)
        places = [1] * n_columns
        for column in range(n_columns - 2, -1, -1):  # the first column most significant
            places[column] = places[column + 1] * int(radix[column + 1])
        packable = places[0] * int(radix[0]) < _PACKED_LIMIT
    if not packable:
        distinct, first, inverse = np.unique(codes, axis=0, return_index=True, return_inverse=True)
        return distinct, first, inverse.reshape(-1)
    packed = codes.astype(np.int64) @ np.array(places, dtype=np.int64)
    _, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
    return codes[first], first, inverse.reshape(-1)
