"""The rules of Oriflamme: a pure package (no I/O, no clock, no global random state).

Interfaces use :mod:`oriflamme.api`, not these modules directly.
"""
