use super::*;

#[test]
fn inline_escaping_neutralises_markdown_and_html() {
    let e = escape_inline(
        "@octocat <img src=x> [x](http://e) https://e.x www.e.x | ``` </details> # h #12",
    );
    for bad in [
        "@o",
        "<img",
        "[x]",
        "](",
        "://",
        "www.",
        "|",
        "```",
        "</details>",
        "# h",
    ] {
        assert!(!e.contains(bad), "{bad} survived in {e}");
    }
    assert!(e.contains("<code>@</code>octocat") && e.contains("<code>#</code>12"));
    assert_eq!(escape_inline("a\u{200B}b"), "a&lt;U+200B&gt;b");
    assert_eq!(
        escape_inline("tools[x].description: read (a) - b"),
        "tools&#91;x&#93;.description: read (a) - b"
    );
    assert_eq!(escape_inline("- x"), "&#45; x");
    assert_eq!(escape_inline("Www.e"), "Www&#46;e");
    assert_eq!(escape_inline("MailTo:a"), "MailTo&#58;a");
    assert_eq!(escape_inline("  x"), "&#32;&#32;x");
    assert_eq!(escape_inline("plain words, ok"), "plain words, ok");
}

#[test]
fn block_fence_outgrows_backtick_runs() {
    let b = escape_block("a\n````\nb\u{E0041}");
    assert!(b.starts_with("`````text\n"), "{b}");
    assert!(b.ends_with("\n`````\n"));
    assert!(b.contains("b<U+E0041>"));
}

#[test]
fn baseline_reads_a_json_report() {
    let b = Baseline::from_json(r#"{"servers":[{"id":"a#x","score":{"value":80,"grade":"B"}}]}"#)
        .unwrap();
    assert_eq!(b.servers["a#x"], (80, Grade::B));
    assert!(Baseline::from_json("[]").is_err());
    assert!(Baseline::from_json("{").is_err());
}

/// A 60,000-row table whose least important rows come first (grades in id
/// order) loses them in one pass per group, keeping exactly the most
/// important rows in their order.
#[test]
fn truncating_a_huge_mixed_table_keeps_the_right_rows() {
    let items: Vec<(String, u8)> = (0..60_000)
        .map(|i| (format!("| row {i} |\n"), if i < 30_000 { 8 } else { 1 }))
        .collect();
    let parts = vec![
        Part::Fixed("head\n".into()),
        Part::Group {
            head: "G\n".into(),
            items,
            tail: "\n".into(),
        },
    ];
    let out = finish(parts, 1, 65_000);
    assert!(out.chars().count() < 65_000);
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| row ")).collect();
    assert!(rows.len() > 1000, "{}", rows.len());
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(
            *r,
            format!("| row {} |", 30_000 + k),
            "kept in order, least important dropped"
        );
    }
}

#[test]
fn truncation_drops_least_severe_first() {
    let parts = vec![
        Part::Fixed("head\n".into()),
        Part::Group {
            head: "G\n".into(),
            items: vec![
                ("critical ".repeat(10), 1),
                ("info ".repeat(40), 6),
                ("low ".repeat(40), 4),
            ],
            tail: "\n".into(),
        },
        Part::Fixed("tail\n".into()),
    ];
    let out = finish(parts, 1, 400);
    assert!(out.chars().count() < 400, "{}", out.len());
    assert!(out.contains("critical") && !out.contains("info info") && out.contains("tail"));
    assert!(out.contains("Truncated"));
}
