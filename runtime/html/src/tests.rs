use super::*;
use serde_json::json;

fn report() -> Value {
    json!({
        "benchmarks": [{
            "benchmark": "toy",
            "proof_judged": false,
            "by_type": [
                {"group": "Construction-centric", "items": 2, "samples": 8, "k_min": 4, "k_max": 4,
                 "avg": 0.375, "best_at_k": 0.5, "pass_at_k": 0.5, "pass_all_k": 0.0,
                 "proof": null, "construction": 0.375},
                {"group": "Overall", "items": 2, "samples": 8, "k_min": 4, "k_max": 4,
                 "avg": 0.375, "avg_se": 0.125, "best_at_k": 0.5, "pass_at_k": 0.5,
                 "pass_all_k": 0.0, "proof": null, "construction": 0.375,
                 "details": {"iou": 0.8125, "iou_stderr": 0.0625, "hausdorff": 0.25}}
            ],
            "by_category": [{"group": "(none)", "items": 2, "samples": 8, "k_min": 4, "k_max": 4,
                 "avg": {"mean": 0.375, "se": 0.1}, "best_at_k": 0.5, "pass_at_k": 0.5,
                 "pass_all_k": 0.0, "proof": null, "construction": 0.375}],
            "by_family": [
                {"group": "toy/a", "items": 1, "samples": 4, "k_min": 4, "k_max": 4, "avg": 0.25,
                 "best_at_k": 1.0, "pass_at_k": 1.0, "pass_all_k": 0.0, "proof": null, "construction": 0.25},
                {"group": "toy/b", "items": 1, "samples": 4, "k_min": 4, "k_max": 4, "avg": 0.5,
                 "best_at_k": 1.0, "pass_at_k": 1.0, "pass_all_k": 0.0, "proof": null, "construction": 0.5}
            ],
            "outcomes": {"fail": 5, "pass": 3},
            "proof_status": {}
        }],
        "registry_digests": ["abc"],
        "verigate_versions": ["0.1.0"],
        "duplicates": 0,
        "toy": {"harness_rules": true, "runs": ["r1", "r2"], "rows": [
            {"task": "A", "number": 1, "subtasks": 3, "graded": [3, 2], "zeroed_by_harness": [0, 1],
             "accuracy": [0.6666666666666666, 0.3333333333333333],
             "accuracy_se": [0.1, 0.2]},
            {"task": "Overall", "number": null, "subtasks": 3, "graded": [3, 2],
             "zeroed_by_harness": [0, 1], "accuracy": [0.6666666666666666, 0.3333333333333333]}
        ]}
    })
}

fn record(id: &str, sample: Value, details: Value) -> Value {
    json!({
        "id": id, "sample": sample, "benchmark": "toy", "type": "construction",
        "outcome": "fail", "message": "m", "construction": 0, "proof": null, "gated": null,
        "score": 0.0, "fuel_consumed": 12, "details": details, "module": "toy",
        "module_sha256": "ff", "registry_digest": "abc", "verigate_version": "0.1.0",
        "engine_fingerprint": "e"
    })
}

/// The embedded data block's text.
fn data_block(page: &str) -> &str {
    let start = page
        .find("<script type=\"application/json\" id=\"verigate-data\">")
        .unwrap();
    let rest = &page[start..];
    let open = rest.find('>').unwrap() + 1;
    let close = rest.find("</script>").unwrap();
    &rest[open..close]
}

#[test]
fn script_json_escapes_what_could_end_the_element() {
    let v = json!({"s": "</script><!-- & \u{2028}\u{2029} > <"});
    let text = script_json(&v);
    assert!(!text.contains('<') && !text.contains('>') && !text.contains('&'));
    assert!(!text.contains('\u{2028}') && !text.contains('\u{2029}'));
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
}

