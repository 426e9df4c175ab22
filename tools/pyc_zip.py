"""Rewrite a zip of Python sources as a zip of bytecode (run inside Pyodide).

Executed by tools/precompile.mjs with Pyodide's own Python, so the bytecode
matches the interpreter the page runs. Each `mod.py` becomes `mod.pyc`
(zipimport accepts a lone .pyc); anything that does not compile stays source.
Entries get a fixed date so the same input always gives the same bytes, which
keeps the content-hashed vendor folder names stable between builds.
Docstrings are left out of the bytecode (as `python -OO` would, but asserts
stay): 13% fewer bytes to download for the stdlib, and the page never calls
help(). Line numbers do not move, so tracebacks still point at the right line.
"""
import ast
import importlib._bootstrap_external as bootstrap
import importlib.util
import sys
import zipfile

from shipped_source import documented  # tools/, written beside this file by precompile.mjs

FIXED_DATE = (1980, 1, 1, 0, 0, 0)


def entry(name):
    info = zipfile.ZipInfo(name, FIXED_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def without_docstrings(tree):
    for node in documented(tree):
        first = node.body[0]
        # Dropped, not replaced: `from __future__` must stay the first statement.
        node.body = node.body[1:] or [ast.copy_location(ast.Pass(), first)]
    return tree


def compile_source(name, source, path_prefix):
    tree = without_docstrings(ast.parse(source, path_prefix + name))
    code = compile(tree, path_prefix + name, "exec", dont_inherit=True)
    return bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)


def rewrite(source_zip, target_zip, path_prefix):
    kept_as_source = []
    with zipfile.ZipFile(source_zip) as reader, zipfile.ZipFile(target_zip, "w", compresslevel=9) as writer:
        for name in sorted(reader.namelist()):
            if name.endswith("/"):
                continue
            data = reader.read(name)
            if name.endswith(".py"):
                try:
                    writer.writestr(entry(name[:-3] + ".pyc"), compile_source(name, data, path_prefix))
                    continue
                except SyntaxError:
                    kept_as_source.append(name)
            writer.writestr(entry(name), data)
    return kept_as_source


if __name__ == "__main__":
    source_zip, target_zip, path_prefix = sys.argv[1:4]
    for name in rewrite(source_zip, target_zip, path_prefix):
        print("kept as source:", name)
