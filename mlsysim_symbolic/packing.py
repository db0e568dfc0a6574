"""First-fit decreasing bin packing as a function of the equation language, compiled: ``first_fit_decreasing(w, C, k)``.

The reduction ``first_fit_decreasing(w, C, k)`` (:class:`mlsysim_symbolic.reductions.FirstFitDecreasing`) is keyed by
the index ``k``: at the key in position ``b`` it is the load of bin ``b`` when the keys' sizes ``w`` are placed largest
first (ties in key order), each into the first bin whose load plus the size is at most ``C`` (Johnson, Demers, Ullman,
Garey and Graham 1974, SIAM J. Comput. 3(4): at most 11/9 of the optimal count plus 4); bins past the last one used
hold 0.  Loads and sizes are compared as given (exactly for whole numbers, as mlsysim's integer lengths).  There are at most as many bins as keys, so the
bins are numbered by the index's own positions.  The plan writes it out over the bound keys as one node per bin,
:class:`first_fit_load` ``(b, C, w_1, ..., w_n)``: a flat function of the sizes, not a tree of the placements (the
placement is a scan over the sorted sizes whose state is every bin's load; written out as nested piecewise terms it
grows exponentially with the keys).  Its value is piecewise constant in where each size lands: the derivative in
``w_k`` is :class:`first_fit_share` (1 where key k lands in bin b, else 0) and in ``C`` is 0 almost everywhere.
A size above ``C`` fits no bin: the value is NaN (refused as not a number), never a load above the capacity.

>>> first_fit_loads([32768, 8192, 4096, 2048, 1024, 1024, 512, 512], 32768)
[32768, 17408]
>>> first_fit_loads([5, 7, 5, 3, 4], 10)     # 7 -> bin 1; 5, 5 -> bin 2; 4 -> bin 3 (7 + 4 > 10); 3 -> bin 1
[10, 10, 4]
>>> first_fit_load(3, 10, 5, 7, 5, 3, 4), first_fit_load(4, 10, 5, 7, 5, 3, 4)
(4, 0)
>>> first_fit_share(1, 4, 10, 5, 7, 5, 3, 4), first_fit_share(2, 1, 10, 5, 7, 5, 3, 4), first_fit_share(1, 1, 10, 5, 7, 5, 3, 4)
(1, 1, 0)
>>> first_fit_load(1, 10, 5, 11)      # a size above the capacity fits no bin
nan
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy


def _placements(sizes: Sequence[Any], capacity: Any) -> tuple[list[Any], list[int]] | None:
    """The bins' loads and each size's bin (0 for the first), sizes taken largest first (a stable sort: ties in
    their given order), each into the first bin with room; None where a size exceeds the capacity or is not a number."""
    order = sorted(range(len(sizes)), key=lambda i: -sizes[i])
    loads: list[Any] = []
    where = [0] * len(sizes)
    for i in order:
        size = sizes[i]
        if not size <= capacity:   # NaN too
            return None
        for b, load in enumerate(loads):
            if load + size <= capacity:
                loads[b] = load + size
                where[i] = b
                break
        else:
            where[i] = len(loads)
            loads.append(size)
    return loads, where


def first_fit_loads(sizes: Sequence[Any], capacity: Any) -> list[Any]:
    """The loads of the bins first-fit decreasing uses, in bin order (mlsysim's ``calc_first_fit_decreasing``)."""
    placed = _placements(list(sizes), capacity)
    if placed is None:
        raise ValueError("a size is larger than the capacity")
    return placed[0]


def first_fit_load_scalar(b: Any, capacity: Any, *sizes: Any) -> float:
    """The load of bin ``b`` (1 for the first), 0 past the last used, NaN where a size exceeds the capacity."""
    placed = _placements(sizes, capacity)
    if placed is None:
        return float("nan")
    loads = placed[0]
    b = int(b)
    return loads[b - 1] if 1 <= b <= len(loads) else 0


def first_fit_share_scalar(b: Any, k: Any, capacity: Any, *sizes: Any) -> float:
    """1 where size ``k`` (1 for the first, in the given order) lands in bin ``b``, else 0 (NaN as the load)."""
    placed = _placements(sizes, capacity)
    if placed is None:
        return float("nan")
    return 1 if placed[1][int(k) - 1] == int(b) - 1 else 0


def _numbers(args: Sequence[Any]) -> bool:
    return all(isinstance(a, sympy.Number) and a.is_finite for a in args)


def _evaluated(scalar: Any, args: Sequence[Any], least: int, takes: str) -> Any:
    """A packing node's value where every argument is a number (NaN where a size exceeds the capacity), else None
    (the node stays symbolic); fewer than ``least`` arguments is refused."""
    if len(args) < least:
        raise TypeError(f"{scalar.__name__.removesuffix('_scalar')} takes {takes}")
    if not _numbers(args):
        return None
    value = scalar(*args)
    if value != value:
        return sympy.nan
    if isinstance(value, sympy.Basic):   # sums of the sympy numbers given stay exact
        return value
    return sympy.Integer(value) if isinstance(value, int) else sympy.Float(value)


class first_fit_load(sympy.Function):  # noqa: N801 - the name the code printer writes
    """``first_fit_load(b, C, w_1, ..., w_n)``: bin ``b``'s load under first-fit decreasing of the sizes into bins of
    capacity ``C``; evaluated where every argument is a number, derivative :class:`first_fit_share` in each size."""

    @classmethod
    def eval(cls, *args: Any) -> Any:
        return _evaluated(first_fit_load_scalar, args, 3, "a bin, a capacity and at least one size")

    def fdiff(self, argindex: int = 1) -> Any:
        if argindex <= 2:   # the bin number; the capacity moves a size only where it changes bins (a step)
            return sympy.Integer(0)
        b, capacity, *sizes = self.args
        return first_fit_share(b, argindex - 2, capacity, *sizes)

    def _eval_evalf(self, prec: int) -> Any:
        values = [a.evalf(prec) for a in self.args]
        if not _numbers(values):
            return None
        return sympy.Float(first_fit_load_scalar(*values), precision=prec)

    def _latex(self, printer: Any) -> str:
        b, capacity, *sizes = (printer._print(a) for a in self.args)
        return rf"\operatorname{{FFD}}_{{{b}}}\left({', '.join(sizes)};\ {capacity}\right)"


class first_fit_share(sympy.Function):  # noqa: N801 - the name the code printer writes
    """``first_fit_share(b, k, C, w_1, ..., w_n)``: 1 where size ``k`` lands in bin ``b`` under first-fit decreasing,
    else 0 (the derivative of bin b's load in size k); piecewise constant, its own derivative 0."""

    @classmethod
    def eval(cls, *args: Any) -> Any:
        return _evaluated(first_fit_share_scalar, args, 4, "a bin, a size's position, a capacity and at least one size")

    def fdiff(self, argindex: int = 1) -> Any:
        return sympy.Integer(0)

    def _latex(self, printer: Any) -> str:
        b, k, capacity, *sizes = (printer._print(a) for a in self.args)
        return rf"\left[{k} \in \operatorname{{FFD}}_{{{b}}}\left({', '.join(sizes)};\ {capacity}\right)\right]"


#: The function classes the compiled code calls, and their scalar and array forms by name.
CLASSES = (first_fit_load, first_fit_share)
SCALAR: dict[str, Any] = {"first_fit_load": first_fit_load_scalar, "first_fit_share": first_fit_share_scalar}
ARRAY: dict[str, Any] = {name: np.vectorize(fn, otypes=[float]) for name, fn in SCALAR.items()}
