"""A table of rows (``kind = "rows"``) and the result views that show keyed members as lists of (lists of) tuples and
two-index predicates as sets (``lists``, ``sets``): mlsysim_symbolic/spec/rows.py and spec/result_sources.py, against
values computed by hand."""

from __future__ import annotations

import pytest

from mlsysim_symbolic.errors import DerivationError, InputError
from mlsysim_symbolic.scenario import scenario_class
from mlsysim_symbolic.spec import ScenarioType

EQ = "(c <= k) and (c >= k)"
TABLE = {"summary": "sums over a table", "inputs": {
    "table": {"kind": "rows", "index": "cell", "symbol": "v", "unit": "1", "domain": "(-inf, inf)", "cell_row": "r",
              "cell_column": "c", "rows": {"row": "w"}, "rows_but_last": {"step": "j"}, "columns": {"col": "k"}}},
    "outputs": {"column_sum": {"unit": "1", "style": "dict", "equation": f"sum(v * piecewise(1, {EQ}, 0), cell)"},
                "row_sum": {"symbol": "R", "unit": "1", "equation": "sum(v * piecewise(1, (r <= w) and (r >= w), 0), cell)"},
                "row_number": {"unit": "1", "equation": "w"},
                # the cell (s, k) plus the one below it: keyed by step s and column k
                "pair": {"unit": "1", "equation": f"sum(v * piecewise(1, {EQ} and (r >= j) and (r <= j + 1), 0), cell)"},
                "diagonal": {"unit": "1", "equation": "k + j"},
                "rows_count": {"symbol": "N", "unit": "1", "equation": "maximum(w, row) + 1"},
                "positive": {"kind": "predicate", "equation": "sum(v * piecewise(1, (r <= w) and (r >= w) and " + EQ +
                                                              ", 0), cell) > 0"}},
    "members": {"rows_as_tuples": {"parts": ["row_number", "row_sum"]},
                "pairs": {"parts": ["diagonal", "pair"]}},
    "result": {"name": "TableResult", "fields": ["rows_as_tuples", "column_sum", "positive", "pairs"],
               "lists": ["rows_as_tuples", "column_sum", "positive", "pairs"], "sets": {"positive": "col"}}}


#: A list of lists of tuples nests in the plan's index order, the keyed leaves' names sorted: the step's j before the
#: column's k, so pairs is a list over steps of lists over columns.


def table(raw=TABLE, **inputs):
    return scenario_class(ScenarioType.from_mapping("Table", raw))(**inputs)


def test_cells_rows_and_columns_by_hand():
    """[[1, -2, 3], [4, 5, -6], [0, 7, 8]]: columns 5, 10, 5; rows 2, 3, 15; cells above zero per row {0, 2}, {0, 1},
    {1, 2}; the pairs of rows (0, 1) and (1, 2) by column: (5, 3, -3) and (4, 12, 2), each beside its column plus step."""
    s = table(table=[[1, -2, 3], [4, 5, -6], [0, 7, 8]])
    assert {k: v.magnitude for k, v in s.column_sum.items()} == {0: 5, 1: 10, 2: 5}
    assert [s.row_sum(w).magnitude for w in range(3)] == [2, 3, 15]
    assert s.rows_count.magnitude == 3 and s.keys("step") == [0, 1] and s.keys("col") == [0, 1, 2]
    r = s.result
    assert r.rows_as_tuples == [(0, 2), (1, 3), (2, 15)]
    assert r.column_sum == [5, 10, 5]
    assert r.positive == [{0, 2}, {0, 1}, {1, 2}]
    assert r.pairs == [[(0, 5), (1, 3), (2, -3)], [(1, 4), (2, 12), (3, 2)]]


def test_one_row_has_no_steps():
    s = table(table=[[1, 2]])
    assert s.result.pairs == [] and s.result.rows_as_tuples == [(0, 3)]


@pytest.mark.parametrize(("value", "words"), [
    ([[1, 2], [3]], r"every row has the same length \(row 0 has 2 values, row 1 has 1\)"),
    ([], "non-empty list of non-empty lists"),
    ([[]], "non-empty list of non-empty lists"),
    ("1, 2", "expected a list of lists"),
    ([[1, "x"]], "table"),
])
def test_a_ragged_or_empty_table_is_refused(value, words):
    with pytest.raises(InputError, match=words):
        table(table=value)


def test_declarations_are_checked_at_load():
    bare = {**TABLE["inputs"]["table"]}
    for key in ("cell_row", "cell_column", "rows", "rows_but_last", "columns"):
        bare.pop(key)
    with pytest.raises(DerivationError, match="at least one of cell_row"):
        ScenarioType.from_mapping("Table", {"summary": "x", "inputs": {"table": bare}})
    with pytest.raises(DerivationError, match="is a table index"):
        ScenarioType.from_mapping("Table", {"summary": "x", "inputs": {"table": {**bare, "rows": ["w"]}}})
    bad_sets = {**TABLE, "result": {**TABLE["result"], "sets": {"column_sum": "col"}}}
    with pytest.raises(DerivationError, match="result.sets.column_sum: not a predicate output"):
        ScenarioType.from_mapping("Table", bad_sets)
