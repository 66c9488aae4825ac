"""The HTML report as a person sees it: loaded from the file in headless Chromium (Debian's
package, driven by its chromedriver through Selenium), read, searched, narrowed, scrolled
and clicked.  A screenshot of each report's first screen is kept in ``test-artifacts/``
(``PRACMLN_POSS_ARTIFACTS`` to put it elsewhere).

Where Chromium is missing these tests skip, saying how to install it (the test command
changes nothing outside the project), except under CI, where they fail
(``PRACMLN_POSS_REQUIRE_BROWSER=1`` or ``CI``: ``.ci/run`` installs it first, with
``tools/install_browser.py``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pracmln_poss.formats import load_theory
from pracmln_poss.insight.report import report_html
from pracmln_poss.insight.show import BLOCKING_NOTE
from pracmln_poss.logic.formula import Atom, Implies
from pracmln_poss.possibilistic import PossibilisticFormula, PossibilisticTheory

from .support import ANTARCTIC, PAPER, ROOT, run_cli

ARTIFACTS = Path(os.environ.get("PRACMLN_POSS_ARTIFACTS") or ROOT / "test-artifacts")

INSTALL = ("Debian's chromium and chromium-driver: sudo apt-get install chromium chromium-driver, "
           "or as root python3 tools/install_browser.py")
"""How to enable these tests, as a skip or a failure says it."""
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1280,900")
"""Headless, as root, on a machine with no network: without the background-networking
flags Chromium's connections are refused, many at a time."""


