//! Proof scores, the judge-output format and the verifier-gated rule (Sec. 3.5, App. E.2, E.4).

use serde::{Deserialize, Serialize};

/// A proof score: 0, 1, 6 or 7 points out of 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct ProofScore(u8);

impl ProofScore {
    /// The allowed point values.
    pub const VALUES: [u8; 4] = [0, 1, 6, 7];
    /// The full score.
    pub const MAX: u8 = 7;

    /// The score, if `points` is one of 0, 1, 6, 7.
    pub fn new(points: u8) -> Option<ProofScore> {
        Self::VALUES.contains(&points).then_some(ProofScore(points))
    }

    /// Points out of 7.
    pub fn points(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for ProofScore {
    type Error = String;
    fn try_from(points: u8) -> Result<Self, String> {
        ProofScore::new(points)
            .ok_or_else(|| format!("proof score {points} is not one of 0, 1, 6, 7"))
    }
}

impl From<ProofScore> for u8 {
    fn from(score: ProofScore) -> u8 {
        score.0
    }
}

/// The verifier-gated score of a construction-centric response: the proof
/// score when the construction passed; otherwise 7 → 6, 6 → 1, and 0 and 1 unchanged.
pub fn gated_score(proof: ProofScore, construction_passed: bool) -> ProofScore {
    match (proof.0, construction_passed) {
        (_, true) => proof,
        (7, false) => ProofScore(6),
        (6, false) => ProofScore(1),
        (_, false) => proof,
    }
}

/// The score in a judge's output: exactly one `<points>N out of 7</points>`
/// with N in {0, 1, 6, 7}; anything else is unscored (`None`).
pub fn parse_judge_output(output: &str) -> Option<ProofScore> {
    const OPEN: &str = "<points>";
    const CLOSE: &str = "</points>";
    if output.matches(OPEN).count() != 1 || output.matches(CLOSE).count() != 1 {
        return None;
    }
    let start = output.find(OPEN)? + OPEN.len();
    let end = start + output[start..].find(CLOSE)?;
    let inner = output[start..end].trim();
    let points = inner.strip_suffix("out of 7")?.trim();
    if points.is_empty() || !points.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    ProofScore::new(points.parse().ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gated_rule_on_all_eight_pairs() {
        let expected = [
            (0, true, 0),
            (1, true, 1),
            (6, true, 6),
            (7, true, 7),
            (0, false, 0),
            (1, false, 1),
            (6, false, 1),
            (7, false, 6),
        ];
        for (p, c, gated) in expected {
            let score = ProofScore::new(p).unwrap();
            assert_eq!(gated_score(score, c).points(), gated, "p={p} c={c}");
        }
    }

    #[test]
    fn only_0_1_6_7_are_scores() {
        let valid: Vec<u8> = (0..=20).filter(|&p| ProofScore::new(p).is_some()).collect();
        assert_eq!(valid, [0, 1, 6, 7]);
        assert!(serde_json::from_str::<ProofScore>("5").is_err());
        assert_eq!(serde_json::from_str::<ProofScore>("6").unwrap().points(), 6);
    }

    #[test]
    fn judge_output_parsing() {
        let score = |s: &str| parse_judge_output(s).map(ProofScore::points);
        assert_eq!(score("Good.\n<points>7 out of 7</points>"), Some(7));
        assert_eq!(score("<points> 1 out of 7 </points>"), Some(1));
        assert_eq!(
            score("<points>5 out of 7</points>"),
            None,
            "not an allowed value"
        );
        assert_eq!(
            score("<points>7 out of 7</points> <points>0 out of 7</points>"),
            None
        );
        assert_eq!(score("7 out of 7"), None);
        assert_eq!(score("<points>7/7</points>"), None);
        assert_eq!(score("<points>+7 out of 7</points>"), None);
        assert_eq!(score("<points>07 out of 7</points>"), Some(7));
        assert_eq!(score("<points>6 out of 10</points>"), None);
    }
}
