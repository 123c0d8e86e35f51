//! Finding the list a model's answer carries, as SCBench's harness does for
//! the VisGeomBench tasks: a structured answer is a dict holding the list
//! under its key; anything else is text, from which the answer parser takes
//! the last balanced `[...]`.

use super::{Value, eval};

/// The list an answer carries: `answer[key]` when the answer (a Python
/// literal; JSON parses too) is a dict holding a list there, the answer
/// itself when it is a list or tuple, else the last balanced `[...]` of the
/// text, evaluated. `None` when there is no such list.
pub fn answer_list(text: &str, key: &str) -> Option<Value> {
    let answer = eval(text.trim()).unwrap_or_else(|_| Value::from(text));
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
