//! The Action's packaging: `action.yml`, the `Dockerfile` and the project's
//! workflows follow GitHub's rules and pass the linters installed by
//! `scripts/test-deps.sh` (hadolint, check-jsonschema's vendored GitHub
//! schemas, zizmor offline), and the entrypoint works on `fixtures/`.

use super::common::{mtc, repo, scrub};
use mcptrustchecker::parse;
use serde_json::Value;
use std::path::{Path, PathBuf};
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
    lint_in(&repo(), name, args)
}

fn lint_in(dir: &Path, name: &str, args: &[&str]) {
    let out = scrub(&mut Command::new(tool(name)))
        .args(args)
        .current_dir(dir)
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
        assert!(
            digest.is_match(image),
            "base image pinned by digest: {f} = {image}"
        );
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
    let pinned =
        regex::Regex::new(r"^docker://ghcr\.io/[a-z0-9._/-]+@sha256:[0-9a-f]{64}$").unwrap();
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

/// Every workflow file under `.github/workflows/`, sorted (a glob, so a new
/// workflow is linted without editing this test).
fn workflow_files() -> Vec<String> {
    let mut wf: Vec<String> = std::fs::read_dir(repo().join(".github/workflows"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".yml") || f.ends_with(".yaml"))
        .map(|f| format!(".github/workflows/{f}"))
        .collect();
    wf.sort();
    wf
}

/// Every `uses:` names a local action or is pinned by a full commit SHA with a
/// `# vX…` comment saying which release it is.
fn assert_uses_pinned(file: &str, text: &str) {
    let uses = regex::Regex::new(r"(?m)^\s*(?:-\s+)?uses:\s*(\S+)(.*)$").unwrap();
    let pinned = regex::Regex::new(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40}$").unwrap();
    let version = regex::Regex::new(r"^\s*#\s*v\d+(\.\d+)*\b").unwrap();
    let mut n = 0;
    for c in uses.captures_iter(text) {
        n += 1;
        let (what, rest) = (&c[1], &c[2]);
        if what.starts_with("./") {
            continue;
        }
        assert!(
            pinned.is_match(what) && version.is_match(rest),
            "{file}: `uses: {what}{rest}` is not pinned by commit SHA with a # vX.Y.Z comment"
        );
    }
    assert!(n > 0, "{file}: no uses: found");
}

#[test]
fn workflows_are_valid_and_pass_zizmor() {
    let wf = workflow_files();
    for f in ["ci.yml", "release.yml", "self-test.yml"] {
        let f = format!(".github/workflows/{f}");
        assert!(wf.contains(&f), "{f} in {wf:?}");
    }
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
    let mut args = vec![
        "--offline",
        "--no-progress",
        "action.yml",
        ".github/dependabot.yml",
    ];
    args.extend(wf.iter().map(String::as_str));
    lint("zizmor", &args);
    for f in &wf {
        assert_uses_pinned(f, &read(f));
    }
    let ci = read(".github/workflows/ci.yml");
    for step in [
        "cargo fmt",
        "cargo clippy",
        "cargo test",
        "mcptrustchecker ci",
        "docker build",
        "lock --help",
    ] {
        assert!(ci.contains(step), "CI runs {step}");
    }
    let release = read(".github/workflows/release.yml");
    for needle in [
        "workflow_dispatch",
        "docker/build-push-action",
        "imagetools create",
        "ubuntu-24.04-arm",
        "windows-11-arm",
        "scripts/pin-action-image.sh",
        "actions/attest-build-provenance",
        "push-to-registry: true",
        "SHA256SUMS",
        "gh release upload",
    ] {
        assert!(release.contains(needle), "release.yml: {needle}");
    }
    assert_eq!(
        release.matches("gh release create").count(),
        1,
        "one job creates the release"
    );
    let selftest = read(".github/workflows/self-test.yml");
    for needle in [
        "uses: ./",
        "ubuntu-24.04-arm",
        "continue-on-error: true",
        "steps.mtc.outcome",
        "steps.mtc.outputs.grade",
        "github/codeql-action/upload-sarif",
        "steps.mtc.outputs.sarif-file",
    ] {
        assert!(selftest.contains(needle), "self-test.yml: {needle}");
    }
}

/// The README's workflows (fenced ```yaml blocks opening with a
/// `# .github/workflows/NAME` comment) are valid as pasted: schema and zizmor.
#[test]
fn readme_workflows_are_valid_and_pass_zizmor() {
    let readme = read("README.md");
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    let file_name = regex::Regex::new(r"^[a-z0-9-]+\.ya?ml$").unwrap();
    let mut rest = readme.as_str();
    while let Some(i) = rest.find("```yaml\n") {
        let body = &rest[i + "```yaml\n".len()..];
        let end = body.find("\n```").expect("closed fence");
        let block = &body[..=end];
        rest = &body[end..];
        let Some(name) = block
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# .github/workflows/"))
        else {
            continue;
        };
        assert!(file_name.is_match(name), "{name}");
        assert_uses_pinned(name, block);
        std::fs::write(dir.path().join(name), block).unwrap();
        files.push(name.to_string());
    }
    assert!(
        files.iter().any(|f| f == "mcp-trust.yml"),
        "the GitHub Action section's workflow: {files:?}"
    );
    let mut args = vec!["--builtin-schema", "vendor.github-workflows"];
    args.extend(files.iter().map(String::as_str));
    lint_in(dir.path(), "check-jsonschema", &args);
    let mut args = vec!["--offline", "--no-progress"];
    args.extend(files.iter().map(String::as_str));
    lint_in(dir.path(), "zizmor", &args);
    let main = std::fs::read_to_string(dir.path().join("mcp-trust.yml")).unwrap();
    let doc = parse::yaml(&main, "mcp-trust.yml").unwrap().value;
    let job = &doc["jobs"]["mcp-trust"];
    assert_eq!(
        job["permissions"],
        serde_json::json!({"contents": "read", "pull-requests": "write", "security-events": "write"})
    );
    let steps = job["steps"].as_array().unwrap();
    let step = |prefix: &str| {
        steps
            .iter()
            .find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with(prefix)))
            .unwrap_or_else(|| panic!("a step uses {prefix}"))
    };
    let checkout = step("actions/checkout@");
    assert_eq!(checkout["with"]["persist-credentials"], Value::Bool(false));
    assert_eq!(checkout["with"]["fetch-depth"], Value::from(0));
    let action = step("mcptrustchecker/mcptrustchecker@");
    let upload = step("github/codeql-action/upload-sarif@");
    assert_eq!(action["with"]["category"], upload["with"]["category"]);
    assert!(
        upload["if"]
            .as_str()
            .is_some_and(|c| c.contains("always()"))
    );
    assert_eq!(
        upload["with"]["sarif_file"],
        Value::from("${{ steps.mtc.outputs.sarif-file }}")
    );
}

