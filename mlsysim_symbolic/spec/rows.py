"""``kind = "rows"``: a list of equal-length lists of numbers (mlsysim's ``List[List[int]]``, one vector per GPU), bound
as cells.

The input's own index holds one key per cell, ``(row, column)`` numbered from ``start`` (default 0, mlsysim's list
index); its ``symbol`` is the cell's value, and ``cell_row`` / ``cell_column`` name symbols for the cell's row and
column numbers under the same index.  ``rows = { gpu = "w" }`` declares an index over the row numbers whose symbol is
the number itself (an output keyed by GPU), ``rows_but_last = { step = "s" }`` one over every row number but the last
(the n - 1 steps of a ring), and ``columns = { chunk = "k" }`` one over the column numbers.  An equation relates them
by comparing numbers inside a reduction over the cells: ``sum(v * piecewise(1, c == k, 0), cell)`` is column k's sum.
A ragged or empty table is refused by name.

>>> from mlsysim_symbolic.spec.kinds import KINDS, Bound
>>> spec = KINDS["rows"].read("vectors", {"index": "cell", "symbol": "v", "unit": "1", "cell_row": "r",
...                                        "cell_column": "c", "rows": {"gpu": "w"}, "rows_but_last": {"step": "s"},
...                                        "columns": {"chunk": "k"}})
>>> bound = Bound()
>>> KINDS["rows"].bind(spec, [[1, 5], [2, 6], [3, 7]], bound)
>>> bound.keys["cell"][:3], bound.keys["gpu"], bound.keys["step"], bound.keys["chunk"]
([(0, 0), (0, 1), (1, 0)], [0, 1, 2], [0, 1], [0, 1])
>>> bound.keyed["cell"][(2, 1)], bound.keyed["gpu"][2]
({v: 7, r: 2, c: 1}, {w: 2})
>>> KINDS["rows"].bind(spec, [[1, 5], [2]], Bound())
Traceback (most recent call last):
...
mlsysim_symbolic.errors.InputError: vectors: every row has the same length (row 0 has 2 values, row 1 has 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..errors import InputError
from .definitions import InputSpec
from .reader import read_variable

#: The derived parts of a rows input: (declaration field, what the symbol holds, over the cells or its own index).
_PARTS = (("cell_row", "the cell's row number"), ("cell_column", "the cell's column number"))
_INDICES = (("rows", "a row number"), ("rows_but_last", "a row number but the last"), ("columns", "a column number"))


class RowsMixin:
    """The reading and binding of ``kind = "rows"`` (mixed into a keyed kind in :mod:`mlsysim_symbolic.spec.kinds`)."""

    name = "rows"
    annotation = "List[List[float]]"

    def read(self, name: str, raw: Mapping[str, Any]) -> InputSpec:
        start = raw.get("start", 0)
        if isinstance(start, bool) or not isinstance(start, int):
            raise InputError(f"'start' is a whole number; got {start!r}")
        own = {k: v for k, v in raw.items() if k not in ("start", *(p for p, _ in _PARTS), *(i for i, _ in _INDICES))}
        spec = super().read(name, own)   # type: ignore[misc]
        derived: list[tuple[str, Any, str]] = []
        for part, what in _PARTS:
            symbol = raw.get(part)
            if symbol is not None:
                if not isinstance(symbol, str) or not symbol.isidentifier():
                    raise InputError(f"'{part}' names a symbol; got {symbol!r}")
                var = read_variable(f"{name}_{part}", {"symbol": symbol, "unit": "1", "integer": True,
                                                       "domain": "(-inf, inf)", "meaning": f"{what} in {name}"}, role="input")
                derived.append((part, var, spec.index))
        for field, what in _INDICES:
            table = raw.get(field) or {}
            if not isinstance(table, Mapping) or not all(isinstance(k, str) and k.isidentifier() and isinstance(v, str)
                                                         and v.isidentifier() for k, v in table.items()):
                raise InputError(f"'{field}' is a table index = \"symbol\" (rows = {{ gpu = \"w\" }}); got {table!r}")
            for index, symbol in table.items():
                var = read_variable(f"{name}_{index}", {"symbol": symbol, "unit": "1", "integer": True,
                                                        "domain": "(-inf, inf)", "meaning": f"{what} of {name}"},
                                    role="input")
                derived.append((field, var, index))
        if not spec.variable or not derived:
            raise InputError("a rows input declares its value symbol and at least one of cell_row, cell_column, rows, "
                             "rows_but_last or columns")
        return replace(spec, kind="rows", start=start, derived=tuple(derived), annotation=self.annotation)

    def bind(self, spec: InputSpec, value: Any, bound: Any) -> None:
        if value is None:
            bound.values[spec.name] = None
            return
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
            raise InputError(f"{spec.name}: expected a list of lists of numbers, got {value!r}")
        rows = [list(r) if isinstance(r, Iterable) and not isinstance(r, (str, bytes, Mapping)) else None for r in value]
        if not rows or any(r is None or not r for r in rows):
            raise InputError(f"{spec.name}: expected a non-empty list of non-empty lists of numbers, got {value!r}")
        width = len(rows[0])
        for i, row in enumerate(rows):
            if len(row) != width:
                raise InputError(f"{spec.name}: every row has the same length (row {spec.start} has {width} values, "
                                 f"row {spec.start + i} has {len(row)})")
        s0 = spec.start
        cells = bound.keyed.setdefault(spec.index, {})
        kept = []
        for i, row in enumerate(rows):
            kept_row = []
            for j, item in enumerate(row):
                key = (s0 + i, s0 + j)
                shown, symbols = self.bind_item(spec, item, f"{spec.name}[{i}][{j}]", bound)   # type: ignore[attr-defined]
                kept_row.append(shown)
                leaves = cells.setdefault(key, {})
                leaves.update(symbols)
                for part, dvar, _ in spec.derived:
                    if part == "cell_row":
                        leaves[dvar.symbol] = s0 + i
                    elif part == "cell_column":
                        leaves[dvar.symbol] = s0 + j
            kept.append(tuple(kept_row))
        bound.keys[spec.name] = list(cells)
        bound.keys[spec.index] = list(cells)
        numbers = {"rows": range(s0, s0 + len(rows)), "rows_but_last": range(s0, s0 + len(rows) - 1),
                   "columns": range(s0, s0 + width)}
        for part, dvar, index in spec.derived:
            if part in numbers:
                by_key = bound.keyed.setdefault(index, {})
                for k in numbers[part]:
                    by_key.setdefault(k, {})[dvar.symbol] = k
                bound.keys[index] = list(numbers[part])
        bound.values[spec.name] = tuple(kept)

    def describe(self, spec: InputSpec) -> list[str]:
        parts = ", ".join(f"{v.symbol}: {p} over {i}" for p, v, i in spec.derived)
        return [f"    a table of rows; symbol {spec.variable.symbol if spec.variable else spec.name} per cell; {parts}"]
