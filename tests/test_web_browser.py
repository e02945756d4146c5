"""`aslrules serve` in a real browser (issue 19): Debian's Chromium, driven by Playwright's Python API
through its executable path (no browser is downloaded).  Each test starts `aslrules serve` on a
copy of its files, drives the page as a player would and saves a screenshot into
$ASLRULES_SCREENSHOTS (default: `screenshots/` under pytest's base temporary directory, printed
at the end of the run with -rs or in each test's output).

Without Chromium or Playwright the tests skip, saying how to install them:
`apt-get install chromium` (Debian) or ASLRULES_CHROMIUM=/path/to/chromium, and
`pip install ".[test]"`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("ASLRULES_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
TIMEOUT = 60_000  # ms: a question takes a second or two on a loaded 2-core machine


def _need_browser() -> Any:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the browser tests need playwright: pip install '.[test]'")
    if not os.path.isfile(CHROMIUM) or not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"the browser tests need Chromium ({CHROMIUM} not found): apt-get install chromium (Debian), "
                    "or set ASLRULES_CHROMIUM to a Chromium binary")
    pytest.importorskip("bottle", reason="the web extra is not installed: pip install '.[test]'")
    return sync_playwright


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_playwright = _need_browser()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = Path(os.environ.get("ASLRULES_SCREENSHOTS") or tmp_path_factory.getbasetemp() / "screenshots")
    where.mkdir(parents=True, exist_ok=True)
    return where


class Server:
    """`aslrules serve TARGET --port 0` in a process of its own: the address it prints."""

    def __init__(self, target: Path):
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        rulings = target.parent / "rulings"  # one small ruling, not the repo's whole corpus
        rulings.mkdir(exist_ok=True)
        shutil.copy(ROOT / "tests" / "data" / "rulings" / "report" / "T1.yaml", rulings)
        self.proc = subprocess.Popen([sys.executable, "-m", "aslrules", "serve", str(target), "--port", "0",
                                      "--rulings", str(rulings)],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if not found:
            self.stop()
            err = self.proc.stderr.read() if self.proc.stderr else ""
            raise AssertionError(f"aslrules serve did not start: {line!r} {err}")
        self.url = found.group()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    servers: list[Server] = []

    def start(*files: Path, name: str | None = None) -> tuple[str, Path]:
        for f in files:
            shutil.copy(f, tmp_path / f.name)
        s = Server(tmp_path)
        servers.append(s)
        return s.url + (f"#file={name}" if name else ""), tmp_path

    yield start
    for s in servers:
        s.stop()


def _page(browser: Any) -> Any:
    page = browser.new_page(viewport={"width": 1400, "height": 860})
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def _open(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")


def _shot(page: Any, shots: Path, name: str) -> Path:
    path = shots / name
    page.screenshot(path=str(path))
    print(f"screenshot: {path}")
    assert path.stat().st_size > 10_000
    return path


def test_click_the_german_squad(browser: Any, serve: Any, shots: Path) -> None:
    """A8.41 EX (seed 004): the 4-6-7 and its LMG, directed by the 8-1, First Fire at the 6-2-8 in
    W2 with 14 FP and a -3 DRM (-1 leadership, -1 FFMO, -1 FFNAM).  Open the EX's situation, click
    the German squad, open that attack: its figures and reasons, each rule id a link to its
    statement."""
    url, _ = serve(ROOT / "examples" / "a8_41_ex_case.yaml", ROOT / "examples" / "berserk_charge.yaml",
                   name="a8_41_ex_case.yaml")
    page = _page(browser)
    _open(page, url)
    # the map: the squad's counter in X2, the mover in W2 and the hexside it crossed
    assert page.locator('[data-unit="g-467"] text.values').text_content() == "4-6-7"
    assert page.locator("line.crossed").count() == 1
    page.click('[data-unit="g-467"]')
    card = page.locator('.answer[data-fp="14"][data-drm="-3"]').first
    card.wait_for()
    assert card.get_attribute("data-verdict") == "allowed"
    if card.get_attribute("open") is None:
        card.locator("summary").click()
    body = card.locator(".body").inner_text()
    for text in ("FP: 14", "IFT column: 12", "DRM: −3", "A7.53: g-81 directs the attack (leadership -1)",
                 "A8.13: FFMO: r-628 moves in Open Ground in W2", "A8.13: FFNAM: r-628 moves without Assault Movement",
                 "A8.1: r-628 expends MF in W2, in LOS of the firers", "A7.21: PBF"):
        assert text in body, text
    shot = _shot(page, shots, "ask_8_41_ex.png")
    # a rule id leads to its statement (rules-in-scope.md) and the rulings that bear on it
    card.locator('a.rule[data-rule="A8.1"]').first.click()
    page.wait_for_selector("#tab-rule .statement")
    assert "Defensive First Fire only in the ATTACKER's MPh" in page.locator("#tab-rule").inner_text()
    page.wait_for_selector('#tab-rule .ruling[data-ruling="T1"] .check.holds')  # as aslrules rulings says
    # the first load: the page, its script and style, the schema, the file and the rules
    size = page.evaluate("""() => performance.getEntriesByType('navigation')
                                  .concat(performance.getEntriesByType('resource'))
                                  .reduce((n, e) => n + (e.encodedBodySize || 0), 0)""")
    print(f"first load and one question: {size} bytes")
    assert 0 < size < 300_000
    assert page.errors == []
    # the situation the README uses (8.41 EX, no question stated): the listing of this tree
    page.goto(url.replace("a8_41_ex_case.yaml", "berserk_charge.yaml"))
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.click('[data-unit="g-467"]')
    page.wait_for_selector("#tab-attacks .answers")
    cards = page.locator("#tab-attacks .answer")
    listed = [cards.nth(i).get_attribute("data-verdict") for i in range(cards.count())]
    assert listed, "the listing of the German squad's attacks"
    _shot(page, shots, "ask_listing_berserk_charge.png")
    assert shot.exists()


def test_listing_shows_the_fire_group(browser: Any, serve: Any, shots: Path) -> None:
    """The listing forms Fire Groups with their directing leader: the 8.41 EX attack (14 FP, -3) is
    among the German squad's attacks of examples/berserk_charge.yaml without any question stated."""
    url, _ = serve(ROOT / "examples" / "berserk_charge.yaml", name="berserk_charge.yaml")
    page = _page(browser)
    _open(page, url)
    page.click('[data-unit="g-467"]')
    card = page.locator('.answer[data-fp="14"][data-drm="-3"]').first
    card.wait_for()
    if card.get_attribute("open") is None:
        card.locator("summary").click()
    assert "A7.53" in card.inner_text()
    _shot(page, shots, "ask_listing_fire_group.png")


