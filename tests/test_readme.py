"""The README's Python examples run as doctests, and it holds exactly two set-up commands."""

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples_run():
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 6 and result.failed == 0


def test_readme_has_two_setup_commands():
    setup = README.read_text().split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)\n```", setup, re.S)
    assert len(commands) == 2
    assert "mlsysim-symbolic show DpSgdPerExampleGradients" in commands[0]
    assert "pytest" in commands[1]
    ci = (README.parent / ".ci" / "run").read_text()
    install = 'pip install -q -e ".[test]"'
    assert install in ci and "python -m pytest -q" in ci.split(install, 1)[1]   # the README's command (a check may run between)


def test_every_subpackage_is_installed_by_a_plain_install():
    """`pip install .` (the README's first command) installs only the packages pyproject lists: a subpackage
    missing there imports from a checkout but not from the installed wheel (found so: `printing` and `spec`)."""
    import tomllib

    root = README.parent
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {".".join(p.parent.relative_to(root).parts) for p in (root / "mlsysim_symbolic").rglob("__init__.py")}
    assert on_disk - listed == set()
