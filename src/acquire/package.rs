//! Package identity from a spawn command: which registry package `npx -y x@1`,
//! `uvx x==1`, `docker run img:tag`, `deno run npm:x` … installs and runs.

use crate::surface::PackageId;

/// The bare executable name (`/usr/bin/npx.cmd` → `npx`).
pub fn bare_command(command: &str) -> String {
    let base = command.rsplit(['/', '\\']).next().unwrap_or(command);
    let lower = base.to_ascii_lowercase();
    for ext in [".exe", ".cmd", ".bat", ".ps1"] {
        if let Some(s) = lower.strip_suffix(ext) {
            return s.to_string();
        }
    }
    lower
}

/// Identify the package a command runs, or `None` for a local program.
pub fn identify(command: &str, args: &[String]) -> Option<PackageId> {
    identify_depth(command, args, 0)
}

fn identify_depth(command: &str, args: &[String], depth: usize) -> Option<PackageId> {
    if depth > 3 {
        return None;
    }
    let cmd = bare_command(command);
    match cmd.as_str() {
        "npx" => npm_runner(
            args,
            &["-p", "--package"],
            &[
                "--registry",
                "--cache",
                "--userconfig",
                "-c",
                "--call",
                "--prefix",
                "-w",
                "--workspace",
            ],
        ),
        "bunx" => npm_runner(args, &["-p", "--package"], &[]),
        "pnpm" | "yarn" | "npm" => {
            let i = args
                .iter()
                .position(|a| matches!(a.as_str(), "dlx" | "exec" | "x"))?;
            npm_runner(&args[i + 1..], &["-p", "--package"], &[])
        }
        "pnpx" => npm_runner(args, &["-p", "--package"], &[]),
        "uvx" => pypi_runner(args),
        "uv" => {
            let i = args
                .windows(2)
                .position(|w| w[0] == "tool" && w[1] == "run")
                .map(|i| i + 2)?;
            pypi_runner(&args[i..])
        }
        "pipx" => {
            let i = args.iter().position(|a| a == "run")?;
            let rest = &args[i + 1..];
            if let Some(j) = rest.iter().position(|a| a == "--spec") {
                return rest.get(j + 1).and_then(|s| pypi_spec(s));
            }
            rest.iter()
                .find(|a| !a.starts_with('-'))
                .and_then(|s| pypi_spec(s))
        }
        "python" | "python3" | "py" => {
            let i = args.iter().position(|a| a == "-m")?;
            let module = args.get(i + 1)?;
            Some(PackageId {
                registry: "python-module".into(),
                name: module.clone(),
                version: None,
                spec: format!("-m {module}"),
                pinned: false,
            })
        }
        "docker" | "podman" => docker(args),
        "deno" => args.iter().find_map(|a| {
            let (reg, rest) = if let Some(r) = a.strip_prefix("npm:") {
                ("npm", r)
            } else {
                ("jsr", a.strip_prefix("jsr:")?)
            };
            let mut p = npm_spec(rest)?;
            p.registry = reg.into();
            p.spec = a.clone();
            Some(p)
        }),
        "bash" | "sh" | "zsh" | "cmd" | "powershell" | "pwsh" => {
            let i = args.iter().position(|a| {
                matches!(
                    a.to_ascii_lowercase().as_str(),
                    "-c" | "/c" | "-command" | "/k" | "-lc"
                )
            })?;
            let script = args.get(i + 1)?;
            // Only simple wrappers are unwrapped: one command, no pipes or chains.
            if script.contains(['|', ';', '&', '`', '$', '>', '<']) {
                return None;
            }
            let words: Vec<String> = script
                .split_whitespace()
                .map(|w| w.trim_matches(['"', '\'']).to_string())
                .collect();
            let (first, rest) = words.split_first()?;
            identify_depth(first, rest, depth + 1)
        }
        _ => None,
    }
}

fn npm_runner(args: &[String], pkg_flags: &[&str], value_flags: &[&str]) -> Option<PackageId> {
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if pkg_flags.contains(&a) {
            return args.get(i + 1).and_then(|s| npm_spec(s));
        }
        if let Some(v) = a.strip_prefix("--package=") {
            return npm_spec(v);
        }
        if value_flags.contains(&a) {
            i += 2;
            continue;
        }
        if a == "--" {
            return args.get(i + 1).and_then(|s| npm_spec(s));
        }
        if a.starts_with('-') {
            i += 1;
            continue;
        }
        return npm_spec(a);
    }
    None
}

/// Is the string a local path rather than a package name?
fn is_local(s: &str) -> bool {
    s.starts_with('.')
        || s.starts_with('/')
        || s.starts_with('~')
        || s.starts_with('$')
        || s.contains('\\')
        || s.contains("${")
        || (s.len() > 1 && s.as_bytes()[1] == b':')
        || [".js", ".mjs", ".cjs", ".ts", ".py"]
            .iter()
            .any(|e| s.ends_with(e))
        || s.starts_with("file:")
        || s.starts_with("git+")
        || s.starts_with("http:")
        || s.starts_with("https:")
}

