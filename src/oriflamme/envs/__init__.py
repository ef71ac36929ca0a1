"""Research adapters: an OpenSpiel game and a PettingZoo environment (the ``rl`` extra).

:mod:`oriflamme.encoding` (NumPy only, below the bots) holds the fixed action numbering and
observation vector both adapters share with the ``policy`` bot; :mod:`.openspiel` needs
``open_spiel`` and :mod:`.pettingzoo` needs ``pettingzoo`` (``pip install "oriflamme[rl]"``).
Import those two modules explicitly: importing this package loads neither.
"""
