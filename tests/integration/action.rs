//! The Action's packaging: `action.yml`, the `Dockerfile` and the project's
//! workflows follow GitHub's rules and pass the linters installed by
//! `scripts/test-deps.sh` (hadolint, check-jsonschema's vendored GitHub
//! schemas, zizmor offline), and the entrypoint works on `fixtures/`.

use super::common::{mtc, repo};
use mcptrustchecker::parse;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// A linter from the test venv; missing means `scripts/test-deps.sh` was not run.
fn tool(name: &str) -> PathBuf {
    let p = repo().join(".cache/venv/bin").join(name);
    assert!(
        p.is_file(),
        "{} is missing: run `bash scripts/test-deps.sh`",
        p.display()
    );
    p
}

fn lint(name: &str, args: &[&str]) {
    let out = Command::new(tool(name))
        .args(args)
        .current_dir(repo())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name} {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(repo().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn dockerfile_follows_the_container_action_rules() {
    let text = read("Dockerfile");
    let instr: Vec<(String, String)> = text
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with('#') && l.chars().next().unwrap().is_ascii_uppercase()
        })
        .filter_map(|l| {
            l.split_once(' ')
                .map(|(k, v)| (k.to_string(), v.to_string()))
        })
        .collect();
    assert!(
        !instr.iter().any(|(k, _)| k == "USER"),
        "no USER: the action must run as root to read the workspace"
    );
    assert!(
        !instr.iter().any(|(k, _)| k == "WORKDIR"),
        "no WORKDIR: GitHub mounts the workspace as the working directory"
    );
    let froms: Vec<&String> = instr
        .iter()
        .filter(|(k, _)| k == "FROM")
        .map(|(_, v)| v)
        .collect();
    assert!(froms.len() >= 2, "multi-stage");
    // The bases are build arguments declared before the first FROM (so
    // scripts/image-test.sh can substitute locally built ones); their defaults,
    // what the release builds, are public images pinned by digest.
    let first_from = text.find("\nFROM ").unwrap();
    let args: std::collections::HashMap<&str, &str> = text[..first_from]
        .lines()
        .filter_map(|l| l.strip_prefix("ARG "))
        .filter_map(|a| a.split_once('='))
        .collect();
    let digest = regex::Regex::new(r"^[a-z0-9./:-]+@sha256:[0-9a-f]{64}$").unwrap();
    let var = regex::Regex::new(r"^\$\{?([A-Z_]+)\}?$").unwrap();
    for f in &froms {
        let image = f.split_whitespace().next().unwrap();
        let image = match var.captures(image) {
            Some(c) => *args
                .get(&c[1])
                .unwrap_or_else(|| panic!("{f}: no ARG default before the first FROM")),
            None => image,
        };
        assert!(digest.is_match(image), "base image pinned by digest: {f} = {image}");
        assert!(!image.starts_with("localhost/"), "a public base: {image}");
    }
    let entry: Vec<&String> = instr
        .iter()
        .filter(|(k, _)| k == "ENTRYPOINT")
        .map(|(_, v)| v)
        .collect();
    assert_eq!(
        entry,
        vec![r#"["/usr/local/bin/mcptrustchecker"]"#],
        "one exec-form ENTRYPOINT with an absolute path: the binary, so `docker run IMAGE lock` works"
    );
    assert!(
        instr.iter().any(|(k, v)| k == "CMD" && v == r#"["ci"]"#),
        "`ci` by default"
    );
    assert!(text.contains("cargo build --release --locked"));
    let last_stage = text.rsplit("\nFROM ").next().unwrap();
    assert!(
        last_stage.contains("git")
            && last_stage.contains("ca-certificates")
            && last_stage.contains("--no-install-recommends")
    );
    lint("hadolint", &["Dockerfile"]);
}

#[test]
fn action_metadata_is_valid_and_matches_the_entrypoint() {
    lint(
        "check-jsonschema",
        &["--builtin-schema", "vendor.github-actions", "action.yml"],
    );
    let doc = parse::yaml(&read("action.yml"), "action.yml")
        .unwrap()
        .value;
    assert_eq!(doc.pointer("/runs/using"), Some(&Value::from("docker")));
    let image = doc.pointer("/runs/image").and_then(Value::as_str).unwrap();
    let pinned = regex::Regex::new(r"^docker://ghcr\.io/[a-z0-9._/-]+@sha256:[0-9a-f]{64}$").unwrap();
    assert!(
        image == "Dockerfile" || pinned.is_match(image),
        "built from source on main, a digest-pinned image in a release: {image}"
    );
    assert_eq!(doc.pointer("/runs/args/0"), Some(&Value::from("ci")));
    assert!(doc.pointer("/branding/icon").is_some() && doc.pointer("/branding/color").is_some());
    let defaults = [
        ("path", "."),
        ("lockfile", "mcptrustchecker.lock"),
        ("fail-on", "F"),
        ("fail-on-drift", "true"),
        ("live", "false"),
        ("pass-env", ""),
        ("online", "false"),
        ("include-builtins", ""),
        ("policy", ""),
        ("sarif-file", ""),
        ("category", ""),
        ("comment", "true"),
        ("comment-header", ""),
        ("github-token", "${{ github.token }}"),
        ("max-file-size", "16777216"),
    ];
    assert_eq!(
        mcptrustchecker::parse::DEFAULT_MAX_FILE_BYTES.to_string(),
        "16777216",
        "the action's default is the binary's"
    );
    let inputs = doc["inputs"].as_object().unwrap();
    assert_eq!(
        inputs.len(),
        defaults.len(),
        "{:?}",
        inputs.keys().collect::<Vec<_>>()
    );
    for (name, default) in defaults {
        let i = &inputs[name];
        assert!(
            i["description"].as_str().is_some_and(|d| d.len() > 10),
            "{name} is documented"
        );
        assert_eq!(i["default"].as_str(), Some(default), "default of {name}");
    }
    let outputs: Vec<&String> = doc["outputs"].as_object().unwrap().keys().collect();
    for o in ["grade", "score", "drift", "findings", "sarif-file"] {
        assert!(outputs.iter().any(|k| *k == o), "output {o}");
    }
}

#[test]
fn workflows_are_valid_and_pass_zizmor() {
    let wf: Vec<String> = ["ci.yml", "release.yml"]
        .iter()
        .map(|f| format!(".github/workflows/{f}"))
        .collect();
    let mut args = vec!["--builtin-schema", "vendor.github-workflows"];
    args.extend(wf.iter().map(String::as_str));
    lint("check-jsonschema", &args);
    lint(
        "check-jsonschema",
        &[
            "--builtin-schema",
            "vendor.dependabot",
            ".github/dependabot.yml",
        ],
    );
    lint(
        "zizmor",
        &["--offline", "--no-progress", "action.yml", ".github"],
    );
    let ci = read(".github/workflows/ci.yml");
    for step in [
        "cargo fmt",
        "cargo clippy",
        "cargo test",
        "mcptrustchecker ci",
        "docker build",
    ] {
        assert!(ci.contains(step), "CI runs {step}");
    }
    let release = read(".github/workflows/release.yml");
    assert!(
        release.contains("docker/build-push-action") && release.contains("gh release upload"),
        "release builds the image and binaries"
    );
}

/// What the CI workflow's self-test does: the entrypoint on the demo fixture,
/// with no event (a scheduled run), fails the gate on the poisoned server.
#[test]
fn entrypoint_self_test_on_the_demo_fixture() {
    let ws = tempfile::tempdir().unwrap();
    let copy = |from: &str| {
        let src = repo().join("fixtures/demo").join(from);
        let dst = ws.path().join(from);
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        std::fs::copy(src, dst).unwrap();
    };
    for f in [
        ".cursor/mcp.json",
        "servers/notes/tools.json",
        "servers/weather/tools.json",
    ] {
        copy(f);
    }
    let outputs = ws.path().join("gh-output");
    let out = mtc()
        .args(["ci", "--workspace"])
        .arg(ws.path())
        .env("GITHUB_OUTPUT", &outputs)
        .env("INPUT_COMMENT", "false")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let outputs = std::fs::read_to_string(outputs).unwrap();
    assert!(
        outputs.contains("grade=F\n") && outputs.contains("sarif-file=mcptrustchecker.sarif\n"),
        "{outputs}"
    );
    let sarif: Value = serde_json::from_str(
        &std::fs::read_to_string(ws.path().join("mcptrustchecker.sarif")).unwrap(),
    )
    .unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert!(
        stdout.contains("::error file=servers/notes/tools.json,line=9"),
        "{stdout}"
    );
}