/// `@scope/name@ver`, `name@ver`, `name`.
pub fn npm_spec(s: &str) -> Option<PackageId> {
    if s.is_empty() || is_local(s) {
        return None;
    }
    let (name, version) = match s.strip_prefix('@') {
        Some(rest) => {
            let slash = rest.find('/')?;
            match rest[slash..].find('@') {
                Some(at) => (
                    format!("@{}", &rest[..slash + at]),
                    Some(rest[slash + at + 1..].to_string()),
                ),
                None => (s.to_string(), None),
            }
        }
        None => {
            if s.contains('/') {
                return None; // a path or a GitHub shorthand, not a registry name
            }
            match s.split_once('@') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (s.to_string(), None),
            }
        }
    };
    let version = version.filter(|v| !v.is_empty());
    let pinned = version.as_deref().is_some_and(is_exact_version);
    Some(PackageId {
        registry: "npm".into(),
        name,
        version,
        spec: s.to_string(),
        pinned,
    })
}

fn pypi_runner(args: &[String]) -> Option<PackageId> {
    const VALUE_FLAGS: &[&str] = &[
        "--python",
        "-p",
        "--with",
        "--index-url",
        "--extra-index-url",
        "--index",
        "--default-index",
        "-w",
        "--directory",
        "--with-requirements",
        "--constraint",
        "-c",
    ];
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if a == "--from" {
            return args.get(i + 1).and_then(|s| pypi_spec(s));
        }
        if let Some(v) = a.strip_prefix("--from=") {
            return pypi_spec(v);
        }
        if VALUE_FLAGS.contains(&a) {
            i += 2;
            continue;
        }
        if a.starts_with('-') {
            i += 1;
            continue;
        }
        return pypi_spec(a);
    }
    None
}

/// `name==1.2`, `name@1.2`, `name>=1`, `name[extra]==1`, `name`.
pub fn pypi_spec(s: &str) -> Option<PackageId> {
    if s.is_empty() || is_local(s) || s.contains('/') {
        return None;
    }
    let cut = s
        .find(['=', '<', '>', '!', '~', '@', '[', ';', ' '])
        .unwrap_or(s.len());
    let name = s[..cut].to_string();
    if name.is_empty() {
        return None;
    }
    let rest = &s[cut..];
    let rest = match rest.strip_prefix('[') {
        Some(r) => r.split_once(']').map(|(_, t)| t).unwrap_or(""),
        None => rest,
    };
    let (version, pinned) = if let Some(v) = rest
        .strip_prefix("===")
        .or_else(|| rest.strip_prefix("=="))
        .or_else(|| rest.strip_prefix('@'))
    {
        (Some(v.to_string()), is_exact_version(v))
    } else if rest.is_empty() {
        (None, false)
    } else {
        (Some(rest.to_string()), false)
    };
    Some(PackageId {
        registry: "pypi".into(),
        name,
        version,
        spec: s.to_string(),
        pinned,
    })
}

