"""Running a module's docstring examples on either build.

``doctest.testmod`` finds examples by inspecting the module's functions and classes, which a
mypyc-compiled module does not expose (its functions carry no source). For a compiled module
the examples are read from its source file (installed beside it) and run in the module's own
namespace, so the same examples run on the pure and the compiled build.

:func:`check_examples` is the check every test of docstring examples makes: they all ran (as many
as the module's source file holds, read independently of how they were run) and none failed.
"""

from __future__ import annotations

import ast
import doctest
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from oriflamme.build import is_compiled


def source_file(module: ModuleType) -> Path:
    """The ``.py`` file of ``module`` (installed beside a compiled module's extension)."""
    path = Path(module.__file__ or "")
    return path.with_name(path.name.split(".")[0] + ".py")  # mod.cpython-311-….so: mod.py


def _docstrings(module: ModuleType) -> Iterator[tuple[ast.AST, str]]:
    """(node, docstring) of the module, its classes and functions, read from its source."""
    tree = ast.parse(source_file(module).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            text = ast.get_docstring(node, clean=True)
            if text:
                yield node, text


def source_examples(module: ModuleType) -> int:
    """How many examples (``>>>`` prompts) the docstrings of ``module``'s source file hold."""
    parser = doctest.DocTestParser()
    return sum(len(parser.get_examples(text)) for _, text in _docstrings(module))


def run_doctests(module: ModuleType) -> doctest.TestResults:
    """The docstring examples of ``module``, run like ``doctest.testmod(module, report=False)``."""
    if not is_compiled(module.__name__):
        return doctest.testmod(module, report=False)
    source = source_file(module)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(verbose=False)
    for node, text in _docstrings(module):
        name = module.__name__ + ("" if isinstance(node, ast.Module) else f".{node.name}")
        line = 0 if isinstance(node, ast.Module) else getattr(node, "lineno", 0)
        test = parser.get_doctest(text, dict(vars(module)), name, str(source), line)
        if test.examples:
            runner.run(test, clear_globs=True)
    return runner.summarize(verbose=False)


def check_examples(module: ModuleType) -> None:
    """``module`` has docstring examples, every one of them ran, and none failed."""
    expected = source_examples(module)
    assert expected > 0, f"{module.__name__} has no docstring examples"
    failed, attempted = run_doctests(module)
    assert failed == 0, f"{module.__name__}: {failed} of its examples failed"
    assert attempted == expected, (
        f"{module.__name__}: {attempted} examples ran, its source holds {expected}"
    )