#[test]
fn responses_cannot_break_out_of_the_data_block() {
    let mut r = record("toy/a/1", json!(0), Value::Null);
    r["response"] = json!("</script><script>alert(1)</script><!--\u{2028}");
    r["message"] = json!("</SCRIPT >");
    let page = render(&report(), &[r], &Options::default());
    // Only the page's own two script elements close.
    assert_eq!(page.matches("</script>").count(), 2);
    assert_eq!(page.to_lowercase().matches("</script").count(), 2);
    assert!(!page.contains("alert(1)</"));
    let data: Value = serde_json::from_str(data_block(&page)).unwrap();
    let strings = data["strings"].as_array().unwrap();
    assert!(strings.contains(&json!("</script><script>alert(1)</script><!--\u{2028}")));
}

#[test]
fn the_script_and_style_contain_no_closing_tag() {
    assert!(!JS.to_lowercase().contains("</script"));
    assert!(!JS.contains("<!--"));
    assert!(!CSS.to_lowercase().contains("</style"));
    // The page's script never writes markup from data.
    assert!(!JS.contains("innerHTML") && !JS.contains("outerHTML"));
    assert!(!JS.contains("insertAdjacentHTML") && !JS.contains("document.write"));
}

#[test]
fn the_page_fetches_nothing() {
    let page = render(&report(), &[], &Options::default());
    assert!(page.contains("default-src 'none'"));
    for needle in ["http://", "https://", "src=\"", "<link", "@import", "url("] {
        let hits: Vec<_> = page.match_indices(needle).collect();
        // The only URL is the SVG namespace, used by createElementNS.
        assert!(
            hits.iter()
                .all(|(i, _)| page[*i..].starts_with("http://www.w3.org/2000/svg")),
            "{needle} in the page"
        );
    }
}

#[test]
fn tables_show_the_reports_numbers_exactly() {
    let page = render(&report(), &[], &Options::default());
    // Rates as percentages, the exact value in data-value.
    assert!(page.contains(
        "data-path=\"/benchmarks/0/by_type/0/avg\" data-value=\"0.375\" title=\"0.375\">37.5</td>"
    ));
    // A column null throughout is left out; a null cell elsewhere is a dash.
    assert!(!page.contains("Proof (%)"));
    assert!(page.contains("Best@4 (%)"));
    // Standard errors, in each spelling.
    assert!(page.contains(
        "data-path=\"/benchmarks/0/by_type/1/avg\" data-value=\"0.375\" data-se-path=\"/benchmarks/0/by_type/1/avg_se\" data-se=\"0.125\" title=\"0.375 ± 0.125\">37.5 ± 12.5</td>"
    ));
    assert!(page.contains(
        "data-path=\"/benchmarks/0/by_type/1/details/iou\" data-value=\"0.8125\" data-se-path=\"/benchmarks/0/by_type/1/details/iou_stderr\" data-se=\"0.0625\""
    ));
    assert!(page.contains(
        "data-path=\"/benchmarks/0/by_category/0/avg/mean\" data-value=\"0.375\" data-se-path=\"/benchmarks/0/by_category/0/avg/se\" data-se=\"0.1\""
    ));
    assert!(!page.contains("avg_se</th>") && !page.contains(">Iou stderr<"));
    // Hausdorff is a plain number.
    assert!(page.contains("data-value=\"0.25\" title=\"0.25\">0.250</td>"));
    // Counts.
    assert!(
        page.contains(
            "data-path=\"/benchmarks/0/outcomes/fail\" data-value=\"5\" title=\"5\">5</td>"
        )
    );
    // The per-run table, its heat map and its other arrays.
    assert!(page.contains(
        "data-path=\"/toy/rows/0/accuracy/0\" data-value=\"0.6666666666666666\" data-se-path=\"/toy/rows/0/accuracy_se/0\" data-se=\"0.1\""
    ));
    assert!(page.contains("<g class=\"heat-cell\" data-path=\"/toy/rows/1/accuracy/1\" data-value=\"0.3333333333333333\">"));
    assert!(page.contains("data-path=\"/toy/rows/0/graded/1\" data-value=\"2\""));
    assert!(page.contains("Harness rules: yes"));
    // Bars of the family means and of the outcomes.
    assert!(page.contains("<g class=\"bar\" data-group=\"toy/b\" data-value=\"0.5\">"));
    assert!(page.contains("<g class=\"bar\" data-group=\"pass\" data-value=\"3\">"));
}