def _unlimited_address_space() -> None:
    """Lift ``ulimit -S -v`` for the browser: CI holds the suite's processes to 2 GB of
    address space, and Chromium reserves more than that at start-up (the browser is not
    ours; the hard limit, which cannot be lifted, is left)."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (resource.getrlimit(resource.RLIMIT_AS)[1],) * 2)


def _required() -> bool:
    return bool(os.environ.get("PRACMLN_POSS_REQUIRE_BROWSER") or os.environ.get("CI"))


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium, driven by Selenium (one per module: starting it takes a second)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    webdriver = None
    try:
        from selenium import webdriver
    except ImportError as exc:
        problem = f"selenium cannot be imported: {exc}"
    else:
        problem = "" if chromium and driver_path else "Chromium or chromedriver is not installed"
    if problem:
        if _required():
            pytest.fail(f"{problem}; install {INSTALL}")
        pytest.skip(f"{problem}; to run these tests, install {INSTALL}")
    from selenium.webdriver.chrome.service import Service

    assert webdriver is not None and chromium and driver_path
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    # (a given driver: nothing fetched; the browser is not ours, so not held to the address
    # space the suite's own process is held to, where the limit may be lifted)
    service = Service(driver_path, popen_kw={"preexec_fn": _unlimited_address_space})
    driver = webdriver.Chrome(service=service, options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _open(browser, page: Path, shot: str | None = None, scripted: bool = True):
    """The page loaded (``scripted``: once its script says it is ready), its first screen
    kept as ``shot``."""
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(page.resolve().as_uri())
    ready = "return document.body.dataset.ready === '1'" if scripted else "return document.readyState === 'complete'"
    WebDriverWait(browser, 30).until(lambda d: d.execute_script(ready))
    if shot:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(ARTIFACTS / shot))
    return browser


def _by_id(browser, name: str):
    from selenium.webdriver.common.by import By

    return browser.find_element(By.ID, name)


def _rows(browser) -> list[str]:
    """The rows on screen, top to bottom, as a person reads them (one round trip)."""
    return browser.execute_script(
        "return [...document.querySelectorAll('#rules .row')].filter((e) => e.offsetParent !== null)"
        ".sort((a, b) => a.offsetTop - b.offsetTop).map((e) => e.innerText);")


def _wait_count(browser, text: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 30).until(lambda d: _by_id(d, "count").text == text)


def test_the_antarctic_report_reads_as_the_readme_says(browser, tmp_path):
    theory_file, page = tmp_path / "antarctic.theory", tmp_path / "antarctic.html"
    assert run_cli("convert", ANTARCTIC, "--method", "defaults", "-k", "2", "-o", theory_file)[0] == 0
    assert run_cli("report", theory_file, "--mln", ANTARCTIC, "-o", page)[0] == 0
    _open(browser, page, "report-antarctic.png")
    assert browser.title == "antarctic.theory"
    digest = _by_id(browser, "digest").text
    # a bird flies by default; an antarctic bird too, at level 5 (against the reading of
    # 5 antarcticBird(x) => !flies(x), which the digest flags first)
    assert "if bird(Tweety): flies(Tweety) [lambda_0]" in digest
    assert "if antarcticBird(Tweety): bird(Tweety), flies(Tweety) [lambda_5]" in digest
    assert digest.index("flagged (1):") < digest.index("with no evidence")
    assert _by_id(browser, "count").text == "7 of 7 rules"
    rows = _rows(browser)
    assert rows[0] == "level lambda_0" and rows[-2] == "certain"
    flagged = [r for r in rows if r.startswith("\u26a0")]
    assert flagged == ["\u26a0 if antarcticBird(Tweety) then bird(Tweety) and flies(Tweety)  "
                       "from: {antarcticBird(Tweety)}"]
    # the flagged rule, clicked: its level, evidence set and warning
    from selenium.webdriver.common.by import By

    browser.find_element(By.CSS_SELECTOR, "#rules .flagged").click()
    detail = _by_id(browser, "detail").text
    assert detail.startswith("level lambda_5\nif antarcticBird(Tweety) then bird(Tweety) and flies(Tweety)\n")
    assert "overturns the MLN formula 5 antarcticBird(Tweety) => !flies(Tweety)" in detail
    # the blocking rule says it concludes nothing
    browser.find_element(By.XPATH, "//div[contains(@class,'rule')][contains(., '(blocking)')]").click()
    assert BLOCKING_NOTE in _by_id(browser, "detail").text
    # searched as typed; then only the flagged
    _by_id(browser, "search").send_keys("!flies")
    _wait_count(browser, "3 of 7 rules")
    assert all("!flies(Tweety)" in r for r in _rows(browser) if not r.startswith("level"))
    _by_id(browser, "flagged").click()
    _wait_count(browser, "0 of 7 rules")
    assert _rows(browser) == []


def test_the_cora_report_finds_a_rule_by_search_level_and_predicate(browser, tmp_path):
    from selenium.webdriver.support.ui import Select

    from .test_report import page_data

    theory_file = ROOT / "tests" / "golden" / "cora-k2-conservative.theory"
    page = tmp_path / "cora.html"
    assert run_cli("report", theory_file, "-o", page, "--query-preds", "category")[0] == 0
    _open(browser, page, "report-cora-k2.png")
    data = page_data(page.read_text(encoding="utf-8"))
    n = len(load_theory(theory_file, ground=False))
    assert _by_id(browser, "count").text == f"{n} of {n} rules"
    assert "with no evidence (2 rules):" in _by_id(browser, "digest").text

    def matching(keep) -> list[str]:
        return [("\u26a0 " if str(i) in data["flags"] else "") + f"{text}  from: {data['origin_text'][i]}"
                for i, text in enumerate(data["text"]) if keep(i)]

    search = "!category(pa1,Ai) then"
    _by_id(browser, "search").send_keys(search)
    found = matching(lambda i: search.lower() in data["text"][i].lower())
    _wait_count(browser, f"{len(found)} of {n} rules")
    assert "if !category(pa1,Ai) then category(pa1,Prog)  from: {!category(PossPaper,Ai)}" in found
    assert [r for r in _rows(browser) if not r.startswith("level ")] == found
    # narrowed to a level and a predicate instead of the search
    _by_id(browser, "search").clear()
    _by_id(browser, "search").send_keys(" ")
    Select(_by_id(browser, "level")).select_by_visible_text("lambda_0.25")
    Select(_by_id(browser, "pred")).select_by_visible_text("wrote")
    level, pred = data["levels"].index("lambda_0.25"), data["preds"].index("wrote")
    found = matching(lambda i: data["level"][i] == level and pred in data["rule_tags"][i])
    _wait_count(browser, f"{len(found)} of {n} rules")
    assert _rows(browser) == ["level lambda_0.25", *found]
    assert found[0].startswith("\u26a0 if !category(pa1,Ai) and wrote(pe1,pa2) then !wrote(pe1,pa1)")
    _by_id(browser, "const").send_keys("Prog")
    const = len(data["preds"]) + data["consts"].index("Prog")
    found = matching(lambda i: data["level"][i] == level and {pred, const} <= set(data["rule_tags"][i]))
    _wait_count(browser, f"{len(found)} of {n} rules")
    _by_id(browser, "const").send_keys("x")
    _wait_count(browser, f"0 of {n} rules (no constant Progx)")


def test_a_large_theory_lays_out_only_the_rows_on_screen(browser, tmp_path):
    n = 60_000
    atoms = tuple(f"{p}(C{i})" for i in range(n) for p in "pq")
    theory = PossibilisticTheory(atoms, tuple(PossibilisticFormula(Implies(Atom(2 * i + 1), Atom(2 * i + 2)), i // 1000)
                                              for i in range(n)))
    page = tmp_path / "large.html"
    page.write_text(report_html(theory, title="large"), encoding="utf-8")
    _open(browser, page, "report-large.png")
    assert _by_id(browser, "count").text == f"{n:,} of {n:,} rules"
    from selenium.webdriver.common.by import By

    assert len(browser.find_elements(By.CSS_SELECTOR, "#rules .row")) < 100
    browser.execute_script("const b = document.getElementById('rules'); b.scrollTop = b.scrollHeight;")
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(lambda d: _rows(d) and _rows(d)[-1] == f"if p(C{n - 1}) then q(C{n - 1})")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#rules .row")) < 100
    # a search link (report.html#search=...) opens narrowed
    browser.get(page.resolve().as_uri() + "#search=p(C59998)")
    browser.refresh()
    _wait_count(browser, f"1 of {n:,} rules")


def test_the_sweep_page_shows_the_sizes_a_plot_and_what_changes(browser, tmp_path):
    """``sweep --report`` of the paper's smokers over 1 to 4 persons: the table a row per
    size (the rows from which nothing changes marked), the plot a point per size, what
    holds with no evidence, the changes from 1 to 2; nothing fetched, no script."""
    page = tmp_path / "sweep.html"
    code, out, err = run_cli("sweep", PAPER / "smokers.mln", "--domain-size", "person=1..4", "-k", "1", "--report", page,
                             "--quiet")
    assert code == 0, err
    _open(browser, page, "sweep-smokers.png", scripted=False)
    from selenium.webdriver.common.by import By

    rows = [r.text for r in browser.find_elements(By.CSS_SELECTOR, "#sizes tr")]
    assert rows[0].split() == ["size", "rules", "levels", "certain", "gained", "lost", "moved"]
    assert [r.split(" 4 ")[0] if r.startswith("person=1") else r.split(")")[0] + ")" for r in rows[1:]] == [
        "person=1", "person=2 .. person=4 (3 sizes)"]  # (sizes that change nothing: one row)
    stable = [r.text for r in browser.find_elements(By.CSS_SELECTOR, "#sizes tr.stable")]
    assert len(stable) == 1 and stable[0].startswith("person=2 .. person=4")
    assert _by_id(browser, "stable").text.startswith("From person=2 on, nothing changes up to person=4")
    points = browser.find_elements(By.CSS_SELECTOR, "#plot circle")
    assert len(points) == 4 and _by_id(browser, "plot").size["width"] > 300
    ys = [float(p.get_attribute("cy")) for p in points]
    assert ys[0] > ys[1] == ys[2] == ys[3]  # (more rules from 2 persons on: higher on the page)
    headings = [h.text for h in browser.find_elements(By.TAG_NAME, "h2")]
    assert "From person=1 to person=2" in headings and "From person=2 to person=3" not in headings
    assert not browser.find_elements(By.TAG_NAME, "script")
