use verigate_sdk::python::BigInt;
use verigate_sdk::serde_json::{self, Value as Json};

use crate::num::{Num, fixed1};
use crate::{Instance, any_overlap, grade};

/// Subpass 0: seven 5x3x2 prisms, volume 210, perfectly packable.
fn sp0() -> Instance {
    Instance {
        subpass: 0,
        prisms: vec![[7, 5, 3, 2]],
        expected_volume: 210,
        perfectly_packable: true,
        perfectly_packable_corrected: true,
    }
}

/// Subpass 1's prisms but graded as not perfectly packable (the ÷ 0.95 rule).
fn lenient() -> Instance {
    Instance {
        perfectly_packable: false,
        perfectly_packable_corrected: false,
        ..sp0()
    }
}

fn graded(instance: &Instance, text: &str) -> Json {
    serde_json::to_value(grade(instance, text)).unwrap()
}

fn message(v: &Json) -> &str {
    v["message"].as_str().unwrap_or("")
}

/// Seven 5x3x2 boxes in a row along x, shifted by `dx`, as a Python literal.
fn row(dx: i64) -> String {
    let boxes: Vec<String> = (0..7)
        .map(|i| {
            let x = dx + 5 * i;
            format!("{{'XyzMin': [{x}, 0, 0], 'XyzMax': [{}, 3, 2]}}", x + 5)
        })
        .collect();
    format!("{{'boxes': [{}]}}", boxes.join(", "))
}

#[test]
fn a_perfect_packing_passes_with_the_original_explanation() {
    let v = graded(&sp0(), &row(0));
    assert_eq!(v["pass"], true);
    assert_eq!(
        message(&v),
        "Answer volume: 210, Expected volume: 210\nPacking efficiency: 100.0% (enclosing volume: 210)"
    );
    assert_eq!(v["details"]["corrected"]["pass"], true);
}

#[test]
fn the_bounding_box_is_anchored_at_the_origin() {
    // Shifted 5 along x: 210 / (40 * 3 * 2) = 0.875; the corrected density is 1.
    let v = graded(&sp0(), &row(5));
    assert_eq!(v["pass"], false);
    assert_eq!(v["score"], 0.875);
    assert_eq!(
        message(&v),
        "Answer volume: 210, Expected volume: 210\nPacking efficiency: 87.5% (enclosing volume: 240)"
    );
    assert_eq!(v["details"]["corrected"]["pass"], true);
    // Not perfectly packable: 0.875 / 0.95 = 0.9210526315789473.
    let v = graded(&lenient(), &row(5));
    assert_eq!(v["score"], 0.875 / 0.95);
    // Shifted by 1: 210 / 216 = 0.972… ≥ 0.95, full marks where not perfectly packable.
    assert_eq!(graded(&lenient(), &row(1))["score"], 1.0);
    assert_eq!(graded(&sp0(), &row(1))["score"], 210.0 / 216.0);
}

#[test]
fn signed_volumes_and_extra_sizes_are_not_checked() {
    // Plus a 10x10x10 box and an inverted one of volume -1000: the sum is still 210 and
    // the counts of 5x3x2 are right, so the original scores the packing (badly).
    let text = row(0).replace(
        "]}]}",
        "]}, {'XyzMin': [0, 0, 10], 'XyzMax': [10, 10, 20]}, \
         {'XyzMin': [20, 0, 0], 'XyzMax': [10, 10, 10]}]}",
    );
    let v = graded(&sp0(), &text);
    assert_eq!(v["score"], 210.0 / 7000.0, "{v}");
    assert_eq!(
        message(&v),
        "Answer volume: 210, Expected volume: 210\nPacking efficiency: 3.0% (enclosing volume: 7000)"
    );
    assert_eq!(v["details"]["corrected"]["pass"], false);
}

