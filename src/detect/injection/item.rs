//! Stage 2 across the fields of one item (`check_item`).

use crate::detect::unicode::at_field;
use crate::finding::Finding;
use crate::surface::{Channel, ServerSurface, TextField};

/// Stage 2 across the fields of one item: a structure split over its
/// description and a parameter (or two parameters) that no single field holds.
pub fn check_item(
    s: &ServerSurface,
    list: &str,
    item: &str,
    kind: &'static str,
    signals: &[crate::detect::intent::FieldSignals],
    out: &mut Vec<Finding>,
) {
    let prefix = format!("{list}[{item}]");
    let mut already = std::collections::HashMap::new();
    for f in out
        .iter()
        .filter(|f| f.field.as_deref().is_some_and(|p| p.starts_with(&prefix)))
    {
        let worst = already
            .entry(f.rule_id.clone())
            .or_insert((f.severity, f.confidence));
        *worst = (*worst).max((f.severity, f.confidence));
    }
    let field = TextField {
        path: prefix.clone(),
        channel: Channel::Description,
        text: "",
        item: Some(item),
        item_kind: kind,
    };
    for x in crate::detect::intent::analyse_item(signals, &already) {
        let title = crate::rules::get(&x.rule)
            .map(|r| r.title.to_lowercase())
            .unwrap_or_default();
        out.push(
            at_field(s, &field, &x.rule, format!("{title}, split across fields"))
                .severity(x.severity)
                .confidence(x.confidence)
                .evidence(x.evidence),
        );
    }
}
