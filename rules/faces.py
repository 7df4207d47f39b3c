"""A rule system's package face, loaded on the first name asked of it.

``rules.ide4``, ``rules.starately`` and ``rules.wod`` offer their system's public names, which
their ``face`` module gathers from the modules that split the system by concept. Loaded with
the package, that face would bring the whole check procedure (and the dice parser) with any
one module of the package — and the store reads each system's sheet (``rules/<name>/sheet.py``)
before the first screen is drawn. So a package's ``__init__`` only asks :func:`attribute`:
the face loads on the first name asked of the package, and binds every one of its names there.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any


def attribute(package: str, name: str) -> Any:
    """Return ``package``'s public ``name``, loading ``<package>.face`` on the first call.

    Raises:
        AttributeError: the face has no such name (as for any module).
    """
    if name.startswith("__"):  # the import system's and tools' probes load nothing
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    face = importlib.import_module(f"{package}.face")
    namespace = vars(sys.modules[package])
    namespace.update((n, v) for n, v in vars(face).items() if not n.startswith("__"))
    try:
        return namespace[name]
    except KeyError:
        raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
