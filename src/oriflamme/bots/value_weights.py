"""Weights of the fitted position value (written by tools/fit_value.py).

Self-play of ``greedy``, 1500 games for each of 2,3,4 players, seed 1.
"""

#: Round -> the weight of each feature (VALUE_FEATURES order).
WEIGHTS: dict[int, tuple[float, ...]] = {
    2: (0.2722, 0.0053, 0.0581, 0.4743, -0.0515, 0.0, 0.0282, -0.0452),
    3: (0.2143, 0.0188, 0.0315, 0.6785, 0.058, -0.0, 0.1416, 0.0258),
    4: (0.3074, 0.0299, 0.0622, 0.8111, 0.0772, -0.0, 0.293, 0.0102),
    5: (0.4427, 0.0887, 0.1755, 0.8344, 0.1801, 0.0, 0.2348, 0.0218),
    6: (0.7852, 0.3925, 0.6163, 0.6475, 0.4027, 0.0, -0.0507, 0.1637),
}
