"""The two builds (issue #13): compiled with mypyc where possible, pure Python otherwise.

``ORIFLAMME_EXPECT_BUILD`` (``pure`` or ``compiled``, set by scripts/test.sh) makes the suite
check that it runs on the build it was meant to test: a compiled install that silently fell
back to pure Python fails here.
"""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from oriflamme import build

ROOT = Path(__file__).resolve().parents[1]
SETUP = ROOT / "setup.py"


def test_the_build_named_is_the_build_loaded() -> None:
    compiled = build.compiled_modules()
    assert set(compiled) <= set(build.COMPILED_MODULES)
    for name in build.COMPILED_MODULES:
        module = sys.modules.get(name) or __import__(name, fromlist=["_"])
        assert build.is_compiled(name) == (not (module.__file__ or "").endswith(".py"))
    if compiled:
        assert build.build_name() == (
            f"compiled (mypyc, {len(compiled)} of {len(build.COMPILED_MODULES)} modules)")
    else:
        assert build.build_name() == "pure Python"


def test_the_expected_build_is_running() -> None:
    expected = os.environ.get("ORIFLAMME_EXPECT_BUILD")
    if expected is None:
        pytest.skip("ORIFLAMME_EXPECT_BUILD not set (scripts/test.sh sets it)")
    assert expected in ("pure", "compiled"), expected
    compiled = build.compiled_modules()
    if expected == "compiled":
        assert compiled == list(build.COMPILED_MODULES)
    else:
        assert compiled == []


def test_compiled_modules_all_exist() -> None:
    for name in build.COMPILED_MODULES:
        path = ROOT / "src" / Path(*name.split(".")).with_suffix(".py")
        assert path.is_file(), path


# -- setup.py's choice of build -------------------------------------------------------------
@pytest.fixture
def setup_module() -> dict[str, Any]:
    if not SETUP.is_file():
        pytest.skip("setup.py is not beside the tests")
    return runpy.run_path(str(SETUP), run_name="setup_under_test")


def test_pure_when_asked(setup_module: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORIFLAMME_PURE", "1")
    assert setup_module["_why_pure"]() == "ORIFLAMME_PURE is set"
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    assert setup_module["_extensions"]() == []


def test_pure_without_a_c_compiler(
    setup_module: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ORIFLAMME_PURE", raising=False)
    monkeypatch.setenv("CC", "no-such-compiler-here")
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    assert setup_module["_why_pure"]() == "no C compiler ('no-such-compiler-here' not found)"
    assert setup_module["_extensions"]() == []


def test_editable_installs_are_pure(
    setup_module: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ORIFLAMME_PURE", raising=False)
    monkeypatch.setattr(sys, "argv", ["setup.py", "editable_wheel"])
    assert "editable" in (setup_module["_why_pure"]() or "")


def test_reading_metadata_runs_no_compiler(
    setup_module: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ORIFLAMME_PURE", raising=False)
    monkeypatch.setattr(sys, "argv", ["setup.py", "egg_info", "--egg-base", "x"])
    assert setup_module["_extensions"]() == []


def test_the_compiled_modules_check_without_third_party_packages(
    setup_module: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """mypyc type-checks the compiled modules in pip's build environment, where NumPy is not
    installed on a first install: a type error there silently gives a pure build (it did, once
    the encoder was compiled: its NumPy aliases were no types without NumPy). The same check,
    with no site-packages at all."""
    from mypy import api

    monkeypatch.chdir(ROOT)
    out, err, status = api.run(
        [*setup_module["MYPYC_OPTIONS"], "--no-site-packages", *setup_module["_paths"]()])
    assert status == 0, out + err
    assert f"no issues found in {len(build.COMPILED_MODULES)} source files" in out


def test_version_names_the_build() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "oriflamme", "--version"], capture_output=True, text=True,
        check=True,
    )
    assert done.stdout.strip().endswith(f"({build.build_name()})")


def test_a_build_starts_without_the_last_builds_modules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pip builds in the source tree: a compiled module left in build/ by an earlier build
    must not be packed into the next wheel (it would load another build's runtime)."""
    if not SETUP.is_file():
        pytest.skip("setup.py is not beside the tests")
    (tmp_path / "src" / "oriflamme").mkdir(parents=True)
    (tmp_path / "setup.py").write_text(SETUP.read_text(encoding="utf-8"), encoding="utf-8")
    build_py = ROOT / "src" / "oriflamme" / "build.py"
    (tmp_path / "src" / "oriflamme" / "build.py").write_text(
        build_py.read_text(encoding="utf-8"), encoding="utf-8")
    stale = tmp_path / "build" / "lib.linux" / "oriflamme" / "api.cpython-311.so"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"")
    module = runpy.run_path(str(tmp_path / "setup.py"), run_name="setup_under_test")
    monkeypatch.setenv("ORIFLAMME_PURE", "1")
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    assert module["_extensions"]() == []
    assert not (tmp_path / "build").exists()
