"""Results as plain data: a small table of records that keeps units.

>>> t = Table(("input", "value"), [{"input": "B", "value": 1.0}])
>>> t.to_records()
[{'input': 'B', 'value': 1.0}]
>>> len(t), t[0]["input"]
(1, 'B')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pint

from .units import shown


class Table:
    """Rows as a list of dicts (values may be pint Quantities); ``to_pandas()`` when pandas is installed."""

    def __init__(self, columns: Sequence[str], records: Sequence[dict[str, Any]], title: str = "",
                 units: Mapping[str, str] | None = None, note: str = ""):
        self.columns = tuple(columns)
        self.records = [dict(r) for r in records]
        self.title = title
        self.units = dict(units or {})      # the unit of a column of plain numbers, shown in its header
        self.note = note                    # a line under the table (what the numbers mean)

    def header(self, column: str) -> str:
        """A column's header: its name, with the unit of a column of plain numbers (``mu_star [ms]``)."""
        unit = self.units.get(column)
        return f"{column} [{unit}]" if unit else column

    def to_records(self) -> list[dict[str, Any]]:
        """The rows as a list of dicts (a copy)."""
        return [dict(r) for r in self.records]

    def to_pandas(self) -> Any:
        """A pandas DataFrame; Quantity columns become magnitudes with the unit in the column name."""
        try:
            import pandas as pd
        except ImportError as exc:
            raise ModuleNotFoundError('to_pandas needs pandas, which is not installed: pip install pandas '
                                      '(or pip install "mlsysim-symbolic[test]")', name="pandas") from exc

        data: dict[str, list[Any]] = {}
        for col in self.columns:
            values = [r.get(col) for r in self.records]
            quantities = [v for v in values if isinstance(v, pint.Quantity)]
            if quantities and len(quantities) == len(values) and len({str(q.units) for q in quantities}) == 1:
                data[f"{col} [{quantities[0].units:~C}]"] = [q.magnitude for q in quantities]
            else:
                data[self.header(col)] = values
        return pd.DataFrame(data)

    def column(self, name: str) -> list[Any]:
        return [r.get(name) for r in self.records]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def __getitem__(self, i: int) -> dict[str, Any]:
        return self.records[i]

    @staticmethod
    def _cell(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, pint.Quantity):
            return shown(value)   # pint's pretty form: typeset units (GB·token²/B/sample), never Python's ** and *
        if isinstance(value, float):
            return f"{value:.4g}"
        return str(value)

    def _repr_html_(self) -> str:
        import html

        import sympy

        def cell(value: Any) -> str:   # symbols and expressions as inline math, everything else escaped text
            if isinstance(value, sympy.Basic) and not isinstance(value, sympy.Number):
                return f"${sympy.latex(value)}$"
            if isinstance(value, pint.Quantity) and getattr(value.magnitude, "ndim", 0) == 0:
                return shown(value, "html")   # the unit as HTML (exponents as <sup>); its names are the registry's own
            return html.escape(self._cell(value))

        head = "".join(f"<th>{html.escape(self.header(c))}</th>" for c in self.columns)
        rows = "".join("<tr>" + "".join(f"<td>{cell(r.get(c))}</td>" for c in self.columns) + "</tr>" for r in self.records)
        caption = f"<caption>{html.escape(self.title)}</caption>" if self.title else ""
        note = f"<p>{html.escape(self.note)}</p>" if self.note else ""
        return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>{note}"

    def __str__(self) -> str:
        """A text table: the title, a header row (with units), one line per record, and the note.

        >>> print(Table(("input", "mu_star"), [{"input": "B", "mu_star": 1.5}], title="Morris", units={"mu_star": "ms"}))
        Morris
        input  mu_star [ms]
        B      1.5
        """
        heads = [self.header(c) for c in self.columns]
        cells = [[self._cell(r.get(c)) for c in self.columns] for r in self.records]
        widths = [max([len(h)] + [len(row[i]) for row in cells]) for i, h in enumerate(heads)]
        lines = ["  ".join(h.ljust(w) for h, w in zip(heads, widths)).rstrip()]
        lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip() for row in cells]
        text = ((self.title + "\n") if self.title else "") + "\n".join(lines)
        return text + (f"\n{self.note}" if self.note else "")

    def __repr__(self) -> str:
        return self.__str__()
