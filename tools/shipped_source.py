"""Our Python as the page downloads it: the same code, without comments and docstrings.

Every line stays where it was (a docstring becomes an empty string on its first line,
its other lines blank), so a traceback in the browser names the same line numbers as
the source in the repository. Cuts our code's share of a first visit by about a quarter
(compressed), which a phone on bad signal waits for.
"""
from __future__ import annotations

import ast
import io
import tokenize


def documented(tree: ast.AST):
    """Each module, class and function in `tree` whose body opens with a docstring (also used by
    tools/pyc_zip.py, which leaves docstrings out of the stdlib's bytecode)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                yield node


def without_docstrings(text: str) -> str:
    """`text` with each docstring made an empty string on its first line, its other lines blank
    (also the page's packages: tools/build.py)."""
    lines = text.splitlines(keepends=True)
    docstrings = [owner.body[0].value for owner in documented(ast.parse(text))]
    for node in sorted(docstrings, key=lambda node: -node.lineno):
        first, last = node.lineno - 1, node.end_lineno - 1
        head = lines[first].encode()[:node.col_offset].decode()  # ast's offsets count UTF-8 bytes
        tail = lines[last].encode()[node.end_col_offset:].decode()
        lines[first:last + 1] = [head + '""' + tail] + ["\n"] * (last - first)
    return "".join(lines)


def shipped(text: str) -> str:
    lines = text.splitlines(keepends=True)
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:  # a comment runs to the end of its line
            row, column = token.start
            lines[row - 1] = lines[row - 1][:column].rstrip() + "\n"
    return "".join(line.rstrip() + "\n" for line in without_docstrings("".join(lines)).splitlines())