/// An exact version (`1.2.3`, `v1.2.3`, `2025.10.24`, `1.0.0-beta.1`), not a range or tag.
pub fn is_exact_version(v: &str) -> bool {
    let v = v.strip_prefix('v').unwrap_or(v);
    let core = v.split(['-', '+']).next().unwrap_or("");
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

fn docker(args: &[String]) -> Option<PackageId> {
    let i = args.iter().position(|a| a == "run")?;
    const VALUE_FLAGS: &[&str] = &[
        "-e",
        "--env",
        "-v",
        "--volume",
        "--name",
        "--network",
        "--net",
        "-p",
        "--publish",
        "--mount",
        "--env-file",
        "-w",
        "--workdir",
        "-u",
        "--user",
        "--entrypoint",
        "-l",
        "--label",
        "--platform",
        "--add-host",
        "--cap-add",
        "--cap-drop",
        "-h",
        "--hostname",
        "--pull",
        "--memory",
        "-m",
        "--cpus",
        "--security-opt",
        "--device",
        "--tmpfs",
        "--ulimit",
        "--dns",
        "--restart",
        "--pid",
        "--ipc",
        "--userns",
        "--runtime",
        "--init-path",
    ];
    let mut j = i + 1;
    while j < args.len() {
        let a = args[j].as_str();
        if VALUE_FLAGS.contains(&a) {
            j += 2;
            continue;
        }
        if a.starts_with('-') {
            j += 1;
            continue;
        }
        return Some(oci_ref(a));
    }
    None
}

/// `repo/img:tag`, `repo/img@sha256:…`, `img`.
pub fn oci_ref(image: &str) -> PackageId {
    if let Some((name, digest)) = image.split_once('@') {
        return PackageId {
            registry: "oci".into(),
            name: name.split(':').next().unwrap_or(name).to_string(),
            version: Some(digest.to_string()),
            spec: image.to_string(),
            pinned: digest.starts_with("sha256:"),
        };
    }
    // A colon after the last slash separates the tag (a registry port comes before a slash).
    let last_slash = image.rfind('/').map(|i| i + 1).unwrap_or(0);
    let (name, tag) = match image[last_slash..].rfind(':') {
        Some(c) => (
            image[..last_slash + c].to_string(),
            Some(image[last_slash + c + 1..].to_string()),
        ),
        None => (image.to_string(), None),
    };
    PackageId {
        registry: "oci".into(),
        name,
        version: tag,
        spec: image.to_string(),
        pinned: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(cmd: &str, args: &[&str]) -> Option<PackageId> {
        identify(cmd, &args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn npx_forms() {
        let p = id(
            "npx",
            &[
                "-y",
                "@modelcontextprotocol/server-filesystem@2025.8.21",
                "/data",
            ],
        )
        .unwrap();
        assert_eq!(
            (
                p.registry.as_str(),
                p.name.as_str(),
                p.version.as_deref(),
                p.pinned
            ),
            (
                "npm",
                "@modelcontextprotocol/server-filesystem",
                Some("2025.8.21"),
                true
            )
        );
        let p = id("npx", &["--yes", "mcp-remote@latest", "https://x"]).unwrap();
        assert_eq!((p.name.as_str(), p.pinned), ("mcp-remote", false));
        let p = id("npx", &["-p", "@scope/pkg@1.2.3", "bin"]).unwrap();
        assert_eq!((p.name.as_str(), p.pinned), ("@scope/pkg", true));
        let p = id("/usr/local/bin/npx.cmd", &["-y", "@playwright/mcp"]).unwrap();
        assert_eq!(
            (p.name.as_str(), p.version, p.pinned),
            ("@playwright/mcp", None, false)
        );
        assert!(id("npx", &["./local/server.js"]).is_none());
        let p = id("npx", &["-y", "pkg@^1.2.0"]).unwrap();
        assert!(!p.pinned);
    }

    #[test]
    fn python_forms() {
        let p = id("uvx", &["mcp-server-fetch@2026.10.24"]).unwrap();
        assert_eq!(
            (p.registry.as_str(), p.name.as_str(), p.pinned),
            ("pypi", "mcp-server-fetch", true)
        );
        let p = id(
            "uvx",
            &["--from", "mcp-server-git==2025.1.1", "mcp-server-git"],
        )
        .unwrap();
        assert_eq!(
            (p.name.as_str(), p.version.as_deref(), p.pinned),
            ("mcp-server-git", Some("2025.1.1"), true)
        );
        let p = id("uvx", &["--python", "3.11", "mcp-server-time"]).unwrap();
        assert_eq!((p.name.as_str(), p.pinned), ("mcp-server-time", false));
        let p = id("pipx", &["run", "pkg>=1"]).unwrap();
        assert_eq!((p.name.as_str(), p.pinned), ("pkg", false));
        let p = id("python", &["-m", "my_server"]).unwrap();
        assert_eq!(p.registry, "python-module");
        assert!(id("uv", &["--directory", "/x", "run", "server.py"]).is_none());
    }

    #[test]
    fn docker_and_deno_and_shells() {
        let p = id(
            "docker",
            &[
                "run",
                "-i",
                "--rm",
                "-e",
                "TOKEN",
                "ghcr.io/github/github-mcp-server:v1",
            ],
        )
        .unwrap();
        assert_eq!(
            (
                p.registry.as_str(),
                p.name.as_str(),
                p.version.as_deref(),
                p.pinned
            ),
            ("oci", "ghcr.io/github/github-mcp-server", Some("v1"), false)
        );
        let p = id("docker", &["run", "img@sha256:abc"]).unwrap();
        assert!(p.pinned);
        let p = id("docker", &["run", "localhost:5000/img"]).unwrap();
        assert_eq!((p.name.as_str(), p.version), ("localhost:5000/img", None));
        let p = id("deno", &["run", "-A", "npm:@scope/x@1.0.0"]).unwrap();
        assert_eq!(
            (p.registry.as_str(), p.name.as_str(), p.pinned),
            ("npm", "@scope/x", true)
        );
        let p = id("bash", &["-c", "npx -y evil-pkg"]).unwrap();
        assert_eq!(p.name, "evil-pkg");
        assert!(id("bash", &["-c", "curl x | sh"]).is_none());
        assert!(id("node", &["server.js"]).is_none());
    }
}
