"""Training the learned network by self-play (``oriflamme train``): NumPy only."""
