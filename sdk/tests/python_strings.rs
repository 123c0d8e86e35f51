//! Differential test of `verigate_sdk::python::strings` (and the evaluator's `int()`/`float()`
//! of strings, which run on it) against CPython: every code point's digit, decimal, numeric
//! and white-space properties, then thousands of random and adversarial strings — full-width,
//! Arabic-Indic, Devanagari and mathematical digits, superscripts, fractions, signs,
//! underscores, base prefixes, every kind of white space (U+001C..U+001F, U+0085, U+00A0,
//! U+3000, …) — through `isdigit`, `isdecimal`, `isnumeric`, `isspace`, `strip`, `split()`,
//! `int(s)`, `int(s, 0)`, `int(s, 16)`, `int(s, 36)` and `float(s)`. Skipped, with a message,
//! when `python3` is not installed; the digit tables are CPython 3.11's (unicodedata 14.0.0),
//! so on another CPython the first test reports which code points its database changed.

use serde_json::{Value as Json, json};
use std::process::Command;
use verigate_sdk::python::{self, strings};

const ORACLE: &str = r#"
import json, struct, sys, unicodedata

def bits(f):
    return str(struct.unpack("<Q", struct.pack("<d", f))[0])

def attempt(f):
    try:
        return f()
    except ValueError:
        return None

if sys.argv[1] == "table":
    print(unicodedata.unidata_version)
    for cp in range(sys.maxunicode + 1):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        c = chr(cp)
        d, g = unicodedata.decimal(c, -1), unicodedata.digit(c, -1)
        n, s = c.isnumeric(), c.isspace()
        if d >= 0 or g >= 0 or n or s:
            print(cp, d, g, int(n), int(s))
    sys.exit()

with open(sys.argv[2], encoding="utf-8") as f:
    for line in f:
        s = json.loads(line)
        print(json.dumps({
            "isdigit": s.isdigit(),
            "isdecimal": s.isdecimal(),
            "isnumeric": s.isnumeric(),
            "isspace": s.isspace(),
            "strip": s.strip(),
            "split": s.split(),
            "int": attempt(lambda: hex(int(s))),
            "int0": attempt(lambda: hex(int(s, 0))),
            "int16": attempt(lambda: hex(int(s, 16))),
            "int36": attempt(lambda: hex(int(s, 36))),
            "float": attempt(lambda: bits(float(s))),
        }))
"#;

