"""Which build of the engine is running: compiled with mypyc, or pure Python.

``python3 -m pip install .`` compiles the modules listed in :data:`COMPILED_MODULES` with mypyc
where a C compiler and Python's headers are present (see ``setup.py``), and installs the same
sources as plain Python otherwise or when ``ORIFLAMME_PURE=1`` is set. Both builds behave
identically; the compiled one is faster. ``oriflamme --version`` and ``oriflamme bench`` report
the build with :func:`build_name`.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util

#: The modules mypyc compiles (``setup.py`` reads this list): the rules and the search's hot
#: modules. Their sources stay plain Python that mypy checks strictly. ``oriflamme.api`` stays
#: interpreted: it checks input of any type (JSON, user code) and raises ``ValueError`` or
#: ``RecordError`` for it, where compiled code would raise ``TypeError`` at its typed
#: signatures; its wrappers cost little (the engine calls go straight to compiled code).
COMPILED_MODULES: tuple[str, ...] = (
    "oriflamme.rules.abilities",
    "oriflamme.rules.actions",
    "oriflamme.rules.cards",
    "oriflamme.rules.config",
    "oriflamme.rules.determinize",
    "oriflamme.rules.draws",
    "oriflamme.rules.effects",
    "oriflamme.rules.engine",
    "oriflamme.rules.events",
    "oriflamme.rules.labels",
    "oriflamme.rules.observe",
    "oriflamme.rules.playout",
    "oriflamme.rules.records",
    "oriflamme.rules.state",
    "oriflamme.rules.tally",
    "oriflamme.rules.texts",
    "oriflamme.search",
    "oriflamme.bots.canonical",
    "oriflamme.bots.evaluation",
    "oriflamme.bots.ismcts",
    "oriflamme.encoding",
)


def is_compiled(module_name: str) -> bool:
    """Whether ``module_name`` is (or will be) loaded from a compiled extension rather than
    its source; the module itself is not imported (its package is)."""
    spec = importlib.util.find_spec(module_name)
    path = (spec.origin if spec is not None else None) or ""
    return path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED_MODULES` that are running compiled."""
    return [name for name in COMPILED_MODULES if is_compiled(name)]


def build_name() -> str:
    """``"compiled (mypyc, 21 of 21 modules)"`` or ``"pure Python"``; a partly compiled
    install (never produced by ``setup.py``) says so."""
    compiled = len(compiled_modules())
    if compiled == 0:
        return "pure Python"
    return f"compiled (mypyc, {compiled} of {len(COMPILED_MODULES)} modules)"
