"""The timings behind ``oriflamme bench`` and the scripts of ``benchmarks/`` (figures in
docs/benchmarks.md), read with the clock outside the rules: :mod:`.engine` (random playouts of
every set-up, state copies, the engine loop), :mod:`.bots` (random-bot games through the runner,
ISMCTS iterations) and :mod:`.envs` (an OpenSpiel or PettingZoo step against an engine step,
with the ``rl`` extra). Importing this package loads none of them."""
