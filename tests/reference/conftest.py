"""The reference tests' comparisons are counted (``counting.py``): installed before any test module imports them."""

from .counting import install

install()
