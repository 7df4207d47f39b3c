"""``rules.ide4``, ``rules.starately`` and ``rules.wod`` load their face on the first name asked
of them (``rules.faces``): every public name is there, and a sheet loads none of the procedure."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

FACES = ("rules.ide4", "rules.starately", "rules.wod")


@pytest.mark.parametrize("package", FACES)
def test_every_public_name_is_the_face_modules_object(package: str) -> None:
    face = importlib.import_module(f"{package}.face")
    module = importlib.import_module(package)
    assert face.__all__
    assert all(getattr(module, n) is getattr(face, n) for n in face.__all__)
    with pytest.raises(AttributeError, match="no_such_name"):
        module.no_such_name  # noqa: B018


@pytest.mark.parametrize("package", FACES)
def test_its_sheet_and_ledger_load_without_the_procedure(package: str) -> None:
    code = (
        f"import sys, {package}.sheet, {package}.ledger;"
        f"print(sorted(m for m in sys.modules if m.startswith('{package}.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == repr([f"{package}.ledger", f"{package}.sheet"])


def test_ide4s_opposed_check_stays_a_function_whichever_module_loads_first() -> None:
    """The face's ``opposed`` is a function; no submodule is named so (it would replace it)."""
    code = (
        "import importlib, pkgutil, types, rules.ide4 as p;"
        "names = [m.name for m in pkgutil.iter_modules(p.__path__)];"
        "[importlib.import_module(f'rules.ide4.{n}') for n in names];"
        "print(isinstance(p.opposed, types.FunctionType))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
