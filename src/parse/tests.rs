use super::json::strict_json;
use super::*;
use proptest::prelude::*;

#[test]
fn jsonc_positions_comments_and_trailing_commas() {
    let t = "{\n  // c\n  \"servers\": {\n    \"a\": {\"command\": \"npx\",},\n  },\n}\n";
    let d = jsonc(t, "x.json").unwrap();
    assert_eq!(d.value["servers"]["a"]["command"], "npx");
    assert_eq!(d.pos("/servers"), Some((3, 3)));
    assert_eq!(d.pos("/servers/a"), Some((4, 5)));
}

#[test]
fn jsonc_reports_line_of_error() {
    let e = jsonc("{\n  \"a\": 1\n  \"b\": 2\n}", "bad.json").unwrap_err();
    assert_eq!(e.path, "bad.json");
    assert_eq!(e.line, Some(2)); // the comma was expected at the end of line 2
}

#[test]
fn jsonc_duplicate_keys_are_recorded() {
    let d = jsonc("{\"m\": {\"check\": 1,\n \"check\": 2}}", "d.json").unwrap();
    assert_eq!(d.value["m"]["check"], 2);
    assert_eq!(d.duplicates, vec![("/m/check".to_string(), 1, 8)]);
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    assert!(jsonc(&deep, "deep.json").is_err());
    assert!(toml(&format!("a = {deep}"), "deep.toml").is_err());
    assert!(yaml(&deep, "deep.yaml").is_err());
}

#[test]
fn huge_number_is_kept_as_text() {
    let n = "1".repeat(10_000);
    let d = jsonc(&format!("{{\"n\": {n}}}"), "n.json").unwrap();
    assert_eq!(d.value["n"].as_str().map(str::len), Some(10_000));
}

/// A JSON text built from a small grammar with tricky parts: duplicate and
/// escaped keys, numbers on every boundary serde_json and the located
/// parser treat differently, escapes, lone surrogates, raw controls, comments
/// and trailing commas (the last ones must leave the fast path).
fn json_text() -> impl Strategy<Value = String> {
    let number = prop_oneof![
        Just("0"),
        Just("-0"),
        Just("-0.0"),
        Just("1.0"),
        Just("1E5"),
        Just("1e+5"),
        Just("0.1"),
        Just("1e400"),
        Just("-1e400"),
        Just("5e-324"),
        Just("1e-400"),
        Just("18446744073709551615"),
        Just("18446744073709551616"),
        Just("-9223372036854775808"),
        Just("-9223372036854775809"),
        Just("1.7976931348623157e308"),
        Just("123456789012345678901234567890123456789"),
        Just("12345678901234567890123456789012345678901"),
        Just("0.30000000000000004"),
        Just("01"),
        Just("1."),
        Just("-"),
        Just(".5"),
    ]
    .prop_map(str::to_string);
    let string = prop_oneof![
        "[a-z /~é😀]{0,6}".prop_map(|s| format!("\"{s}\"")),
        Just("\"a\\u0062\"".to_string()),
        Just("\"\\ud83d\\ude00\"".to_string()),
        Just("\"\\ud800\"".to_string()),
        Just("\"tab\there\"".to_string()),
        Just("\"\\n\\/\\\\\"".to_string()),
    ];
    let key = prop_oneof![
        Just("\"a\"".to_string()),
        Just("\"b\"".to_string()),
        Just("\"ab\"".to_string()),
        Just("\"a\\u0062\"".to_string()),
        Just("\"x/y~z\"".to_string()),
    ];
    let ws = prop_oneof![
        Just(""),
        Just(" "),
        Just("\n"),
        Just("\r\n  "),
        Just("\t"),
        Just(" // c\n")
    ];
    let leaf = prop_oneof![
        number,
        string,
        Just("true".to_string()),
        Just("null".to_string()),
        Just("false".to_string())
    ];
    let ws2 = ws.clone();
    leaf.prop_recursive(8, 64, 6, move |inner| {
        let ws = ws2.clone();
        prop_oneof![
            (
                proptest::collection::vec((ws.clone(), inner.clone()), 0..6),
                any::<bool>()
            )
                .prop_map(|(items, trailing)| {
                    let body: Vec<String> =
                        items.into_iter().map(|(w, v)| format!("{w}{v}")).collect();
                    format!(
                        "[{}{}]",
                        body.join(","),
                        if trailing && !body.is_empty() {
                            ","
                        } else {
                            ""
                        }
                    )
                }),
            proptest::collection::vec((ws.clone(), key.clone(), ws, inner), 0..6).prop_map(|m| {
                let body: Vec<String> = m
                    .into_iter()
                    .map(|(w, k, w2, v)| format!("{w}{k}{w2}:{v}"))
                    .collect();
                format!("{{{}}}", body.join(","))
            }),
        ]
    })
    .prop_flat_map(move |doc| (ws.clone(), Just(doc)).prop_map(|(w, d)| format!("{w}{d}{w}")))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    /// The fast path never changes a document: whenever it answers, the
    /// located parser gives the same value, positions and duplicates.
    #[test]
    fn strict_json_fast_path_equals_the_located_parser(text in json_text()) {
        let located = jsonc_located(&text, "p.json");
        if let Some(fast) = strict_json(&text) {
            prop_assert_eq!(Ok(fast), located, "{}", text);
        }
    }
}

