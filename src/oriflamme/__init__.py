"""Oriflamme and Oriflamme Embrasement: the rules engine and its interfaces.

The public API is :mod:`oriflamme.api`.
"""

__version__ = "0.1.0"
