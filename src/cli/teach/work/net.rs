//! `taflbot net`: trains a variant's network beside its family's row of weights, on the same
//! positions and recorded games as `taflbot tune`, and writes it as text.

use super::{blended, curve, examples_of, on_results, Tune};
use crate::cli::CliError;
use crate::engine::net::train::{self, Sample, Training};
use crate::rules::Variant;

/// What `taflbot net` trains.
#[derive(Clone, Debug)]
pub struct NetPlan {
    /// The positions, recorded games, starting set (whose row the network is trained beside),
    /// and target, as for a fit of the row.
    pub tune: Tune,
    pub variant: &'static Variant,
    pub epochs: usize,
    pub seed: u64,
    /// The pull of the network's output towards zero ([`Training::pull`]).
    pub pull: f64,
}

/// Trains the network; returns its file's text and a report.
pub fn tune_net(plan: &NetPlan) -> Result<(String, String), CliError> {
    let variant = plan.variant;
    let family = variant.family;
    let mut raw = examples_of(&plan.tune, family)?;
    raw.retain(|(v, ..)| std::ptr::eq(*v, variant));
    if raw.is_empty() {
        return Err(CliError::message(format!(
            "no positions of {} to train on",
            variant.id
        )));
    }
    let row = plan.tune.from.weights(family);
    let w: Vec<f64> = row.values.iter().map(|v| f64::from(*v)).collect();
    let results = on_results(&plan.tune, &raw);
    let (k, centre) = curve(family, &results, &w);
    // The row's score of each position is its example's (the terms are worked out once), the
    // target the one a fit of the row would have.
    let examples = blended(&plan.tune, &raw, &results, k, centre);
    let samples: Vec<Sample> = raw
        .iter()
        .zip(results.iter().zip(&examples))
        .map(|((_, pos, _, _), (result, example))| {
            let base = result.score(&w).round() as i32;
            Sample::new(pos, base, f64::from(example.target))
        })
        .collect();
    let training = Training {
        k,
        epochs: plan.epochs,
        seed: plan.seed,
        pull: plan.pull,
        ..Training::default()
    };
    let mut progress =
        crate::cli::progress::Progress::new(format!("{}: epochs", variant.id), plan.epochs as u64);
    let (net, r) = train::train_told(variant, &samples, training, &mut || progress.step());
    progress.finish();
    let header = format!(
        "A network trained by `taflbot net` for {} beside the row of {}, on {} positions \
         ({} held out), slope {k:.5}.\n\
         The error of the chances on the held-out positions: the row alone {:.5}, with the \
         network {:.5}.\n\
         See docs/engine.md (\"How the engine was taught\") for the command that made it.",
        variant.id, plan.tune.from_name, r.trained, r.held, r.row_held, r.net_held,
    );
    let report = format!(
        "{}: {} positions trained on, {} held out, slope {k:.5}; error trained on {:.5} -> \
         {:.5}, held out {:.5} -> {:.5}\n",
        variant.id, r.trained, r.held, r.row_trained, r.net_trained, r.row_held, r.net_held
    );
    Ok((net.write(&header), report))
}
