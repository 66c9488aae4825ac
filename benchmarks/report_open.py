#!/usr/bin/env python3
"""The HTML report of a large theory: made, opened in headless Chromium and searched.

By default the theory is the 371,041-rule object-recognition conversion (two clusters,
k = 2, as the ``read`` workloads make it; converting it first takes about a minute and
is not timed).  Printed beside their references: making the page (whole process,
``pracmln-poss report``) beside reading the same theory with ``show`` (whole process);
opening the page (from navigation to the first rows on screen, the page's own
``report-ready`` mark) beside the 3 s target; a search as typed (until the count of
matching rules is on screen).

    python benchmarks/report_open.py [--theory FILE] [--search TEXT] [--repeat 3]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from workloads import _OR2, _read, user_seconds  # noqa: E402

TARGET_OPEN = 3.0
"""Seconds from navigation to the first rows on screen (#39)."""


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1280,900"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


def open_and_search(page: Path, search: str) -> tuple[float, float, str]:
    """Seconds to the first rows on screen, seconds for the search, and the count shown."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = browser()
    try:
        driver.get(page.resolve().as_uri())
        WebDriverWait(driver, 120).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
        opened = driver.execute_script("return performance.getEntriesByName('report-ready')[0].startTime") / 1000
        before = driver.find_element(By.ID, "count").text
        start = time.perf_counter()
        driver.find_element(By.ID, "search").send_keys(search)
        WebDriverWait(driver, 120, poll_frequency=0.01).until(
            lambda d: d.find_element(By.ID, "count").text != before)
        searched = time.perf_counter() - start
        return opened, searched, driver.find_element(By.ID, "count").text
    finally:
        driver.quit()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--theory", type=Path, help="a theory file (default: the 371,041-rule conversion)")
    parser.add_argument("--search", default="object(c1,Spatula)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pracmln-poss-report-") as tmp:
        theory = args.theory or Path(_read(_OR2, "report")(Path(tmp))[1])
        page = Path(tmp) / "report.html"
        shown = [user_seconds(["show", str(theory)]) for _ in range(args.repeat)]
        made = [user_seconds(["report", str(theory), "-o", str(page)]) for _ in range(args.repeat)]
        runs = [open_and_search(page, args.search) for _ in range(args.repeat)]
        size = page.stat().st_size
    print(f"theory: {theory.name}; page: {size / 1e6:.1f} MB; median of {args.repeat}, whole process (user CPU s)")
    print(f"{'':44}{'report':>10}{'reference':>12}")
    print(f"{'make the page (report) | read it (show)':44}{statistics.median(made):>10.2f}"
          f"{statistics.median(shown):>12.2f}")
    print(f"{'open in Chromium, to first rows (s) | target':44}{statistics.median(r[0] for r in runs):>10.2f}"
          f"{TARGET_OPEN:>12.2f}")
    print(f"{'search ' + repr(args.search) + ' (s, wall)':44}{statistics.median(r[1] for r in runs):>10.2f}"
          f"{'':>12}")
    print(f"found: {runs[-1][2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