#[test]
fn strict_json_takes_the_fast_path_with_positions() {
    let t = "{\n  \"servers\": {\n    \"a~/\": {\"args\": [1, \"x\", {\"k\": null}]}\n  }\n}\n";
    let fast = strict_json(t).expect("strict JSON takes the fast path");
    assert_eq!(Ok(fast.clone()), jsonc_located(t, "s.json"));
    assert_eq!(fast.pos("/servers/a~0~1/args/2/k"), Some((3, 31)));
    assert!(
        strict_json("{\"a\": 1, \"a\": 2}").is_none(),
        "duplicates go to the located parser"
    );
    assert!(strict_json("{\"a\": 1,}").is_none());
    assert!(strict_json("{\"a\": -0}").is_none());
}

#[test]
fn toml_positions() {
    let t = "# c\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"x\"]\n";
    let d = toml(t, "c.toml").unwrap();
    assert_eq!(d.value["mcp_servers"]["docs"]["args"][1], "x");
    assert_eq!(d.pos("/mcp_servers/docs/command"), Some((3, 1)));
    assert!(d.pos("/mcp_servers/docs").is_some());
}

#[test]
fn yaml_positions_lists_and_scalars() {
    let t = "name: x\nmcpServers:\n  - name: docs\n    command: npx\n    args: [\"-y\", 1]\n    on: true\n";
    let d = yaml(t, "c.yaml").unwrap();
    assert_eq!(d.value["mcpServers"][0]["name"], "docs");
    assert_eq!(d.value["mcpServers"][0]["args"][1], 1);
    assert_eq!(d.value["mcpServers"][0]["on"], true);
    assert_eq!(d.pos("/mcpServers"), Some((2, 1)));
    assert_eq!(d.pos("/mcpServers/0").map(|p| p.0), Some(3));
    assert_eq!(d.pos("/mcpServers/0/command"), Some((4, 5)));
}

#[test]
fn yaml_bomb_is_refused() {
    let mut t = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let p = i - 1;
        t.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let e = yaml(&t, "bomb.yaml").unwrap_err();
    assert!(e.message.contains("nodes"), "{e}");
}

#[test]
fn invalid_utf8_names_the_line() {
    let e = decode_utf8(b"ok\nbad \xff here".to_vec(), "u.json").unwrap_err();
    assert_eq!(e.line, Some(2));
}

#[test]
fn front_matter_split() {
    let (y, off) = front_matter("---\na: 1\n---\nbody").unwrap();
    assert_eq!((y, off), ("a: 1\n", 1));
    assert!(front_matter("no front matter").is_none());
}
