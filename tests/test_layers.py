"""The layer map of docs/architecture.md holds and is enforced (issue #27): the import-linter
contracts of pyproject.toml are kept by the package, and each of them breaks on a deliberate
upward import, a cycle, or a module left off the map; the rules import the standard library
only."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scripts import ROOT

PACKAGE = ROOT / "src" / "oriflamme"

LAYERS = "Imports point down the layer map (docs/architecture.md)"
PURE_RULES = "The rules import no other part of the package"
ACYCLIC = "No import cycle between the modules (or subpackages) of one package"

#: A statement that runs import-linter on the repository's contracts (pyproject.toml) for the
#: package found first on the path.
LINT = (
    "import sys\n"
    "from importlinter.cli import lint_imports\n"
    "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))\n"
)


def lint(tmp_path: Path, change: tuple[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """import-linter run on a copy of the package's sources, with ``change`` (a module's path in
    the package and a line appended to it) made first; the copy is what the contracts see."""
    copy = tmp_path / "oriflamme"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "static", "*.so"))
    if change is not None:
        path, line = change
        target = copy / path
        text = target.read_text(encoding="utf-8") if target.exists() else ""
        target.write_text(text + "\n" + line + "\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    return subprocess.run(
        [sys.executable, "-c", LINT, str(ROOT / "pyproject.toml")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )


def test_the_package_keeps_every_contract(tmp_path: Path) -> None:
    done = lint(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    for name in (LAYERS, PURE_RULES, ACYCLIC):
        assert f"{name} KEPT" in done.stdout


@pytest.mark.parametrize(
    ("change", "broken"),
    [
        # The rules are the bottom layer: even the public API above them is out of reach.
        (("rules/state.py", "import oriflamme.api"), LAYERS),
        # The package cycle the map once hid: the policy bot reading the adapters' package.
        (("bots/policy.py", "import oriflamme.envs.openspiel"), LAYERS),
        # One interface depending on another (PettingZoo's render drawing with the terminal).
        (("envs/pettingzoo.py", "from oriflamme.cli import play"), LAYERS),
        # Interfaces of one layer are independent of each other.
        (("server/app.py", "import oriflamme.tournament"), LAYERS),
        (("bench/engine.py", "import oriflamme.cli.main"), LAYERS),
        (("encoding.py", "import oriflamme.bots"), LAYERS),
        # A new top-level module must be placed on the map.
        (("unplaced.py", "import oriflamme.api"), LAYERS),
        (("rules/cards.py", "import oriflamme.build"), PURE_RULES),
        # Module cycles inside a package, at any depth.
        (("server/tables.py", "from oriflamme.server import views"), ACYCLIC),
        (("cli/tournament_run.py", "from oriflamme.cli import tournament"), ACYCLIC),
        (("rules/cards.py", "from oriflamme.rules import engine"), ACYCLIC),
    ],
    ids=lambda value: value[0] if isinstance(value, tuple) else None,
)
def test_each_contract_breaks_on_a_wrong_import(
    tmp_path: Path, change: tuple[str, str], broken: str
) -> None:
    done = lint(tmp_path, change)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{broken} BROKEN" in done.stdout, done.stdout


def _imported(path: Path) -> set[str]:
    """What a module imports, absolute, in functions and under TYPE_CHECKING too."""
    package = ".".join(path.relative_to(PACKAGE.parent).parent.parts)
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names.add(".".join([*base, *([node.module] if node.module else [])]))
            else:
                names.add(node.module or "")
    return names


def test_the_rules_import_only_the_standard_library_and_themselves() -> None:
    """The rules stay pure: no server dependency (FastAPI, uvicorn, asyncpg, …), no NumPy or
    rich, nothing else of the package."""
    outside = {
        f"{path.relative_to(PACKAGE)}: {name}"
        for path in sorted((PACKAGE / "rules").glob("*.py"))
        for name in _imported(path)
        if name != "oriflamme.rules" and not name.startswith("oriflamme.rules.")
        and name.split(".")[0] not in sys.stdlib_module_names
    }
    assert len(list((PACKAGE / "rules").glob("*.py"))) > 10
    assert outside == set()
