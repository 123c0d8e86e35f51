//! Finding the list a model's answer carries, as SCBench's harness does for
//! the VisGeomBench tasks: a structured answer is a dict holding the list
//! under its key; anything else is text, from which the answer parser takes
//! the last balanced `[...]`.

use super::value::{Dict, V, py_hash};
use super::{Value, eval};
use std::rc::Rc;

/// A model answer as SCBench's harness hands it to a grader: a Python
/// literal (the repository stores answers as `repr`), else JSON (a
/// structured-output answer, where `true`/`false`/`null` are Python's
/// `True`/`False`/`None`), else the text itself as a `str`.
///
/// ```
/// use verigate_sdk::python::answer;
/// assert_eq!(answer("{'xy': [1, 2], 'ok': True}").to_string(), "{'xy': [1, 2], 'ok': True}");
/// assert_eq!(answer(r#" {"xy": [1, 2.5], "ok": true, "n": null} "#).to_string(),
///            "{'n': None, 'ok': True, 'xy': [1, 2.5]}");
/// assert_eq!(answer("no literal").as_str(), Some("no literal"));
/// ```
pub fn answer(text: &str) -> Value {
    let trimmed = text.trim();
    eval(trimmed)
        .ok()
        .or_else(|| {
            serde_json::from_str::<serde_json::Value>(trimmed)
                .ok()
                .map(|json| from_json(&json))
        })
        .unwrap_or_else(|| Value::from(text))
}

/// A JSON value as the Python value `json.loads` gives (object keys in
/// sorted order: graders look keys up, they do not iterate them).
pub fn from_json(json: &serde_json::Value) -> Value {
    use serde_json::Value as J;
    match json {
        J::Null => Value::none(),
        J::Bool(b) => Value::from(*b),
        J::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Value::from(i),
            (None, Some(u)) => Value::from(super::BigInt::from(u)),
            _ => Value::from(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::String(s) => Value::from(s.as_str()),
        J::Array(items) => Value::list(items.iter().map(from_json)),
        J::Object(map) => {
            let mut dict = Dict::new();
            for (key, value) in map {
                let key = Value::from(key.as_str());
                // Strings always hash.
                let hash = py_hash(&key).unwrap_or(0);
                dict.insert(key, hash, from_json(value));
            }
            Value(V::Dict(Rc::new(dict)))
        }
    }
}

/// The list an answer carries: `answer[key]` when the answer (a Python
/// literal; JSON parses too) is a dict holding a list there, the answer
/// itself when it is a list or tuple, else the last balanced `[...]` of the
/// text, evaluated. `None` when there is no such list.
pub fn answer_list(text: &str, key: &str) -> Option<Value> {
    let answer = answer(text);
    if let Some(list) = answer
        .as_dict()
        .and_then(|d| d.get(key))
        .filter(|v| v.as_list().is_some())
    {
        return Some(list.clone());
    }
    if answer.as_sequence().is_some() {
        return Some(answer);
    }
    let source = answer.as_str()?;
    last_bracketed(source).and_then(|s| eval(s).ok())
}

/// The last balanced `[...]` of `text`, scanning back from its last `]`.
fn last_bracketed(text: &str) -> Option<&str> {
    let end = text.rfind(']')?;
    let mut depth = 0usize;
    for (i, c) in text[..=end].char_indices().rev() {
        match c {
            ']' => depth += 1,
            '[' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[i..=end]);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dict_list_and_free_text_forms() {
        let want = eval("[[1, 2], [3]]").unwrap();
        assert_eq!(
            answer_list("{'xs': [[1, 2], [3]], 'reasoning': ''}", "xs"),
            Some(want.clone())
        );
        assert_eq!(
            answer_list("{\"xs\": [[1, 2], [3]]}", "xs"),
            Some(want.clone())
        );
        assert_eq!(answer_list("[[1, 2], [3]]", "xs"), Some(want.clone()));
        assert_eq!(
            answer_list(
                "<thinking>[0]</thinking>\n```python\n[[1, 2], [3]]\n```",
                "xs"
            ),
            Some(want)
        );
        assert_eq!(answer_list("{'xs': 3}", "xs"), None);
        assert_eq!(answer_list("no list here", "xs"), None);
    }
}
