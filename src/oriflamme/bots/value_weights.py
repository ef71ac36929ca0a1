"""Weights of the fitted position value (written by benchmarks/fit_value.py).

None fitted yet.
"""

#: Round -> the weight of each feature (VALUE_FEATURES order).
WEIGHTS: dict[int, tuple[float, ...]] = {}
