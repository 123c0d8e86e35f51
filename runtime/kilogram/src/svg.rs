//! The little of SVG that KiloGram's tangram files use: `<polygon>`
//! elements with `id`, `points` and an optional `transform="matrix(…)"`.

/// One `<polygon>`: its `id`, its points with the transform applied (SVG
/// coordinates: y points down).
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    /// The `id` attribute (`""` when absent).
    pub id: String,
    /// The points, transformed.
    pub points: Vec<(f64, f64)>,
    /// Whether a `transform` attribute was applied.
    pub transformed: bool,
}

/// The attributes of a start tag's body (`name="value"` or `name='value'`).
fn attributes(tag: &str) -> Result<Vec<(&str, &str)>, String> {
    let mut out = Vec::new();
    let mut rest = tag.trim_start();
    while !rest.is_empty() && !rest.starts_with('/') {
        let eq = rest
            .find('=')
            .ok_or_else(|| format!("attribute without a value near `{}`", head(rest)))?;
        let name = rest[..eq].trim();
        let value = rest[eq + 1..].trim_start();
        let quote = value
            .chars()
            .next()
            .filter(|c| *c == '"' || *c == '\'')
            .ok_or_else(|| format!("attribute `{name}` is not quoted"))?;
        let end = value[1..]
            .find(quote)
            .ok_or_else(|| format!("attribute `{name}` is not closed"))?;
        out.push((name, &value[1..1 + end]));
        rest = value[end + 2..].trim_start();
    }
    Ok(out)
}

fn head(s: &str) -> &str {
    let end = s.char_indices().nth(20).map_or(s.len(), |(i, _)| i);
    &s[..end]
}

/// Numbers separated by white space and/or commas.
fn numbers(text: &str, what: &str) -> Result<Vec<f64>, String> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("{what}: `{s}` is not a number"))
        })
        .collect()
}

/// `matrix(a, b, c, d, e, f)`: `(x, y) → (a x + c y + e, b x + d y + f)`.
fn matrix(transform: &str) -> Result<[f64; 6], String> {
    let t = transform.trim();
    let inner = t
        .strip_prefix("matrix")
        .map(str::trim_start)
        .and_then(|t| t.strip_prefix('('))
        .and_then(|t| t.strip_suffix(')'))
        .ok_or_else(|| format!("transform `{t}` is not a single matrix(…)"))?;
    let v = numbers(inner, "transform")?;
    <[f64; 6]>::try_from(v.as_slice())
        .map_err(|_| format!("transform `{t}` does not have 6 numbers"))
}

/// Every `<polygon …>` of the document, in order.
pub fn polygons(svg: &str) -> Result<Vec<Polygon>, String> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find("<polygon") {
        let body = &rest[start + "<polygon".len()..];
        let end = body
            .find('>')
            .ok_or_else(|| "a <polygon> tag is not closed".to_owned())?;
        let attrs = attributes(&body[..end])?;
        let get = |name: &str| attrs.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        let id = get("id").unwrap_or("").to_owned();
        let coords = numbers(get("points").unwrap_or(""), "points")?;
        if coords.len() % 2 != 0 {
            return Err(format!(
                "polygon {id:?}: an odd count of numbers in `points`"
            ));
        }
        let mut points: Vec<(f64, f64)> = coords.chunks(2).map(|c| (c[0], c[1])).collect();
        let transform = get("transform");
        if let Some(t) = transform {
            let [a, b, c, d, e, f] = matrix(t).map_err(|e| format!("polygon {id:?}: {e}"))?;
            points = points
                .into_iter()
                .map(|(x, y)| (a * x + c * y + e, b * x + d * y + f))
                .collect();
        }
        out.push(Polygon {
            id,
            points,
            transformed: transform.is_some(),
        });
        rest = &body[end..];
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polygons_with_and_without_transforms() {
        let svg = r#"<svg><defs/><polygon fill="lightgray" id="1" points="0.0,0.0 2,0 2 2"/>
            <polygon id='7' points="1 0, 0 1" transform="matrix(0, 1, -1, 0, 10, 20)" /></svg>"#;
        let p = polygons(svg).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].id, "1");
        assert_eq!(p[0].points, vec![(0.0, 0.0), (2.0, 0.0), (2.0, 2.0)]);
        assert!(!p[0].transformed);
        assert_eq!(p[1].points, vec![(10.0, 21.0), (9.0, 20.0)]);
        assert!(polygons(r#"<polygon id="1" points="1 2 3"/>"#).is_err());
        assert!(polygons(r#"<polygon id="1" points="1 2" transform="rotate(30)"/>"#).is_err());
    }
}