#[test]
fn every_number_in_the_tables_is_in_the_report() {
    let report = report();
    let page = render(&report, &[], &Options::default());
    let mut checked = 0;
    for (at, _) in page.match_indices("data-path=\"") {
        let rest = &page[at + 11..];
        let path = &rest[..rest.find('"').unwrap()];
        let value = rest
            .split("data-value=\"")
            .nth(1)
            .and_then(|v| v.split('"').next())
            .unwrap();
        let want = report.pointer(path).unwrap_or_else(|| panic!("{path}"));
        assert_eq!(want.to_string(), value, "{path}");
        checked += 1;
    }
    assert!(checked > 60, "{checked}");
}

#[test]
fn strange_reports_do_not_panic() {
    for r in [
        json!(null),
        json!("text"),
        json!({}),
        json!({"benchmarks": "x"}),
        json!({"benchmarks": [1, {"benchmark": 3}, {"by_type": [{"group": "g", "avg": "x"}]}]}),
        json!({"benchmarks": [], "scbench": {"runs": [], "rows": []}, "other": [1, 2]}),
        json!({"benchmarks": [{"benchmark": "<b>", "by_type": [{"group": "<i>", "avg": 1e300}]}]}),
    ] {
        let page = render(&r, &[json!(1), json!({"no": "id"})], &Options::default());
        assert!(page.ends_with("</html>\n"));
        assert!(!page.contains("<b>") && !page.contains("<i>"));
    }
}

#[test]
fn figures_are_sanitized_on_the_host() {
    let evil = "<img src=x onerror=alert(1)>";
    let figure = json!({
        "title": evil,
        "items": [
            {"type": "polygon", "points": [[0, 0], [1, 0], [0, 1]], "class": evil, "label": evil},
            {"type": "grid", "rows": 1, "cols": 1, "labels": [[evil]]}
        ]
    });
    let records = [
        record("toy/a/1", json!(0), json!({"figure": figure, "k": 1})),
        record("toy/a/2", json!(0), json!({"figure": "nope"})),
    ];
    let page = render(&report(), &records, &Options::default());
    assert!(!page.contains(evil));
    let data: Value = serde_json::from_str(data_block(&page)).unwrap();
    assert_eq!(data["figures"], 1);
    assert_eq!(data["figure_errors"], 1);
    let column = |name: &str| {
        data["columns"]
            .as_array()
            .unwrap()
            .iter()
            .position(|c| c == name)
            .unwrap()
    };
    let strings = data["strings"].as_array().unwrap();
    let text = |row: usize, col: &str| {
        let i = data["rows"][row][column(col)].as_u64().unwrap() as usize;
        strings[i].as_str().unwrap().to_owned()
    };
    let fig: Value = serde_json::from_str(&text(0, "figure")).unwrap();
    assert_eq!(fig["items"][0]["class"], "neutral");
    assert_eq!(fig["items"][0]["label"], evil);
    // The figure is shown apart from the rest of the details.
    assert_eq!(text(0, "details"), "{\n  \"k\": 1\n}");
    let bad: Value = serde_json::from_str(&text(1, "figure")).unwrap();
    assert_eq!(bad["error"], "the figure is not a JSON object");
}

