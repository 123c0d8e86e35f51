"""Browser test of a verigate HTML report, in headless Chromium.

    VERIGATE_HTML_REPORT=report.html VERIGATE_REPORT_JSON=report.json pytest runtime/html/tests/test_browser.py

The page is made by `verigate report RESULTS.jsonl --format html --out OUT.html [--responses R]`,
the JSON by `verigate report RESULTS.jsonl --format json` (tests/browser.sh does both, for the
bundled example and the figure fixture in runtime/html/tests/fixtures/). Needs the `playwright`
Python package and Debian's `chromium` (`apt-get install -y chromium`; `CHROMIUM` overrides
the path); no browser is downloaded.

Checks: every number in the tables and charts equals the report JSON's (and is shown as the
page's formatting rule says); filters change the visible samples; every figure in the page
renders with the expected number of polygons, cells, lines and points; a hostile response or
figure runs no script; no console error; no request that is not a file:// URL.
"""

import json
import math
import os
import re

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

HTML = os.environ.get("VERIGATE_HTML_REPORT")
REPORT = os.environ.get("VERIGATE_REPORT_JSON")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Runs drawn in a heat map (and tabulated beyond the main per-run array): tables::MAX_RUNS.
MAX_RUNS = 60

pytestmark = pytest.mark.skipif(
    not HTML or not REPORT,
    reason="set VERIGATE_HTML_REPORT and VERIGATE_REPORT_JSON",
)


