"""Distributions of an uncertain input: one class per law, registered in one table.

Each law says how its parameters are read (``value``: a value in the input's unit; ``spread``: a difference in
that unit; ``plain``: a plain number), what makes them valid, its mean and standard deviation, how it draws, and
how SALib names it (``problem["dists"]`` and the parameters SALib takes in ``problem["bounds"]``).  Parameters
are in base units.  Adding a law is a subclass here plus a line in :data:`DISTRIBUTIONS` (and a word in the
docstring of :func:`mlsysim_symbolic.sensitivity.distribution`).

>>> sorted(DISTRIBUTIONS)
['lognormal', 'normal', 'triangular', 'uniform']
>>> law = DISTRIBUTIONS["triangular"]
>>> law.form, law.mean((0.0, 3.0, 6.0)), law.salib((0.0, 3.0, 6.0))
('triangular(low, mode, high)', 3.0, ('triang', [0.0, 6.0, 0.5]))
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from .errors import InputError

Params = tuple[float, ...]


class Law:
    """A kind of distribution. Subclasses set :attr:`name`, :attr:`parameters`, :attr:`reads` and :attr:`salib_name`
    and override the methods."""

    name: ClassVar[str] = ""
    parameters: ClassVar[tuple[str, ...]] = ()   # their names, in order
    reads: ClassVar[tuple[str, ...]] = ()        # how each is read: "value", "spread" or "plain"
    salib_name: ClassVar[str] = ""               # SALib's name in problem["dists"]

    @property
    def form(self) -> str:
        """How the law is written: ``normal(mean, sd)``."""
        return f"{self.name}({', '.join(self.parameters)})"

    def check(self, values: Params, given: list[Any], name: str) -> None:
        """Refuse parameters that make no distribution (``given``: as the user wrote them, for the message)."""

    def mean(self, p: Params) -> float:
        raise NotImplementedError

    def sd(self, p: Params) -> float:
        raise NotImplementedError

    def draw(self, rng: np.random.Generator, p: Params, n: int) -> np.ndarray:
        """``n`` draws (before truncation to the input's domain)."""
        raise NotImplementedError

    def salib(self, p: Params) -> tuple[str, list[float]]:
        """SALib's ``(dists entry, bounds entry)`` for these parameters."""
        return self.salib_name, [float(v) for v in p]


class Uniform(Law):
    """Every value between ``low`` and ``high`` alike; ``(low, high)`` alone means this law."""

    name = "uniform"
    parameters = ("low", "high")
    reads = ("value", "value")
    salib_name = "unif"

    def check(self, values: Params, given: list[Any], name: str) -> None:
        if not values[0] < values[-1]:
            raise InputError(f"{name}: low must be below high, got {given}")

    def mean(self, p: Params) -> float:
        return (p[0] + p[1]) / 2

    def sd(self, p: Params) -> float:
        return (p[1] - p[0]) / math.sqrt(12)

    def draw(self, rng: np.random.Generator, p: Params, n: int) -> np.ndarray:
        return rng.uniform(p[0], p[1], n)


class Normal(Law):
    """Gaussian with ``mean`` and standard deviation ``sd`` (a spread in the input's unit)."""

    name = "normal"
    parameters = ("mean", "sd")
    reads = ("value", "spread")
    salib_name = "norm"

    def check(self, values: Params, given: list[Any], name: str) -> None:
        if not values[1] > 0:
            raise InputError(f"{name}: the standard deviation of a normal distribution must be > 0, got {given[1]}")

    def mean(self, p: Params) -> float:
        return p[0]

    def sd(self, p: Params) -> float:
        return p[1]

    def draw(self, rng: np.random.Generator, p: Params, n: int) -> np.ndarray:
        return rng.normal(p[0], p[1], n)


class Triangular(Law):
    """Rising from ``low`` to ``mode`` and falling to ``high``."""

    name = "triangular"
    parameters = ("low", "mode", "high")
    reads = ("value", "value", "value")
    salib_name = "triang"

    def check(self, values: Params, given: list[Any], name: str) -> None:
        if not values[0] < values[-1]:
            raise InputError(f"{name}: low must be below high, got {given}")
        if not values[0] <= values[1] <= values[2]:
            raise InputError(f"{name}: the mode of a triangular distribution must lie between low and high, got {given}")

    def mean(self, p: Params) -> float:
        return sum(p) / 3

    def sd(self, p: Params) -> float:
        a, c, b = p
        return math.sqrt((a * a + b * b + c * c - a * b - a * c - b * c) / 18)

    def draw(self, rng: np.random.Generator, p: Params, n: int) -> np.ndarray:
        return rng.triangular(p[0], p[1], p[2], n)

    def salib(self, p: Params) -> tuple[str, list[float]]:
        low, mode, high = p   # SALib: lower bound, upper bound, the peak as a fraction of the width
        return self.salib_name, [float(low), float(high), float((mode - low) / (high - low))]


class LogNormal(Law):
    """``median * exp(N(0, sigma))``: ``sigma`` is the standard deviation of the logarithm (a plain number)."""

    name = "lognormal"
    parameters = ("median", "sigma")
    reads = ("value", "plain")
    salib_name = "lognorm"

    def check(self, values: Params, given: list[Any], name: str) -> None:
        if values[1] <= 0:
            raise InputError(f"{name}: lognormal sigma must be > 0, got {given[1]}")

    def mean(self, p: Params) -> float:
        return p[0] * math.exp(p[1] ** 2 / 2)

    def sd(self, p: Params) -> float:
        m, s = p
        return m * math.sqrt((math.exp(s * s) - 1) * math.exp(s * s))

    def draw(self, rng: np.random.Generator, p: Params, n: int) -> np.ndarray:
        return p[0] * np.exp(rng.normal(0.0, p[1], n))

    def salib(self, p: Params) -> tuple[str, list[float]]:
        return self.salib_name, [math.log(p[0]), float(p[1])]   # SALib: the mean and sd of the logarithm


#: Every distribution, by the name an uncertain input gives as its first element: ``("normal", mean, sd)``.
DISTRIBUTIONS: dict[str, Law] = {law.name: law for law in (Normal(), Uniform(), Triangular(), LogNormal())}


def law_of(name: str) -> Law:
    """The :class:`Law` called ``name``.

    >>> law_of("normal").sd((5.0, 2.0))
    2.0
    """
    return DISTRIBUTIONS[name]
