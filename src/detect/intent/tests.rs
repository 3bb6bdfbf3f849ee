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

#[test]
fn a_typosquat_swaps_two_adjacent_letters() {
    assert!(swapped_letters("brave_web_search", "brave_web_serach"));
    assert!(swapped_letters("send_email", "send_emial"));
    assert!(!swapped_letters("read_file", "read_files"));
    assert!(!swapped_letters("read_file", "read_file"));
    assert!(!swapped_letters("create_issue", "craete_isuse"));
    assert!(!swapped_letters("get_v12", "get_v21"));
    assert_eq!(impostor_of("brave_web_serach"), Some("brave_web_search"));
    assert_eq!(impostor_of("brave_web_search"), None);
}