def test_edit_a_unit_save_reload(browser: Any, serve: Any, shots: Path) -> None:
    """Set up: change the squad's counter (first a wrong one: the loader's message at the field),
    move the leader, save; the file loads as the page showed it, and a reload shows it again."""
    from aslrules.loader import load_file
    from aslrules.web.service import builtins

    url, folder = serve(ROOT / "examples" / "berserk_charge.yaml", name="berserk_charge.yaml")
    page = _page(browser)
    _open(page, url)
    page.click('[data-tab="setup"]')
    page.click('[data-unit="g-467"]')
    counter = page.locator('#unit-form input[data-path="units[0].counter"]')
    counter.fill("4-6")
    counter.dispatch_event("change")
    error = page.locator('.field[data-path="units[0].counter"] .field-error')
    error.wait_for()
    want = "units[0].counter: expected a counter like 4-6-7 (FP-range-morale) for a squad, got '4-6'"
    assert want in error.inner_text()
    counter.fill("5-4-8")
    counter.dispatch_event("change")
    error.wait_for(state="detached")
    page.click('[data-unit="g-81"]')
    page.click("#move-unit")
    box = page.locator('polygon[data-hex="Y2"]').bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.85)
    page.wait_for_function("() => !document.querySelector('#dirty').hidden")
    page.click("#save")
    page.wait_for_selector(".message.info")
    assert "saved" in page.locator("#message").inner_text()
    saved = load_file(folder / "berserk_charge.yaml")
    units = {u.id: u for u in saved.units}
    assert units["g-467"].counter == "5-4-8" and units["g-81"].hex == "Y2"
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.click('[data-tab="setup"]')
    page.click('[data-unit="g-467"]')
    assert page.locator('#unit-form input[data-path="units[0].counter"]').input_value() == "5-4-8"
    doc = page.evaluate("() => payload()")
    assert doc == builtins(load_file(folder / "berserk_charge.yaml").data)  # the same file, on the page and on disk
    assert page.locator('[data-unit="g-81"]').count() == 1
    _shot(page, shots, "edit_save_reload.png")
    assert page.errors == []


