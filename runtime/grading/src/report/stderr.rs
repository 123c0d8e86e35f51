//! Standard errors over items, so two runs can be compared honestly: the
//! items are the independent draws (a benchmark's items, not its samples).
//!
//! For a per-item figure (Best@k, Pass@k, Pass^k, Pass@1) the error of the
//! mean of n item values is `s / √n`, with `s` the sample standard deviation
//! (n − 1 in its denominator). For Avg., a mean over samples, each item is
//! a cluster of its samples: `√(n/(n−1) · Σᵢ (Sᵢ − Avg.·kᵢ)²) / K`, with Sᵢ
//! the item's score sum, kᵢ its samples and K all samples — which is `s / √n`
//! of the item means when every item has the same k. One item: no error.

/// The standard error of the mean of `values`; `None` for fewer than two.
pub(super) fn of_mean(values: &[f64]) -> Option<f64> {
    let n = values.len();
    if n < 2 {
        return None;
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    let squares: f64 = values.iter().map(|v| (v - mean) * (v - mean)).sum();
    Some((squares / (n - 1) as f64).sqrt() / (n as f64).sqrt())
}

/// The standard error of a mean over samples clustered in items, given each
/// item's (score sum, samples) and the mean; `None` for fewer than two items.
pub(super) fn of_clustered_mean(items: &[(f64, usize)], mean: f64) -> Option<f64> {
    let n = items.len();
    if n < 2 {
        return None;
    }
    let samples: usize = items.iter().map(|&(_, k)| k).sum();
    let squares: f64 = items
        .iter()
        .map(|&(sum, k)| (sum - mean * k as f64).powi(2))
        .sum();
    Some((n as f64 / (n - 1) as f64 * squares).sqrt() / samples as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_of_a_mean_is_the_sample_deviation_over_root_n() {
        // Values 0, 1, 1, 0: mean 0.5, s² = 1/3, se = √(1/3)/2.
        let se = of_mean(&[0.0, 1.0, 1.0, 0.0]).unwrap();
        assert!((se - (1.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-15);
        assert_eq!(of_mean(&[0.7]), None);
    }

    #[test]
    fn equal_clusters_give_the_error_of_the_item_means() {
        // Two samples per item, item means 1, 0.5, 0: overall mean 0.5.
        let items = [(2.0, 2), (1.0, 2), (0.0, 2)];
        let clustered = of_clustered_mean(&items, 0.5).unwrap();
        let plain = of_mean(&[1.0, 0.5, 0.0]).unwrap();
        assert!((clustered - plain).abs() < 1e-15);
        assert_eq!(of_clustered_mean(&[(1.0, 3)], 1.0 / 3.0), None);
    }
}
