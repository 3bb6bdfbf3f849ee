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
