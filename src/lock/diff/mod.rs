//! The semantic catalog diff: what a reviewer needs to read about a change to a
//! server's surface (tool added, description changed, required argument removed,
//! annotation flipped …). Computed by the lockfile stage, rendered by the
//! terminal and Markdown reports and by the Action's PR comment.

mod compute;
mod model;
mod render;
#[cfg(test)]
mod tests;

pub use compute::{added_server, diff_lockfiles, diff_surfaces, whitespace_only, word_diff};
pub use model::{CatalogDiff, Change, ChangeKind, WordPart};
pub use render::{render_terminal, render_words};