def test_step_the_8_41_ex_replay_to_its_fpf(browser: Any, serve: Any, shots: Path) -> None:
    """A8.41 EX as a replay (tests/cases/replays/ex_8_41.yaml): step to the German FPF attack on the
    4-4-7 and 7-0: mandatory (A8.312), 10.5 FP, +1 DRM, NMC; the map shows the state before it."""
    url, _ = serve(ROOT / "tests" / "cases" / "replays" / "ex_8_41.yaml", name="ex_8_41.yaml")
    page = _page(browser)
    _open(page, url)
    page.wait_for_selector("#tab-replay .steps")
    texts = page.locator("#tab-replay .steps li").all_inner_texts()
    fpf = next(i for i, t in enumerate(texts, 1) if "final_protective_fire" in t and "r-447" in t)
    for _ in range(fpf - 1):
        page.click("#next")
    assert page.locator("#step-no").inner_text() == f"before step {fpf} of {len(texts)}"
    step = page.locator("#step")
    assert step.get_attribute("data-kind") == "attack" and step.get_attribute("data-legal") == "true"
    card = step.locator(".answer").first
    assert (card.get_attribute("data-verdict"), card.get_attribute("data-fp"), card.get_attribute("data-drm")) == (
        "mandatory", "10.5", "1")
    body = card.inner_text()
    for text in ("A8.312", "IFT result: NMC", "Final DR: 8"):
        assert text in body, text
    # the map before the step: the 4-4-7 and 7-0 in X2 (moved there), the Germans firing, the targets marked
    assert page.locator('.counter.targeted[data-unit="r-447"]').count() == 1
    assert page.locator('.counter.firing[data-unit="g-467"]').count() == 1
    assert "RFP 6" in page.locator("#map").text_content()  # the Residual FP of the first attack, in W2
    _shot(page, shots, "replay_8_41_fpf.png")
    page.click("#prev")
    assert page.locator("#step-no").inner_text() == f"before step {fpf - 1} of {len(texts)}"
    assert page.errors == []


def test_illegal_step_is_marked(browser: Any, serve: Any, shots: Path) -> None:
    url, _ = serve(ROOT / "tests" / "cases" / "replays" / "illegal_first_fire_twice.yaml",
                   name="illegal_first_fire_twice.yaml")
    page = _page(browser)
    _open(page, url)
    page.wait_for_selector("#tab-replay .steps li.illegal")
    page.locator("#tab-replay .steps li.illegal").first.click()
    box = page.locator("#illegal")
    assert "not legal" in box.inner_text() and box.locator("a.rule").count() >= 1
    _shot(page, shots, "replay_illegal.png")
    out = json.loads(subprocess.run([sys.executable, "-m", "aslrules", "replay", str(ROOT / "tests" / "cases" /
                                     "replays" / "illegal_first_fire_twice.yaml"), "--format", "json"],
                                    check=False, capture_output=True, text=True).stdout)
    bad = [s for s in out["steps"] if not s["legal"]]
    assert all(r["text"] in box.inner_text() for r in bad[0]["problems"])
