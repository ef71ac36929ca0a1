"""The game drawn in a terminal, shared by the ``oriflamme`` command and the PettingZoo
environment's ``render``: the board as rich renderables (:mod:`.render`), built only from one
viewer's observation; the rules' sentences for one game in one language (:mod:`.labels`,
:class:`~.labels.GameLabels`); and the terminal's own words in English and French
(:mod:`.texts`, :class:`~.texts.TerminalTexts`)."""
