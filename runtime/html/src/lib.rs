//! `verigate-html`: one self-contained HTML page for a graded benchmark run
//! (`verigate report RESULTS --format html`).
//!
//! [`render`] takes the report JSON (exactly what `verigate report --format
//! json` prints) and the result records (the lines of the results JSONL) and
//! returns the whole page: inline CSS, JavaScript and SVG, no network access
//! (its Content-Security-Policy forbids any), so it opens from disk.
//!
//! The page holds
//! - each benchmark's tables, rendered generically from the report JSON's
//!   structure (every array of `{"group": …}` rows is a table; every number
//!   shown is the report's, as a percentage for rates, its exact value in the
//!   cell's `data-value` and tooltip; a standard error next to a mean —
//!   `K_se`, `K_stderr`, `{mean, se}`, or an `se`/`stderr` object — is shown
//!   as "mean ± se");
//! - SVG charts: the mean score per family (else per category) as bars, the
//!   outcome counts, and per-run tables such as SCBench's Table 2 as a heat
//!   map;
//! - a sample browser over the records: filters by benchmark, family,
//!   outcome, passed (score 1) and sample, a search by id, paging; each sample
//!   opens to its response, extracted payload, outcome, message, details,
//!   figure, fuel and provenance.
//!
//! The records travel as JSON in a `<script type="application/json">` block
//! ([`script_json`] escapes `<`, `>`, `&`, U+2028 and U+2029, so no string
//! can end the element), strings interned once each; the script builds the
//! browser with DOM APIs and `textContent` only. Figures (`details.figure`,
//! see `FIGURE.md` and [`figure`]) are validated and capped here, on the
//! host, before they reach the page.

#![deny(missing_docs)]

mod charts;
mod data;
pub mod figure;
mod tables;

pub use figure::{FigureError, FigureLimits, sanitize as sanitize_figure};

use serde_json::Value;

/// Extracts the payload the verifier saw from a record and its response.
pub type PayloadFn<'a> = dyn Fn(&Value, &str) -> Option<String> + 'a;

/// How the page is rendered.
pub struct Options<'a> {
    /// The page's title.
    pub title: String,
    /// A line under the title (e.g. the results file's name); none by default.
    pub subtitle: Option<String>,
    /// The responses (lines of the responses JSONL: `id`, `sample`,
    /// `response`), matched to records by (`id`, `sample`), for records that
    /// do not carry a `response` field themselves.
    pub responses: &'a [Value],
    /// The payload the verifier saw, for records without a `payload` field:
    /// called with the record and its response (the CLI passes verigate's
    /// own extraction). Without it such records show no payload.
    pub payload: Option<&'a PayloadFn<'a>>,
    /// Longest response, payload, message or details text embedded per
    /// record, in characters; longer ones are cut, saying so.
    pub max_text_chars: usize,
    /// The page's budget for those texts, in characters: with many records
    /// each text is cut to `text_budget / (number of texts)` characters
    /// instead (but never below [`Options::min_text_chars`]), so a 100k-line
    /// results file still gives a page a browser opens.
    pub text_budget: usize,
    /// The shortest cut the text budget makes.
    pub min_text_chars: usize,
    /// Caps on each record's figure.
    pub figure_limits: FigureLimits,
    /// The page's budget for figures, in bytes of sanitized figure JSON
    /// (each distinct figure counted once): figures past it are not
    /// embedded, their panels saying so.
    pub figure_budget: usize,
    /// Table columns (`.`-joined keys, e.g. `details.hausdorff`) shown as
    /// plain numbers rather than percentages; rates (`avg`, `pass_at_k`, …,
    /// every other `details.*`, `accuracy`) are percentages.
    pub plain_columns: Vec<String>,
    /// Column headers by `.`-joined key, over the built-in ones (`avg` →
    /// `Avg.`, `details.iou` → `IoU`, …).
    pub headers: Vec<(String, String)>,
    /// Samples per page of the sample browser.
    pub page_size: usize,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            title: "verigate report".to_owned(),
            subtitle: None,
            responses: &[],
            payload: None,
            max_text_chars: 20_000,
            text_budget: 48 << 20,
            min_text_chars: 400,
            figure_limits: FigureLimits::default(),
            figure_budget: 24 << 20,
            plain_columns: vec!["details.hausdorff".to_owned()],
            headers: Vec::new(),
            page_size: 50,
        }
    }
}

