"""Build of the oriflamme package: the metadata is in pyproject.toml; this file only decides
whether the engine is compiled.

Where a C compiler and Python's headers are present, the modules listed in
``oriflamme.build.COMPILED_MODULES`` (the rules and the search's hot modules) are
compiled with mypyc (the compiler that ships with mypy). Otherwise, when ``ORIFLAMME_PURE=1``
is set, or if compiling fails, the same package is installed as pure Python, which behaves
identically (only slower). ``oriflamme --version`` says which build is installed.
"""

from __future__ import annotations

import os
import runpy
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
#: The modules to compile, from the package itself (one list for the build and the runtime).
MODULES: tuple[str, ...] = runpy.run_path(str(HERE / "src" / "oriflamme" / "build.py"))[
    "COMPILED_MODULES"
]


#: setup.py commands that build the package; the others (egg_info, dist_info, sdist: what pip
#: runs to read the metadata) need no mypyc run.
BUILDS = {"build", "build_ext", "bdist_wheel", "bdist", "install", "editable_wheel", "develop"}
#: Editable installs (``pip install -e``): compiled modules would shadow edited sources.
EDITABLE = {"editable_wheel", "develop"}


def _say(message: str) -> None:
    print(f"oriflamme build: {message}", file=sys.stderr)


def _why_pure() -> str | None:
    """The reason to install pure Python, or None to compile."""
    if os.environ.get("ORIFLAMME_PURE", "").strip() not in ("", "0"):
        return "ORIFLAMME_PURE is set"
    if EDITABLE & set(sys.argv[1:]):
        return "an editable install runs the sources, so that edits take effect"
    if sys.implementation.name != "cpython":
        return f"mypyc needs CPython, not {sys.implementation.name}"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler!r} not found)"
    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").is_file():
        return f"no Python headers ({include}/Python.h missing; install python3-dev)"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc (part of mypy) is not installed"
    return None


#: Only the listed modules are compiled and checked; the modules they import are read for their
#: types without reporting their errors, and third-party packages may be missing: pip builds in
#: an environment of its own, where NumPy is not installed yet on a first install (a test runs
#: the same check without site-packages). No cache: every build starts clean.
MYPYC_OPTIONS = [
    "--config-file=", "--follow-imports=silent", "--ignore-missing-imports",
    f"--cache-dir={os.devnull}",
]


def _paths() -> list[str]:
    """The source files of the compiled modules."""
    return [str(Path("src", *name.split(".")).with_suffix(".py")) for name in MODULES]


def _extensions() -> list[Any]:
    if not BUILDS & set(sys.argv[1:]):
        return []
    # pip builds in the source tree: compiled modules left in build/ by an earlier build
    # would be packed into this wheel (even a pure one), linked to another build's runtime.
    shutil.rmtree(HERE / "build", ignore_errors=True)
    reason = _why_pure()
    if reason is not None:
        _say(f"pure Python ({reason})")
        return []
    from mypyc.build import mypycify

    try:
        extensions: list[Any] = mypycify([*MYPYC_OPTIONS, *_paths()], opt_level="3")
    except (Exception, SystemExit) as error:  # mypy reports type errors by exiting
        _say(f"pure Python (mypyc could not compile the engine: {error})")
        return []
    _say(f"compiling {len(MODULES)} modules with mypyc")
    return extensions


class OptionalBuildExt(build_ext):
    """Build every extension, or none: if the C compilation fails, install pure Python."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # compiler errors come in several distutils classes
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            self.extensions = []
            self.distribution.ext_modules = []
            _say(f"pure Python (the C compilation failed: {error})")


if __name__ == "__main__":  # setuptools runs this file as __main__; tests import its checks
    setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
