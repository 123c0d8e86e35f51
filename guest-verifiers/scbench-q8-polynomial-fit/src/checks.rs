//! The text checks `_gradeAnswerImpl` makes before it runs anything, in its order, with
//! its messages.

pub use verigate_sdk::py_strip;

/// The letter filter: `def`, `f`, `return`, `x`, `y`, `e` removed in that order (each
/// followed by `.strip()`); what is left.
pub fn leftover(function: &str) -> String {
    let mut left = function.to_owned();
    for word in ["def", "f", "return", "x", "y", "e"] {
        left = py_strip(&left.replace(word, "")).to_owned();
    }
    left
}

/// The first failing check's explanation, or `None` when the text may be executed.
pub fn precheck(function: &str) -> Option<String> {
    let left = leftover(function);
    if left.chars().any(|c| c.is_ascii_alphabetic()) {
        return Some(format!(
            "Invalid characters in answer: {function}. It contained \"{left}\". Score is 0"
        ));
    }
    if !function.replace(' ', "").contains("deff(x,y):") {
        return Some(format!(
            "Invalid function signature in answer: {function}. It must contain \"def f(x, y):\". Score is 0"
        ));
    }
    if !function.contains("return") {
        return Some(format!(
            "Invalid function signature in answer: {function}. It must contain \"return\". Score is 0"
        ));
    }
    // `re.search(r"return [^x]*x", answer)`: some "return " followed, anywhere later, by x.
    let after = function.find("return ").map(|i| &function[i + 7..]);
    if !after.is_some_and(|rest| rest.contains('x')) {
        return Some("Invalid function - must use x in it's return calculation".into());
    }
    if !after.is_some_and(|rest| rest.contains('y')) {
        return Some("Invalid function - must use y in it's return calculation".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letter_filter_removes_words_in_order() {
        assert_eq!(
            leftover("def f(x, y):\n    return 1e3*x - y"),
            "(, ):\n     13* -"
        );
        // "fed": f goes first, then e, leaving d.
        assert_eq!(leftover(" fed "), "d");
        // Python's strip also removes U+001F.
        assert_eq!(py_strip("\u{1f} a\u{a0}"), "a");
        assert_eq!(
            precheck("def f(x, y):\n    return abs(x) - y").unwrap(),
            "Invalid characters in answer: def f(x, y):\n    return abs(x) - y. It contained \"(, ):\n     abs() -\". Score is 0"
        );
    }

    #[test]
    fn signature_and_return_checks() {
        assert_eq!(
            precheck("def g(x, y): return x*y").unwrap(),
            "Invalid characters in answer: def g(x, y): return x*y. It contained \"g(, ):  *\". Score is 0"
        );
        assert!(
            precheck("def f(y, x):\n    return x*y")
                .unwrap()
                .starts_with("Invalid function signature in answer: def f(y, x):")
        );
        // Spaces are ignored in the signature, tabs are not.
        assert_eq!(precheck("def  f ( x ,y ) :\n return x*y"), None);
        assert!(precheck("def f(x,\ty):\n return x*y").is_some());
        assert_eq!(
            precheck("def f(x, y):\n    return(x*y)").unwrap(),
            "Invalid function - must use x in it's return calculation"
        );
        assert_eq!(
            precheck("def f(x, y):\n    return x*x").unwrap(),
            "Invalid function - must use y in it's return calculation"
        );
        // x anywhere after "return " will do, even in a later line.
        assert_eq!(precheck("def f(x, y):\n    return 1\n    return x*y"), None);
    }
}
