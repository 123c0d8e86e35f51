#!/usr/bin/env bash
# The HTML report in a real browser: renders the bundled example's report and
# the figure fixture's (hostile figures included) with `verigate report
# --format html`, and runs runtime/html/tests/test_browser.py (Playwright
# driving Debian's headless Chromium) on each.
#   usage: tests/browser.sh VERIGATE_BINARY PYTHON
set -euo pipefail
cd "$(dirname "$0")/.."
verigate=$1 python=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fixtures=runtime/html/tests/fixtures

"$verigate" grade --out "$work/results.jsonl" --html "$work/example.html" 2>/dev/null
"$verigate" report "$work/results.jsonl" --format json > "$work/example.json"
"$verigate" report "$fixtures/figures.jsonl" --format json > "$work/figures.json" 2>/dev/null
"$verigate" report "$fixtures/figures.jsonl" --format html --out "$work/figures.html" \
  --responses "$fixtures/figures-responses.jsonl"

for page in example figures; do
  echo "== browser test: $page report"
  VERIGATE_HTML_REPORT="$work/$page.html" VERIGATE_REPORT_JSON="$work/$page.json" \
    "$python" -m pytest -q runtime/html/tests/test_browser.py
done
