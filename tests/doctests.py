"""Running a module's docstring examples on either build.

``doctest.testmod`` finds examples by inspecting the module's functions and classes, which a
mypyc-compiled module does not expose (its functions carry no source). For a compiled module
the examples are read from its source file (installed beside it) and run in the module's own
namespace, so the same examples run on the pure and the compiled build.
"""

from __future__ import annotations

import ast
import doctest
from pathlib import Path
from types import ModuleType

from oriflamme.build import is_compiled


def run_doctests(module: ModuleType) -> doctest.TestResults:
    """The docstring examples of ``module``, run like ``doctest.testmod(module, report=False)``."""
    if not is_compiled(module.__name__):
        return doctest.testmod(module, report=False)
    source = Path(module.__file__ or "").with_name(module.__name__.rpartition(".")[2] + ".py")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(verbose=False)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        text = ast.get_docstring(node, clean=True)
        if not text:
            continue
        name = module.__name__ + ("" if isinstance(node, ast.Module) else f".{node.name}")
        line = 0 if isinstance(node, ast.Module) else node.lineno
        test = parser.get_doctest(text, dict(vars(module)), name, str(source), line)
        if test.examples:
            runner.run(test, clear_globs=True)
    return runner.summarize(verbose=False)