#[test]
fn each_check_fails_with_the_original_text() {
    let v = graded(&sp0(), &row(0).replacen("[5, 3, 2]", "[5, 3, 3]", 1));
    assert_eq!(
        message(&v),
        "Answer volume: 225, Expected volume: 210\nBoxes are overlapping: Sum of prisms volume: 210, \
         Union of answer prisms volume: 225"
    );
    // Two 5x3x2 traded for a 5x4x3 (same volume).
    let text = row(0)
        .replacen("{'XyzMin': [0, 0, 0], 'XyzMax': [5, 3, 2]}, ", "", 1)
        .replacen(
            "{'XyzMin': [5, 0, 0], 'XyzMax': [10, 3, 2]}",
            "{'XyzMin': [0, 0, 0], 'XyzMax': [5, 4, 3]}",
            1,
        );
    assert_eq!(
        message(&graded(&sp0(), &text)),
        "Answer volume: 210, Expected volume: 210\nBox count mismatch for 5x3x2: expected 7, got 5"
    );
    let text = row(0).replacen("[5, 0, 0], 'XyzMax': [10", "[4, 0, 0], 'XyzMax': [9", 1);
    assert_eq!(
        message(&graded(&sp0(), &text)),
        "Answer volume: 210, Expected volume: 210\nBox overlap detected"
    );
    assert_eq!(
        message(&graded(&sp0(), &row(-1))),
        "Answer volume: 210, Expected volume: 210\nBox with negative coordinates detected"
    );
    assert_eq!(
        message(&graded(
            &sp0(),
            "{'boxes': [{'XyzMin': [0], 'XyzMax': [0]}]}"
        )),
        "Invalid box coordinates"
    );
    for text in [
        "{'box': []}",
        "{'boxes': ({'XyzMin': [0, 0, 0]},)}",
        "'no packing'",
        "(1, 2)",
    ] {
        assert_eq!(
            message(&graded(&sp0(), text)),
            "Invalid answer format: missing boxes list"
        );
    }
    // The list form: the dict with the most boxes.
    let text = format!("[{{'boxes': []}}, {}, 5]", row(0));
    assert_eq!(graded(&sp0(), &text)["pass"], true);
    assert_eq!(graded(&sp0(), "[1, 2]")["score"], 0.0);
}

#[test]
fn where_the_original_raises() {
    for text in [
        "the boxes are below",
        "{'boxes': [{'XyzMin': [0, 0, 0]}]}",
        "{'boxes': [[0, 0, 0, 5, 3, 2]]}",
        "{'boxes': [{'XyzMin': 'abc', 'XyzMax': 'def'}]}",
        "7",
    ] {
        let v = graded(&sp0(), text);
        assert_eq!(v["score"], 0.0);
        assert!(
            message(&v).ends_with("(the original grader raises here; its runner records 10000)"),
            "{text}: {v}"
        );
    }
    assert_eq!(
        message(&graded(&sp0(), "{}")),
        "empty answer (the harness scores a falsy answer 0 without calling the grader)"
    );
}

#[test]
fn python_numbers_floats_and_bools() {
    // Float coordinates: the volume and enclosing volume print as floats.
    let text = row(0).replace(", 0, 0]", ".0, 0, 0]");
    let text = text.replace("3, 2]}", "3, 2.0]}");
    let v = graded(&sp0(), &text);
    assert_eq!(v["pass"], true, "{v}");
    assert_eq!(
        message(&v),
        "Answer volume: 210.0, Expected volume: 210\nPacking efficiency: 100.0% (enclosing volume: 210.0)"
    );
    // True is 1 in Python's arithmetic.
    let text = row(0).replacen("[0, 0, 0]", "[False, False, False]", 1);
    assert_eq!(graded(&sp0(), &text)["pass"], true);
}

#[test]
fn exact_int_float_comparisons() {
    let big = Num::Int(BigInt::from(9_007_199_254_740_993i64));
    let f = Num::Float(9_007_199_254_740_992.0);
    assert!(big.gt(&f) && f.lt(&big));
    assert!(Num::Int(BigInt::from(-3)).lt(&Num::Float(-2.5)));
    assert!(Num::Int(BigInt::from(-2)).gt(&Num::Float(-2.5)));
    assert!(Num::Int(BigInt::from(2)).eq_int(2) && Num::Float(2.0).eq_int(2));
    assert!(!Num::Float(f64::NAN).lt(&Num::Int(BigInt::from(0))));
    assert!(Num::Int(BigInt::from(10).pow(400)).lt(&Num::Float(f64::INFINITY)));
}

#[test]
fn one_decimal_like_python() {
    // f"{x:.1f}" in CPython: the exact binary value, ties to even.
    for (x, want) in [
        (86.16789908655937, "86.2"),
        (0.25, "0.2"),
        (0.35, "0.3"),
        (0.05, "0.1"),
        (0.45, "0.5"),
        (99.95, "100.0"),
        (2.5, "2.5"),
        (f64::INFINITY, "inf"),
        (f64::NAN, "nan"),
    ] {
        assert_eq!(fixed1(x), want, "{x}");
    }
}

#[test]
fn the_sweep_finds_what_every_pair_finds() {
    // Deterministic pseudo-random boxes, some inverted, compared with the all-pairs test.
    let mut seed = 12345u64;
    let mut next = |m: i64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as i64 % m) - 2
    };
    for _ in 0..300 {
        let boxes: Vec<[Num; 6]> = (0..6)
            .map(|_| std::array::from_fn(|_| Num::Int(BigInt::from(next(12)))))
            .collect();
        let brute = (0..boxes.len())
            .any(|i| (0..boxes.len()).any(|j| i != j && crate::overlap(&boxes[i], &boxes[j])));
        assert_eq!(any_overlap(&boxes), brute);
    }
}
