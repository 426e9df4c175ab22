"""The page's objects as ui.shell uses them: window, document and the FFI's helpers, each looked up
in pyscript (or pyodide) when used rather than when ui.shell is imported. So the build imports
ui.shell into Python's memory snapshot under Node, where there is no page (tools/snapshot.py),
and the snapshot keeps no JS object: one would be invalid after the restore."""
from __future__ import annotations

import importlib
import sys


class PageObject:
    """Stands for `name` of the page's module `module`: attributes, assignments and calls go to it."""

    __slots__ = ("_module", "_name")

    def __init__(self, module: str, name: str):
        object.__setattr__(self, "_module", module)
        object.__setattr__(self, "_name", name)

    def _target(self):
        module = sys.modules.get(self._module) or importlib.import_module(self._module)
        return getattr(module, self._name)

    def __getattr__(self, attribute: str):
        return getattr(self._target(), attribute)

    def __setattr__(self, attribute: str, value):
        setattr(self._target(), attribute, value)

    def __call__(self, *args, **kwargs):
        return self._target()(*args, **kwargs)


window = PageObject("pyscript", "window")
document = PageObject("pyscript", "document")
create_proxy = PageObject("pyscript.ffi", "create_proxy")
is_none = PageObject("pyscript.ffi", "is_none")
to_js = PageObject("pyscript.ffi", "to_js")
create_once_callable = PageObject("pyodide.ffi", "create_once_callable")