/// Runs the oracle; `None` (after saying why) when there is no `python3`.
fn oracle(args: &[&str], input: Option<&str>) -> Option<String> {
    let dir = std::env::temp_dir().join(format!(
        "verigate-pystrings-{}-{}",
        std::process::id(),
        args[0]
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("oracle.py");
    std::fs::write(&script, ORACLE).unwrap();
    let mut cmd = Command::new("python3");
    cmd.arg(&script).args(args);
    if let Some(text) = input {
        let path = dir.join("cases.jsonl");
        std::fs::write(&path, text).unwrap();
        cmd.arg(&path);
    }
    let output = cmd.output();
    let _ = std::fs::remove_dir_all(&dir);
    match output {
        Ok(o) if o.status.success() => Some(String::from_utf8(o.stdout).unwrap()),
        Ok(o) => panic!(
            "the CPython oracle failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => {
            eprintln!("SKIPPED: python3 is not available ({e}); the differential test did not run");
            None
        }
    }
}

#[test]
fn every_code_point_matches_cpython() {
    let Some(out) = oracle(&["table"], None) else {
        return;
    };
    let mut lines = out.lines();
    let version = lines.next().unwrap();
    let expected: Vec<&str> = lines.collect();
    let mut ours = Vec::new();
    for c in (0..=0x10FFFF).filter_map(char::from_u32) {
        let d = strings::decimal(c).map_or(-1, i64::from);
        let g = strings::digit(c).map_or(-1, i64::from);
        let n = strings::is_numeric_char(c);
        let s = verigate_sdk::is_py_space(c);
        assert_eq!(strings::isdecimal(&c.to_string()), d >= 0);
        assert_eq!(strings::isdigit(&c.to_string()), g >= 0);
        assert_eq!(strings::isnumeric(&c.to_string()), n);
        assert_eq!(strings::isspace(&c.to_string()), s);
        if d >= 0 || g >= 0 || n || s {
            ours.push(format!(
                "{} {d} {g} {} {}",
                c as u32,
                u8::from(n),
                u8::from(s)
            ));
        }
    }
    let differ: Vec<String> = expected
        .iter()
        .zip(&ours)
        .filter(|(a, b)| *a != *b)
        .take(20)
        .map(|(a, b)| format!("CPython: {a}   ours: {b}"))
        .collect();
    assert!(
        differ.is_empty() && expected.len() == ours.len(),
        "the tables (unicodedata {}) differ from this CPython's (unicodedata {version}): \
         {} vs {} interesting code points; first differences:\n{}",
        strings::UNIDATA_VERSION,
        ours.len(),
        expected.len(),
        differ.join("\n")
    );
    eprintln!(
        "all {} code points agree with CPython (unicodedata {version})",
        0x110000 - 0x800
    );
}

/// A small deterministic generator (64-bit LCG).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, from: &'a [&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

/// Decimal digits of several scripts (each string is 0..9 of one script).
const DIGIT_SETS: &[&str] = &[
    "0123456789",
    "０１２３４５６７８９",
    "٠١٢٣٤٥٦٧٨٩",
    "۰۱۲۳۴۵۶۷۸۹",
    "०१२३४५६७८९",
    "০১২৩৪৫৬৭৮৯",
    "๐๑๒๓๔๕๖๗๘๙",
    "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗",
    "𝟶𝟷𝟸𝟹𝟺𝟻𝟼𝟽𝟾𝟿",
    "߀߁߂߃߄߅߆߇߈߉",
];

/// Characters that are numeric in some sense but not decimal, and look-alikes.
const NOT_DECIMAL: &[&str] = &[
    "²", "³", "¹", "⁰", "⁴", "₂", "①", "⑳", "½", "¼", "Ⅻ", "ⅷ", "七", "万", "〇", "٫", "٬", "．",
    "＋", "－", "ｅ", "Ｅ", "፩", "𐄇", "൰", "🄁",
];

const SPACES: &[&str] = &[
    " ", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", "\u{85}", "\u{a0}",
    "\u{1680}", "\u{2000}", "\u{2007}", "\u{200a}", "\u{2028}", "\u{2029}", "\u{202f}", "\u{205f}",
    "\u{3000}", "\u{200b}", "\u{180e}", "\u{feff}", "\u{7f}", "\0",
];

const ASCII_BITS: &[&str] = &[
    "+", "-", "_", "__", ".", "e", "E", "e+", "e-", "0x", "0X", "0o", "0b", "0B", "x", "a", "f",
    "z", "Z", "inf", "Infinity", "nan", "NaN", "iNf", "in", "j", "L", ",", "1", "0", "00",
];

/// One digit of a random script.
fn digit(r: &mut Rng, script: usize) -> String {
    let set: Vec<char> = DIGIT_SETS[script].chars().collect();
    set[r.below(10)].to_string()
}

/// A run of digits, mostly of one script, maybe with single underscores.
fn digits(r: &mut Rng, underscores: bool) -> String {
    let script = if r.below(3) == 0 {
        0
    } else {
        r.below(DIGIT_SETS.len())
    };
    let mut s = String::new();
    for i in 0..1 + r.below(6) {
        if underscores && i > 0 && r.below(4) == 0 {
            s.push('_');
        }
        let sc = if r.below(8) == 0 {
            r.below(DIGIT_SETS.len())
        } else {
            script
        };
        s.push_str(&digit(r, sc));
    }
    s
}

/// A number-like string: [ws] [sign] digits [. digits] [e [sign] digits] [ws].
fn numberish(r: &mut Rng) -> String {
    let mut s = String::new();
    for _ in 0..r.below(3) {
        s.push_str(r.pick(SPACES));
    }
    match r.below(4) {
        0 => s.push('-'),
        1 => s.push('+'),
        _ => {}
    }
    let us = r.below(3) == 0;
    match r.below(10) {
        0 => s.push_str(r.pick(&["inf", "infinity", "nan", "INF", "Nan", "iNfInItY"])),
        1 => {
            s.push_str(r.pick(&["0x", "0o", "0b", "0X", "0B", "0O", "0x_", "0b_"]));
            s.push_str(&digits(r, us));
        }
        _ => {
            if r.below(5) != 0 {
                s.push_str(&digits(r, us));
            }
            if r.below(3) == 0 {
                s.push('.');
                if r.below(4) != 0 {
                    s.push_str(&digits(r, us));
                }
            }
            if r.below(4) == 0 {
                s.push(if r.below(2) == 0 { 'e' } else { 'E' });
                if r.below(2) == 0 {
                    s.push(if r.below(2) == 0 { '+' } else { '-' });
                }
                s.push_str(&digits(r, us));
            }
        }
    }
    for _ in 0..r.below(3) {
        s.push_str(r.pick(SPACES));
    }
    s
}

/// Mutates a string: insert, replace or delete one character.
fn mutate(r: &mut Rng, s: &str) -> String {
    let mut chars: Vec<String> = s.chars().map(String::from).collect();
    let piece = match r.below(4) {
        0 => r.pick(SPACES).to_owned(),
        1 => r.pick(NOT_DECIMAL).to_owned(),
        2 => r.pick(ASCII_BITS).to_owned(),
        _ => {
            let script = r.below(DIGIT_SETS.len());
            digit(r, script)
        }
    };
    let at = r.below(chars.len() + 1);
    match r.below(3) {
        0 => chars.insert(at, piece),
        1 if at < chars.len() => chars[at] = piece,
        _ if at < chars.len() => {
            chars.remove(at);
        }
        _ => chars.push(piece),
    }
    chars.concat()
}

fn cases() -> Vec<String> {
    let mut r = Rng(0x5eed);
    let mut out: Vec<String> = vec![
        String::new(),
        "１２".into(),
        "٣".into(),
        "-１_２".into(),
        "\u{3000}١٢\u{a0}".into(),
        "\x1c12".into(),
        "12\x1f".into(),
        "\u{85}7\u{85}".into(),
        "²".into(),
        "1²".into(),
        "½".into(),
        "0x_1F".into(),
        "0_0".into(),
        "010".into(),
        "00".into(),
        "1__0".into(),
        "_1".into(),
        "1_".into(),
        "1_000.000_1".into(),
        "1_e5".into(),
        "1e_5".into(),
        "٣٫٥".into(),
        "１.５e１".into(),
        "-nan".into(),
        "+Infinity".into(),
        " \t\n\x0b\x0c\r".into(),
        "\x1c\x1d\x1e\x1f".into(),
        "a\x1cb\x1dc\u{85}d\u{a0}e\u{3000}f\u{200b}g".into(),
        "1".repeat(4300),
        "1".repeat(4301),
        "f".repeat(5000),
    ];
    for _ in 0..4000 {
        let s = numberish(&mut r);
        out.push(s.clone());
        for _ in 0..r.below(3) {
            let m = mutate(&mut r, out.last().unwrap());
            out.push(m);
        }
    }
    // Free-form strings: words and white space of every kind.
    for _ in 0..1500 {
        let mut s = String::new();
        for _ in 0..r.below(8) {
            s.push_str(match r.below(4) {
                0 => r.pick(SPACES),
                1 => r.pick(NOT_DECIMAL),
                2 => r.pick(ASCII_BITS),
                _ => r.pick(&["solid", "vertex", "١.٥", "-0", "x y", "１２３"]),
            });
        }
        out.push(s);
    }
    out
}

fn bits(f: Option<f64>) -> Json {
    f.map_or(Json::Null, |f| Json::from(f.to_bits().to_string()))
}

/// Python's `hex(i)` (ints are compared in hex: CPython's `str` of a long int is limited).
fn hex(i: &python::BigInt) -> String {
    match i.sign() {
        num_bigint::Sign::Minus => format!("-0x{:x}", -i),
        _ => format!("0x{i:x}"),
    }
}

fn int(s: &str, base: u32) -> Json {
    strings::int_with_base(s, base).map_or(Json::Null, |i| Json::from(hex(&i)))
}

fn ours(s: &str) -> Json {
    json!({
        "isdigit": strings::isdigit(s),
        "isdecimal": strings::isdecimal(s),
        "isnumeric": strings::isnumeric(s),
        "isspace": strings::isspace(s),
        "strip": strings::strip(s),
        "split": strings::split_whitespace(s).collect::<Vec<_>>(),
        "int": int(s, 10),
        "int0": int(s, 0),
        "int16": int(s, 16),
        "int36": int(s, 36),
        "float": bits(strings::float(s)),
    })
}

/// The evaluator's `int(s)` and `float(s)` of the same string, as the oracle writes them.
fn evaluated(s: &str) -> (Json, Json) {
    let call = |f: &str| python::eval(&format!("{f}({})", python::Value::from(s)));
    let int = match call("int") {
        Ok(v) => Json::from(hex(&v.as_bigint().unwrap())),
        Err(e) => {
            assert_eq!(e.kind().python_name(), "ValueError", "int({s:?}): {e}");
            Json::Null
        }
    };
    let float = match call("float") {
        Ok(v) => bits(v.as_f64()),
        Err(e) => {
            assert_eq!(e.kind().python_name(), "ValueError", "float({s:?}): {e}");
            Json::Null
        }
    };
    (int, float)
}

#[test]
fn strings_match_cpython() {
    let cases = cases();
    let input: String = cases
        .iter()
        .map(|s| Json::from(s.as_str()).to_string() + "\n")
        .collect();
    let Some(out) = oracle(&["cases"], Some(&input)) else {
        return;
    };
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), cases.len(), "one oracle line per case");
    let mut failures = Vec::new();
    let (mut ints, mut floats, mut non_ascii_numbers) = (0, 0, 0);
    for (s, line) in cases.iter().zip(&lines) {
        let expected: Json = serde_json::from_str(line).unwrap();
        let got = ours(s);
        if got != expected {
            let short = |v: &Json| {
                let t = v.to_string();
                match t.char_indices().nth(60) {
                    Some((at, _)) => format!("{}…", &t[..at]),
                    None => t,
                }
            };
            let fields: Vec<String> = got
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(k, v)| expected[k.as_str()] != **v)
                .map(|(k, v)| {
                    format!(
                        "{k}: ours {} CPython {}",
                        short(v),
                        short(&expected[k.as_str()])
                    )
                })
                .collect();
            failures.push(format!(
                "{}: {}",
                short(&Json::from(s.as_str())),
                fields.join("; ")
            ));
            continue;
        }
        let (int, float) = evaluated(s);
        if int != expected["int"] || float != expected["float"] {
            failures.push(format!(
                "{s:?}: the evaluator's int/float give {int} / {float}, CPython {} / {}",
                expected["int"], expected["float"]
            ));
        }
        ints += usize::from(!expected["int"].is_null());
        floats += usize::from(!expected["float"].is_null());
        non_ascii_numbers += usize::from(!s.is_ascii() && !expected["float"].is_null());
    }
    eprintln!(
        "{} strings compared with CPython: {ints} are ints, {floats} floats \
         ({non_ascii_numbers} of those not ASCII); {} mismatches",
        cases.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} strings differ from CPython:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