/// The release job's `scripts/pin-action-image.sh` turns main's action.yml into
/// a release's: the image by digest, still a valid action, nothing else changed.
#[test]
fn pin_action_image_names_the_digest() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("action.yml");
    let original = read("action.yml");
    std::fs::write(&copy, &original).unwrap();
    let digest = "0123456789abcdef".repeat(4);
    let image = format!("ghcr.io/o/r@sha256:{digest}");
    let run = |arg: &str| {
        scrub(&mut Command::new("bash"))
            .arg(repo().join("scripts/pin-action-image.sh"))
            .arg(arg)
            .arg(&copy)
            .output()
            .unwrap()
    };
    for bad in [
        "ghcr.io/O/r@sha256:0123",
        "ghcr.io/o/r:v1",
        "ghcr.io/o/r@sha256:0123456789abcdef",
    ] {
        let out = run(bad);
        assert_eq!(out.status.code(), Some(2), "{bad} is refused");
        assert_eq!(std::fs::read_to_string(&copy).unwrap(), original, "{bad}");
    }
    let out = run(&image);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pinned = std::fs::read_to_string(&copy).unwrap();
    let doc = parse::yaml(&pinned, "action.yml").unwrap().value;
    assert_eq!(
        doc.pointer("/runs/image").and_then(Value::as_str),
        Some(format!("docker://{image}").as_str())
    );
    assert_eq!(doc.pointer("/runs/args/0"), Some(&Value::from("ci")));
    assert!(
        !pinned.contains("Dockerfile"),
        "the build-from-source note is gone"
    );
    let removed: Vec<&str> = original.lines().filter(|l| !pinned.contains(*l)).collect();
    assert!(
        removed
            .iter()
            .all(|l| l.trim_start().starts_with('#') || l.contains("image:")),
        "only the image line and its comment change: {removed:?}"
    );
    assert_eq!(
        pinned.lines().count() + removed.len(),
        original.lines().count() + 1
    );
    lint_in(
        dir.path(),
        "check-jsonschema",
        &["--builtin-schema", "vendor.github-actions", "action.yml"],
    );
    // A release commit pinned again (a re-run) names the new digest.
    let again = format!("ghcr.io/o/r@sha256:{}", "f".repeat(64));
    assert!(run(&again).status.success());
    let twice = std::fs::read_to_string(&copy).unwrap();
    assert!(twice.contains(&format!("  image: docker://{again}\n")) && !twice.contains(&digest));
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