#[test]
fn a_huge_figure_does_not_bloat_the_page() {
    let line: Vec<Value> = (0..50_000).map(|i| json!([i, i % 7])).collect();
    let items: Vec<Value> = (0..40)
        .map(|_| json!({"type": "polyline", "points": line}))
        .chain((0..100_000).map(|i| json!({"type": "segment", "from": [i, 0], "to": [i, 1]})))
        .collect();
    let figure = json!({"items": items});
    let records = [record("toy/a/1", json!(0), json!({"figure": figure}))];
    let page = render(&report(), &records, &Options::default());
    // 100,000 coordinates at most: a few hundred kilobytes, not tens of megabytes.
    assert!(page.len() < 2_000_000, "{}", page.len());
    assert!(page.contains("over the caps of 5000 primitives / 100000 coordinates"));
}

#[test]
fn long_texts_are_cut_and_strings_shared() {
    let options = Options {
        max_text_chars: 100,
        ..Options::default()
    };
    let mut records = Vec::new();
    for i in 0..3 {
        let mut r = record("toy/a/1", json!(i), Value::Null);
        r["response"] = json!("x".repeat(1000));
        records.push(r);
    }
    let page = render(&report(), &records, &options);
    let data: Value = serde_json::from_str(data_block(&page)).unwrap();
    assert_eq!(data["truncated_texts"], 3);
    let cut = format!("{}\n… [cut: 900 more bytes not shown]", "x".repeat(100));
    let strings = data["strings"].as_array().unwrap();
    assert_eq!(strings.iter().filter(|s| **s == json!(cut)).count(), 1);
}

#[test]
fn responses_and_payloads_come_from_the_options() {
    let responses =
        [json!({"id": "toy/a/1", "sample": 0, "response": "RESP <construct>7</construct>"})];
    let hook = |record: &Value, response: &str| {
        assert_eq!(record["id"], "toy/a/1");
        Some(format!("payload of {response}"))
    };
    let options = Options {
        responses: &responses,
        payload: Some(&hook),
        ..Options::default()
    };
    let records = [
        record("toy/a/1", json!(0), Value::Null),
        record("toy/a/1", json!(1), Value::Null),
    ];
    let page = render(&report(), &records, &options);
    let data: Value = serde_json::from_str(data_block(&page)).unwrap();
    let strings = data["strings"].as_array().unwrap();
    assert!(strings.contains(&json!("RESP <construct>7</construct>")));
    assert!(strings.contains(&json!("payload of RESP <construct>7</construct>")));
    // Sample 1 has no response, so no payload either.
    let response_col = data["columns"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c == "response")
        .unwrap();
    assert!(data["rows"][1][response_col].is_null());
}

#[test]
fn many_records_share_the_text_budget() {
    let options = Options {
        text_budget: 10_000,
        min_text_chars: 50,
        ..Options::default()
    };
    let records: Vec<Value> = (0..100)
        .map(|i| {
            let mut r = record("toy/a/1", json!(i), Value::Null);
            r["response"] = json!(format!("{i} {}", "y".repeat(500)));
            r
        })
        .collect();
    let page = render(&report(), &records, &options);
    let data: Value = serde_json::from_str(data_block(&page)).unwrap();
    // 100 messages + 2 × 100 responses share 10,000 characters: 50 each (the floor).
    assert_eq!(data["text_cut"], 50);
    assert_eq!(data["truncated_texts"], 100);
}

#[test]
fn figures_past_the_budget_are_not_embedded() {
    let options = Options {
        figure_budget: 1_000,
        ..Options::default()
    };
    let records: Vec<Value> = (0..30)
        .map(|i| {
            let figure = json!({"items": [{"type": "segment", "from": [0, 0], "to": [i, 1]}]});
            record("toy/a/1", json!(i), json!({ "figure": figure }))
        })
        .collect();
    let page = render(&report(), &records, &options);
    let data: Value = serde_json::from_str(data_block(&page)).unwrap();
    let dropped = data["figures_dropped"].as_u64().unwrap();
    assert!(dropped > 10 && dropped < 30, "{dropped}");
    assert!(page.contains("figure budget is spent"));
}