@pytest.fixture(scope="module")
def report():
    with open(REPORT, encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A page on the report; on teardown, asserts no console error and no network use."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    errors, foreign = [], []

    def route(r):
        url = r.request.url
        if url.startswith("file://"):
            r.continue_()
        else:
            foreign.append(url)
            r.abort()

    context.route("**/*", route)
    pg = context.new_page()
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on(
        "request",
        lambda r: None if r.url.startswith(("file://", "data:", "about:")) else foreign.append(r.url),
    )
    pg.goto("file://" + os.path.abspath(HTML))
    pg.wait_for_selector("body[data-ready='1']", timeout=60_000)
    yield pg
    assert errors == [], f"console errors: {errors}"
    assert foreign == [], f"requests that are not file:// URLs: {foreign}"
    context.close()


def resolve(doc, pointer):
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        doc = doc[int(token)] if isinstance(doc, list) else doc[token]
    return doc


def shown(value, percent):
    """The page's formatting rule for a number."""
    if percent:
        return f"{100 * value:.1f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return f"{value:.3f}"


def numbers(doc, path=""):
    """Every (JSON pointer, number) in doc."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from numbers(v, f"{path}/{k.replace('~', '~0').replace('/', '~1')}")
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from numbers(v, f"{path}/{i}")
    elif isinstance(doc, (int, float)) and not isinstance(doc, bool):
        yield path, doc


CELLS_JS = """() => [...document.querySelectorAll('[data-path]')].map(e => {
  let percent = false;
  const td = e.closest('td');
  if (td) {
    const th = td.closest('table').tHead.rows[0].cells[td.cellIndex];
    const caption = td.closest('table').caption;
    percent = th.textContent.includes('(%)') ||
      (th.classList.contains('run') && !!caption && caption.textContent.includes('(%)'));
  } else if (e.closest('figure.chart')) {
    percent = e.closest('figure.chart').querySelector('figcaption').textContent.includes('(%)');
  }
  const text = (e.matches('g') ? e.querySelector('text').textContent : e.textContent).trim();
  return {path: e.dataset.path, value: e.dataset.value, sePath: e.dataset.sePath || null,
          se: e.dataset.se || null, text, percent, tag: e.tagName.toLowerCase()};
})"""


def test_every_number_shown_is_the_reports(page, report):
    cells = page.evaluate(CELLS_JS)
    assert len(cells) > 50
    for c in cells:
        want = resolve(report, c["path"])
        assert isinstance(want, (int, float)) and not isinstance(want, bool), c
        # Exactly the JSON's number, not a recomputed one.
        assert float(c["value"]) == want, c
        expected = shown(want, c["percent"])
        if c["sePath"]:
            se = resolve(report, c["sePath"])
            assert float(c["se"]) == se, c
            expected += " ± " + shown(se, c["percent"])
        assert c["text"] == expected, c


def test_every_table_number_of_the_report_is_shown(page, report):
    cells = page.evaluate(CELLS_JS)
    on_page = {c["path"] for c in cells} | {c["sePath"] for c in cells if c["sePath"]}
    missing = []
    for i, bench in enumerate(report["benchmarks"]):
        for key, rows in bench.items():
            if key.startswith("by_"):
                missing += [p for p, _ in numbers(rows, f"/benchmarks/{i}/{key}") if p not in on_page]
            elif key in ("outcomes", "proof_status"):
                missing += [p for p, _ in numbers(rows, f"/benchmarks/{i}/{key}") if p not in on_page]
        extra = report.get(bench["benchmark"])
        if isinstance(extra, dict) and "rows" in extra:
            rows = extra["rows"]
            if len(extra["runs"]) > MAX_RUNS:
                # Only the main per-run array is tabulated for that many runs.
                rows = [{k: v for k, v in r.items() if k == "accuracy" or not isinstance(v, list)}
                        for r in rows]
            missing += [p for p, _ in numbers(rows, f"/{bench['benchmark']}/rows") if p not in on_page]
    assert missing == []


def test_heat_map_and_bars_match_the_report(page, report):
    scbench = report.get("scbench")
    if scbench:
        cells = page.locator("g.heat-cell")
        # Every row, at most MAX_RUNS runs.
        assert cells.count() == sum(min(len(r["accuracy"]), MAX_RUNS) for r in scbench["rows"])
    for i, bench in enumerate(report["benchmarks"]):
        section = page.locator(f"section[data-benchmark='{bench['benchmark']}']")
        bars = section.locator("figure.chart g.bar")
        rows = bench.get("by_family") or bench.get("by_category") or []
        expected = (len(rows) if len(rows) > 1 else 0) + len(bench["outcomes"])
        assert bars.count() == expected, bench["benchmark"]
        for j in range(bars.count()):
            bar = bars.nth(j)
            group, value = bar.get_attribute("data-group"), float(bar.get_attribute("data-value"))
            if group in bench["outcomes"] and j >= (len(rows) if len(rows) > 1 else 0):
                assert value == bench["outcomes"][group]
            else:
                assert value == next(r["avg"] for r in rows if r["group"] == group)


def visible(page):
    return int(page.locator("#p-info").get_attribute("data-visible"))


def data(page):
    return page.evaluate("() => JSON.parse(document.getElementById('verigate-data').textContent)")


def test_filters_change_the_visible_samples(page):
    d = data(page)
    total = len(d["rows"])
    assert visible(page) == total
    col = {c: i for i, c in enumerate(d["columns"])}
    benches = sorted({d["strings"][r[col["benchmark"]]] for r in d["rows"]})
    assert len(benches) >= 2
    bench = benches[-1]
    option = page.locator("#f-benchmark option", has_text=bench).first.get_attribute("value")
    page.select_option("#f-benchmark", option)
    want = sum(1 for r in d["rows"] if d["strings"][r[col["benchmark"]]] == bench)
    assert visible(page) == want < total
    shown_benches = page.locator("#sample-rows tr.sample td:nth-child(3)").all_text_contents()
    assert shown_benches and set(shown_benches) == {bench}
    # Passed only: every row shown has score 1.
    page.select_option("#f-passed", "1")
    scores = page.locator("#sample-rows tr.sample td:nth-child(5)").all_text_contents()
    assert all(float(s) >= 1 for s in scores)
    assert visible(page) == sum(
        1 for r in d["rows"]
        if d["strings"][r[col["benchmark"]]] == bench and (r[col["score"]] or 0) >= 1
    )
    # Reset, then an outcome filter.
    page.click("#f-reset")
    page.wait_for_function(f"() => document.getElementById('p-info').dataset.visible === '{total}'")
    outcome = d["strings"][d["rows"][0][col["outcome"]]]
    option = page.locator("#f-outcome option", has_text=outcome).first.get_attribute("value")
    page.select_option("#f-outcome", option)
    assert visible(page) == sum(1 for r in d["rows"] if d["strings"][r[col["outcome"]]] == outcome)
    page.click("#f-reset")
    # Search by id.
    some_id = d["strings"][d["rows"][-1][col["id"]]]
    page.fill("#f-id", some_id)
    page.wait_for_function(
        "q => document.getElementById('p-info').dataset.query === q", arg=some_id.lower()
    )
    assert visible(page) == sum(
        1 for r in d["rows"] if some_id.lower() in d["strings"][r[col["id"]]].lower()
    )
    ids = page.locator("#sample-rows tr.sample td:nth-child(1) button").all_text_contents()
    assert ids and all(some_id.lower() in i.lower() for i in ids)


def test_paging(page):
    d = data(page)
    if len(d["rows"]) <= d["page_size"]:
        pytest.skip("one page only")
    assert page.locator("#sample-rows tr.sample").count() == d["page_size"]
    first = page.locator("#sample-rows tr.sample").first.get_attribute("data-row")
    page.click("#p-next")
    assert page.locator("#sample-rows tr.sample").first.get_attribute("data-row") != first
    assert "page 2 of" in page.locator("#p-info").text_content()


def open_row(page, row):
    """Shows the sample `row` (its index in the data) and opens its panel."""
    d = data(page)
    col = {c: i for i, c in enumerate(d["columns"])}
    page.click("#f-reset")
    page.wait_for_function("() => document.getElementById('p-info').dataset.query === ''")
    some_id = d["strings"][d["rows"][row][col["id"]]]
    page.fill("#f-id", some_id)
    # Wait until the search has been applied (it is debounced), and the row is shown.
    page.wait_for_function(
        "([r, q]) => document.getElementById('p-info').dataset.query === q &&"
        " document.querySelector(`#sample-rows tr.sample[data-row='${r}']`)",
        arg=[row, some_id.lower()],
    )
    page.click(f"#sample-rows tr.sample[data-row='{row}']")
    return page.locator(f"#sample-rows tr.detail[data-row='{row}']")


def expected_marks(fig):
    """What the page must draw for a sanitized figure."""
    want = {"polygon": 0, "polyline": 0, "segment": 0, "point": 0, "cell": 0, "text": 0}
    for it in fig["items"]:
        t = it["type"]
        if t in ("polygon", "polyline", "segment", "text"):
            want[t] += 1
        elif t == "points":
            want["point"] += len(it["points"])
        elif t == "grid":
            want["cell"] += it["rows"] * it["cols"]
    return want


def test_every_figure_renders(page):
    d = data(page)
    col = {c: i for i, c in enumerate(d["columns"])}
    figures = [(i, json.loads(d["strings"][r[col["figure"]]])) for i, r in enumerate(d["rows"])
               if r[col["figure"]] is not None]
    figures = [(i, f) for i, f in figures if "error" not in f]
    if not figures:
        pytest.skip("no figures in this report (render the figure fixture)")
    kinds = set()
    for row, fig in figures:
        panel = open_row(page, row)
        svg = panel.locator("svg.figure").first
        want = expected_marks(fig)
        got = {
            "polygon": svg.locator(".fig-polygon").count(),
            "polyline": svg.locator("polyline.fig-polyline").count(),
            "segment": svg.locator("line.fig-segment").count(),
            "point": svg.locator("circle.fig-point").count(),
            "cell": svg.locator("rect.fig-cell").count(),
            "text": svg.locator("text.fig-text").count(),
        }
        name = (d["strings"][d["rows"][row][col["id"]]], d["strings"][d["rows"][row][col["sample"]]])
        assert got == want, (name, got, want)
        kinds |= {k for k, n in want.items() if n}
        # The drawing has a size: it is laid out, not just in the DOM.
        box = svg.bounding_box()
        assert box and box["width"] > 50 and box["height"] > 50, (name, box)
        page.click(f"#sample-rows tr.sample[data-row='{row}']")
    print("figure kinds drawn:", sorted(kinds))


def ids_with(d, prefix):
    col = {c: i for i, c in enumerate(d["columns"])}
    return [i for i, r in enumerate(d["rows"])
            if d["strings"][r[col["id"]]].startswith(prefix) and r[col["figure"]] is not None]


def test_known_figures(page):
    """The fixture's figures, by what each verifier draws."""
    d = data(page)
    col = {c: i for i, c in enumerate(d["columns"])}
    checks = {
        # The classic seven pieces over the target square: 1 outline + 7 pieces.
        "tangram/": lambda svg, fig: svg.locator(".fig-polygon").count() >= 8
        and svg.locator(".fig-polygon.fig-target").count() == 1,
        # Input, ground truth and answer grids.
        "sphyr/": lambda svg, fig: svg.locator("g.fig-grid").count() == 3,
        # The loop over the grid.
        "scbench/q9/": lambda svg, fig: svg.locator("polyline.fig-highlight").count() == 1
        and svg.locator("rect.fig-cell").count() == fig["items"][0]["rows"] ** 2,
        # Rectangles over the clue grid.
        "scbench/q56/": lambda svg, fig: svg.locator(".fig-polygon").count() >= 1
        and svg.locator("g.fig-grid").count() == 1,
    }
    found = 0
    for prefix, check in checks.items():
        rows = ids_with(d, prefix)
        if not rows:
            continue
        found += 1
        row = rows[0]
        fig = json.loads(d["strings"][d["rows"][row][col["figure"]]])
        svg = open_row(page, row).locator("svg.figure").first
        assert check(svg, fig), prefix
    if not found:
        pytest.skip("no verifier figures in this report")


def test_hostile_text_stays_text(page):
    d = data(page)
    col = {c: i for i, c in enumerate(d["columns"])}
    assert page.evaluate("() => document.querySelectorAll('script').length") == 2
    assert page.evaluate("() => window.__pwned") is None
    # A response with markup shows as text, character for character.
    for i, r in enumerate(d["rows"]):
        response = r[col["response"]]
        if response is not None and "<" in d["strings"][response]:
            panel = open_row(page, i)
            pre = panel.locator("h4", has_text="Response").locator("xpath=following-sibling::pre")
            assert pre.text_content() == d["strings"][response]
            break
    # Labels of figures are text nodes only.
    for i, r in enumerate(d["rows"]):
        if r[col["figure"]] is not None and "<" in d["strings"][r[col["figure"]]]:
            panel = open_row(page, i)
            assert panel.locator("svg.figure img, svg.figure script, svg.figure foreignObject").count() == 0
            break
    assert page.evaluate("() => window.__pwned") is None
