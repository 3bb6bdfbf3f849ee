//! What a launch line does, before anything runs it: the executable it
//! starts, code it carries inline or fetches, and container flags that undo
//! isolation. One classifier behind the posture findings and the live
//! sandbox's refusals, so what the scan reports is what the sandbox refuses.

use crate::rules::ids;
use std::sync::OnceLock;

/// Executables a stdio server may start without a finding, and that a live
/// scan runs without `--allow-any-command` (`src/data/launch.toml`).
pub fn exec_allowlist() -> &'static [String] {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        exec_allowlist: Vec<String>,
    }
    static LIST: OnceLock<Vec<String>> = OnceLock::new();
    LIST.get_or_init(|| {
        crate::data::parse::<File>(crate::data::json!("launch"), "launch").exec_allowlist
    })
}

pub(crate) const SHELLS: &[&str] = &[
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
pub(crate) const SHELL_FLAGS: &[&str] = &[
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
pub(crate) const SHELL_BUILTINS: &[&str] = &[
    "cd", "export", "set", "source", ".", "env", "exec", "echo", "true",
];
pub(crate) const CONTAINER_RUNTIMES: &[&str] = &["docker", "podman", "nerdctl"];

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

/// Each run flag that undoes container isolation: `(rule, what it does, arg index, evidence)`.
pub(crate) fn container_escapes(
    args: &[String],
    found: &mut dyn FnMut(&'static str, String, usize, String),
) {
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
                ids::MTC_NET_007,
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
                ids::MTC_NET_007,
                format!("runs in a container with capability `{cap}`: close to full host access"),
                i,
                format!("--cap-add {cap}"),
            );
        }
        for flag in ["--network", "--net"] {
            if val(i, flag).is_some_and(|v| v == "host") {
                found(ids::MTC_NET_008, "shares the host's network namespace: it can reach every local service and bind host ports".into(), i, format!("{flag} host"));
            }
        }
        for flag in ["--pid", "--ipc", "--uts", "--userns"] {
            if val(i, flag).is_some_and(|v| v == "host") {
                found(
                    ids::MTC_NET_008,
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
                ids::MTC_NET_009,
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
