"""The docs site as a reader's browser shows it: headless Chromium renders the pages offline, and MathJax (the copy
shipped with the site) typesets every formula without an error (marker ``browser``: skips without Chromium;
``.ci/run`` installs Debian's and requires these to run).

The pages are those that broke: MathJax gave up ("internal buffer size exceeded") on the worked examples of
DistributedTrainingStepScenario and KvAttentionDesignScenario, and read the prose dollar amounts of
ActiveLearningBudgetScenario ("scoring at $0.01 an image and labels at $0.50", derivations/agents_*.toml) as maths.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from mlsysim_symbolic.docs import build_reference

pytestmark = pytest.mark.browser

HARD = ("DistributedTrainingStepScenario", "KvAttentionDesignScenario", "ActiveLearningBudgetScenario",
        "PerExampleGradientScenario")
#: MathJax's SVG output marks a formula it could not typeset with an merror node (red text on yellow); its style
#: sheet names the node too, so the element is what is looked for.
MATH_ERROR = re.compile(r'<g\b[^>]*data-mml-node="merror"[^>]*>')


def _chromium() -> str:
    found = next((shutil.which(p) for p in ("chromium", "chromium-browser", "google-chrome") if shutil.which(p)), None)
    assert found, "no Chromium"
    return found


def rendered(page: Path) -> str:
    """The page's DOM once MathJax has run: headless Chromium, no network (the page is a file), 60 s of virtual time
    for the scripts' timers."""
    done = subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=60000",
                           "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and "<body" in done.stdout, done.stderr[-2000:]
    return done.stdout


def visible(dom: str) -> str:
    """The DOM without its scripts, styles and typeset maths (what is left is text a reader sees as typed)."""
    for tag in ("script", "style", "mjx-container"):
        dom = re.sub(rf"<{tag}\b.*?</{tag}>", " ", dom, flags=re.S | re.I)
    return re.sub(r"<[^>]+>", " ", dom)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("browser-site")
    build_reference(out, types=HARD)
    return out / "reference"


@pytest.mark.parametrize("name", [*HARD, "solvers", "applications", "index"])
def test_every_formula_of_the_hardest_pages_renders(reference, name):
    md = (reference / f"{name}.md").read_text(encoding="utf-8")
    dom = rendered(reference / f"{name}.html")
    assert not MATH_ERROR.search(dom), f"{name}: MathJax shows an error: {MATH_ERROR.search(dom).group(0)[:300]}"
    text = visible(dom)
    assert "$$" not in text, f"{name}: a display formula left as typed"
    displays = md.count("$$") // 2
    assert dom.count("<mjx-container") >= displays, f"{name}: {dom.count('<mjx-container')} formulas typeset of {displays}"


def test_prose_dollars_show_as_amounts_not_maths(reference):
    text = " ".join(visible(rendered(reference / "ActiveLearningBudgetScenario.html")).split())
    # (MathJax shows each escaped dollar as text in a span of its own: a tag boundary, read here as a space)
    assert re.search(r"scoring at \$ ?0\.01 an image and labels at \$ ?0\.50", text), text[:500]


@pytest.mark.xdist_group("docs_site")
def test_every_notebook_renders_its_maths(docs_site):
    out, _ = docs_site
    for page in sorted((out / "notebooks").glob("*.html")):
        dom = rendered(page)
        assert not MATH_ERROR.search(dom), f"{page.name}: MathJax shows an error: {MATH_ERROR.search(dom).group(0)[:300]}"
        assert "<mjx-container" in dom, f"{page.name}: no formula typeset (MathJax did not run)"
