use super::*;

#[test]
fn tables_compile_and_every_rule_is_catalogued() {
    let t = tables();
    assert!(t.lex.len() >= 20);
    for c in &t.combos {
        assert!(
            crate::rules::get(&c.rule).is_some(),
            "{} emits {}",
            c.id,
            c.rule
        );
    }
    // Secret/context concepts are what the purpose check reads.
    assert_ne!(t.c.mask_what, 0);
}

#[test]
fn a_docstring_line_names_its_parameter() {
    for (line, want) in [
        (
            "watermark (str): text stamped on every page;",
            Some("watermark"),
        ),
        (
            "@param {string} policy_digest - the policies",
            Some("policy_digest"),
        ),
        (":param note: free text", Some("note")),
        ("- 'iban': the payee's account", Some("iban")),
        ("returns: the url", Some("returns")),
        ("note that the call is slow", None),
        ("x: too short", None),
        ("uses (a lot): of memory", Some("uses")),
    ] {
        assert_eq!(super::documented_param(line), want, "{line}");
    }
}
