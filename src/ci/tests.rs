use super::*;
use crate::score::{FailOn, Grade};

#[test]
fn inputs_defaults_and_refusals() {
    let i = Inputs::from_env(&Env::default()).unwrap();
    assert_eq!(
        (i.fail_on, i.fail_on_drift, i.live, i.comment),
        (FailOn::At(Grade::F), true, Live::Off, true)
    );
    assert_eq!(
        (
            i.sarif_file.as_deref(),
            i.lockfile.as_str(),
            i.path.as_str()
        ),
        (None, "mcptrustchecker.lock", ".")
    );
    assert_eq!(
        (i.category.as_deref(), i.comment_header.as_deref()),
        (None, None)
    );
    let none = Env::from_pairs([("INPUT_FAIL-ON".into(), "None".into())]);
    assert_eq!(Inputs::from_env(&none).unwrap().fail_on, FailOn::Never);
    let env = Env::from_pairs([
        ("INPUT_FAIL-ON".into(), "c".into()),
        ("INPUT_LIVE".into(), "force".into()),
        ("INPUT_INCLUDE-BUILTINS".into(), "false".into()),
    ]);
    let i = Inputs::from_env(&env).unwrap();
    assert_eq!(
        (i.fail_on, i.live, i.include_builtins),
        (FailOn::At(Grade::C), Live::Force, None)
    );
    assert!(Inputs::from_env(&Env::from_pairs([("INPUT_FAIL-ON".into(), "Z".into())])).is_err());
    assert_eq!(
        Inputs::from_env(&Env::default()).unwrap().max_file_bytes,
        crate::parse::DEFAULT_MAX_FILE_BYTES
    );
    let size = |v: &str| {
        Inputs::from_env(&Env::from_pairs([("INPUT_MAX-FILE-SIZE".into(), v.into())]))
            .map(|i| i.max_file_bytes)
    };
    assert_eq!(size(" 67108864 "), Ok(67108864));
    for bad in ["0", "-1", "16MB", "1e9"] {
        let e = size(bad).unwrap_err();
        assert!(e.contains("`max-file-size`"), "{e}");
    }
    let env = Env::from_pairs([("INPUT_PASS-ENV".into(), "A_TOKEN, B\nC".into())]);
    assert_eq!(
        Inputs::from_env(&env).unwrap().pass_env,
        ["A_TOKEN", "B", "C"]
    );
    let gh = |v: Option<&str>| {
        graphql_url(&Env::from_pairs(
            v.map(|v| ("GITHUB_API_URL".to_string(), v.to_string())),
        ))
    };
    assert_eq!(gh(None), "https://api.github.com/graphql");
    assert_eq!(
        gh(Some("https://ghe.example/api/v3/")),
        "https://ghe.example/api/graphql"
    );
}

#[test]
fn sarif_goes_under_runner_temp_or_its_container_mount() {
    let ws = tempfile::tempdir().unwrap();
    let space = Workspace::new(ws.path()).unwrap();
    let inputs = |sarif: Option<&str>, category: Option<&str>| {
        let mut i = Inputs::from_env(&Env::default()).unwrap();
        i.sarif_file = sarif.map(str::to_string);
        i.category = category.map(str::to_string);
        i
    };
    // Outside Actions: in the workspace.
    let (w, shown) = sarif_target(&space, &inputs(None, None), &Env::default()).unwrap();
    assert_eq!(shown, "mcptrustchecker.sarif");
    assert_eq!(w, space.root().join("mcptrustchecker.sarif"));
    // A runner's own temp directory.
    let temp = tempfile::tempdir().unwrap();
    let t = temp.path().to_string_lossy().to_string();
    let env = Env::from_pairs([("RUNNER_TEMP".into(), t.clone())]);
    let (w, shown) = sarif_target(&space, &inputs(None, Some("mcp/prod")), &env).unwrap();
    assert_eq!(shown, format!("{t}/mcptrustchecker-mcp-prod.sarif"));
    assert!(w.ends_with("mcptrustchecker-mcp-prod.sarif") && !w.starts_with(space.root()));
    // A container action: RUNNER_TEMP is the host's, HOME is its `_github_home`.
    let home = tempfile::tempdir().unwrap();
    let env = Env::from_pairs([
        ("RUNNER_TEMP".into(), "/home/runner/work/_temp".into()),
        ("HOME".into(), home.path().to_string_lossy().to_string()),
    ]);
    let (w, shown) = sarif_target(&space, &inputs(None, None), &env).unwrap();
    assert_eq!(
        shown,
        "/home/runner/work/_temp/_github_home/mcptrustchecker.sarif"
    );
    assert_eq!(
        w,
        std::fs::canonicalize(home.path())
            .unwrap()
            .join("mcptrustchecker.sarif")
    );
    let explicit = "/home/runner/work/_temp/_github_home/x/r.sarif";
    let (w, shown) = sarif_target(&space, &inputs(Some(explicit), None), &env).unwrap();
    assert_eq!(shown, explicit);
    assert!(w.ends_with("x/r.sarif"));
    // Elsewhere in RUNNER_TEMP is not mounted in a container: refused.
    assert!(
        sarif_target(
            &space,
            &inputs(Some("/home/runner/work/_temp/r.sarif"), None),
            &env
        )
        .is_err()
    );
    // A workspace path is written there.
    let (w, shown) = sarif_target(&space, &inputs(Some("out/r.sarif"), None), &env).unwrap();
    assert_eq!(
        (w, shown.as_str()),
        (space.root().join("out/r.sarif"), "out/r.sarif")
    );
}