const CSS: &str = include_str!("page.css");
const JS: &str = include_str!("page.js");

/// The whole page for `report` (the report JSON) and `records` (the result
/// records, one JSON object per results line; others are skipped).
pub fn render(report: &Value, records: &[Value], options: &Options) -> String {
    let tables = tables::render(report, options);
    let data = data::embed(records, options);
    let mut page =
        String::with_capacity(data.len() + tables.body.len() + CSS.len() + JS.len() + 4096);
    page.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    // Nothing may be fetched: no network, no other files.
    page.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n",
    );
    page.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    page.push_str(&format!("<title>{}</title>\n", escape(&options.title)));
    page.push_str("<style>\n");
    page.push_str(CSS);
    page.push_str("</style>\n</head>\n<body>\n<header class=\"top\">\n");
    page.push_str(&format!("<h1>{}</h1>\n", escape(&options.title)));
    if let Some(subtitle) = &options.subtitle {
        page.push_str(&format!("<p class=\"subtitle\">{}</p>\n", escape(subtitle)));
    }
    page.push_str(&tables.nav);
    page.push_str("</header>\n<main>\n");
    page.push_str(&tables.body);
    page.push_str(SAMPLES_SECTION);
    page.push_str("</main>\n<script type=\"application/json\" id=\"verigate-data\">");
    page.push_str(&data);
    page.push_str("</script>\n<script>\n");
    page.push_str(JS);
    page.push_str("</script>\n</body>\n</html>\n");
    page
}

/// The sample browser's static frame; the script fills it.
const SAMPLES_SECTION: &str = r#"<section id="samples" class="bench">
<h2>Samples</h2>
<form class="filters" id="filters" autocomplete="off">
<label>Benchmark <select id="f-benchmark"></select></label>
<label>Family <select id="f-family"></select></label>
<label>Outcome <select id="f-outcome"></select></label>
<label>Result <select id="f-passed"><option value="">all</option><option value="1">passed (score 1)</option><option value="0">not passed</option></select></label>
<label>Sample <select id="f-sample"></select></label>
<label>Id <input id="f-id" type="search" placeholder="search ids"></label>
<button type="reset" id="f-reset">Reset</button>
</form>
<p class="note" id="s-note"></p>
<div class="pager"><button type="button" id="p-prev">&#8592; Prev</button> <span id="p-info">loading samples…</span> <button type="button" id="p-next">Next &#8594;</button></div>
<table class="samples" id="sample-table"><thead><tr><th>Id</th><th>Sample</th><th>Benchmark</th><th>Outcome</th><th class="num">Score</th><th class="num">Fuel</th><th>Message</th></tr></thead><tbody id="sample-rows"></tbody></table>
<noscript><p>The sample browser needs JavaScript; the tables above do not.</p></noscript>
</section>
"#;

/// `text` escaped for HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `value` as JSON safe inside a `<script>` element: `<`, `>` and `&`
/// written as `\u003c`, `\u003e`, `\u0026` (so no `</script>` or `<!--`
/// can appear), and U+2028 and U+2029 as `\u2028`, `\u2029`. The text
/// parses back (`JSON.parse`) to the same value.
pub fn script_json(value: &impl serde::Serialize) -> String {
    let text = serde_json::to_string(value).expect("JSON values serialise");
    script_safe(&text)
}

/// [`script_json`]'s escaping of an already serialised JSON text.
fn script_safe(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + json.len() / 64);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
