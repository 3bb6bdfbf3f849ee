//! The contract checks of one server against its policy entry (MTC-POL-001…009
//! but 004): entry present and reviewed, tools, env names, hosts, transport
//! and the launched artifact as approved.

use super::{Date, Policy, ServerEntry};
use crate::finding::Finding;
use crate::model::ServerResult;
use crate::parse::ptr_seg;
use crate::rules::ids;
use crate::surface::Transport;

/// Every URL a server is reached at: a remote URL, or URLs in a stdio server's arguments.
pub(super) fn endpoints(t: &Transport) -> Vec<(String, url::Url)> {
    let parse = |s: &str| {
        url::Url::parse(s).ok().filter(|u| {
            matches!(u.scheme(), "http" | "https" | "ws" | "wss") && u.host_str().is_some()
        })
    };
    match t {
        Transport::Remote { url, .. } => parse(url)
            .map(|u| vec![("url".to_string(), u)])
            .unwrap_or_default(),
        Transport::Stdio { args, .. } => args
            .iter()
            .enumerate()
            .filter_map(|(i, a)| parse(a).map(|u| (format!("args[{i}]"), u)))
            .collect(),
        Transport::Unknown => Vec::new(),
    }
}

/// A URL fit to print: the shared redactor (userinfo, secret parameters).
pub(super) fn safe_url(raw: &str) -> String {
    crate::text::redact_url(raw)
}

pub(super) fn is_loopback(u: &url::Url) -> bool {
    match u.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// Whether a `network_allow` entry admits `u`; `explicit_scheme` additionally
/// requires the entry to name the URL's scheme (how plain http is allowed).
pub(super) fn allows(entry: &str, u: &url::Url, explicit_scheme: bool) -> bool {
    let entry = entry.trim().to_ascii_lowercase();
    let (scheme, rest) = match entry.split_once("://") {
        Some((s, r)) => (Some(s.to_string()), r.to_string()),
        None => (None, entry.clone()),
    };
    if explicit_scheme && scheme.is_none() {
        return false;
    }
    if scheme.as_deref().is_some_and(|s| s != u.scheme()) {
        return false;
    }
    let hostport = rest.split('/').next().unwrap_or("");
    let (host, port) = match hostport.rsplit_once(':') {
        Some((h, p))
            if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && !h.ends_with(':') =>
        {
            (h, p.parse::<u16>().ok())
        }
        _ => (hostport, None),
    };
    let actual = u.host_str().unwrap_or("").to_ascii_lowercase();
    let host_ok = match host.strip_prefix("*.") {
        Some(domain) => actual.ends_with(&format!(".{domain}")),
        None => actual == host,
    };
    host_ok && port.is_none_or(|p| u.port_or_known_default() == Some(p))
}

/// The checks of one enabled server against its entry.
pub(super) fn check_server(p: &Policy, sr: &ServerResult, now: Date, out: &mut Vec<Finding>) {
    let s = &sr.surface;
    let here = s.source.location.clone();
    let id = s.id.as_str();
    let Some(e) = p.servers.get(id) else {
        if p.gate.require_entries {
            out.push(
                Finding::new(
                    ids::MTC_POL_001,
                    format!(
                        "server `{}` is enabled but has no entry in the policy {}",
                        s.name, p.path
                    ),
                    here,
                )
                .server(id)
                .evidence(format!("no [servers.\"{id}\"] table in {}", p.path)),
            );
        }
        return;
    };
    let entry_ptr = format!("/servers/{}", ptr_seg(id));

    for t in &s.tools {
        if e.tools_allow.contains(&t.name) {
            continue;
        }
        let roles = sr
            .roles
            .get(&t.name)
            .map(|r| r.iter().map(|x| x.as_str()).collect::<Vec<_>>().join(", "))
            .filter(|r| !r.is_empty())
            .unwrap_or_else(|| "none detected".into());
        out.push(
            Finding::new(ids::MTC_POL_002, format!("server `{}` exposes tool `{}` (roles: {roles}), which its policy entry does not list in tools_allow", s.name, t.name), s.location_for(Some(&t.name)))
                .server(id)
                .tool(Some(&t.name))
                .field(format!("tools[{}]", t.name))
                .evidence(format!("roles: {roles}; tools_allow: [{}]", e.tools_allow.join(", "))),
        );
    }

    for k in s.env.keys() {
        if !e.env_allow.contains(k) {
            out.push(
                Finding::new(ids::MTC_POL_003, format!("server `{}` is given environment variable `{k}`, which its policy entry does not list in env_allow", s.name), here.clone())
                    .server(id)
                    .field(format!("env.{k}"))
                    .evidence(format!("env_allow: [{}]", e.env_allow.join(", "))),
            );
        }
    }

    for (field, u) in endpoints(&s.transport) {
        let host = u.host_str().unwrap_or("");
        if !e.network_allow.iter().any(|a| allows(a, &u, false)) {
            out.push(
                Finding::new(ids::MTC_POL_005, format!("server `{}` reaches host `{host}`, which its policy entry does not list in network_allow", s.name), here.clone())
                    .server(id)
                    .field(field.clone())
                    .evidence(format!("{}; network_allow: [{}]", safe_url(u.as_str()), e.network_allow.join(", "))),
            );
        }
        if matches!(u.scheme(), "http" | "ws")
            && !is_loopback(&u)
            && !e.network_allow.iter().any(|a| allows(a, &u, true))
        {
            out.push(
                Finding::new(
                    ids::MTC_POL_006,
                    format!(
                        "server `{}` is reached over plain {} at `{host}`",
                        s.name,
                        u.scheme()
                    ),
                    here.clone(),
                )
                .server(id)
                .field(field)
                .evidence(safe_url(u.as_str())),
            );
        }
    }

    check_pin(p, e, sr, &entry_ptr, out);

    if now > e.review_expires {
        out.push(
            Finding::new(
                ids::MTC_POL_009,
                format!(
                    "the policy review of server `{}` expired on {} (owner {})",
                    s.name, e.review_expires, e.owner
                ),
                p.loc(&format!("{entry_ptr}/review_expires")),
            )
            .server(id)
            .evidence(format!(
                "review_expires = {}, today is {now}",
                e.review_expires
            )),
        );
    }
}

/// MTC-POL-007/008: the launch must match the entry's pin, and the pin must be immutable.
fn check_pin(
    p: &Policy,
    e: &ServerEntry,
    sr: &ServerResult,
    entry_ptr: &str,
    out: &mut Vec<Finding>,
) {
    let s = &sr.surface;
    let here = s.source.location.clone();
    let mut differs = |what: &str, actual: String, pinned: String| {
        out.push(
            Finding::new(ids::MTC_POL_007, format!("server `{}` launches with {what} `{actual}`, but its policy entry pins `{pinned}`", s.name), here.clone())
                .server(&s.id)
                .evidence(format!("{what}: config `{actual}`, policy `{pinned}`")),
        );
    };
    if let Some(t) = e.transport.filter(|t| !t.matches(&s.transport)) {
        differs(
            "transport",
            s.transport.kind_str().to_string(),
            t.as_str().to_string(),
        );
    }
    let mut pinned = false;
    match &s.transport {
        Transport::Stdio { command, args, .. } => {
            // Pins compare in redacted form on both sides: a policy drafted by
            // `policy init` (which never writes a secret) matches the config.
            if let Some(c) = &e.command {
                pinned = true;
                let (actual, pin) = (
                    crate::text::redact_command(command),
                    crate::text::redact_command(c),
                );
                if actual != pin {
                    differs("command", actual, pin);
                }
            }
            if let Some(a) = &e.args {
                pinned = true;
                let (actual, pin) = (crate::text::redact_args(args), crate::text::redact_args(a));
                if actual != pin {
                    differs("arguments", actual.join(" "), pin.join(" "));
                }
            }
            if let Some(pk) = &e.package {
                pinned = true;
                let actual = s
                    .package
                    .as_ref()
                    .map(|p| crate::text::redact_command(&p.spec))
                    .unwrap_or_else(|| "(no package)".into());
                let pk = crate::text::redact_command(pk);
                if actual != pk {
                    differs("package", actual, pk);
                }
            }
        }
        Transport::Remote { url, .. } => {
            if let Some(u) = &e.url {
                pinned = true;
                if safe_url(u) != safe_url(url) {
                    differs("URL", safe_url(url), safe_url(u));
                }
            }
        }
        Transport::Unknown => pinned = true,
    }
    if let Some(pkg) = s.package.as_ref().filter(|p| !p.pinned) {
        out.push(
            Finding::new(
                ids::MTC_POL_008,
                format!(
                    "server `{}` runs package `{}` without an immutable version",
                    s.name,
                    crate::text::redact_command(&pkg.spec)
                ),
                here.clone(),
            )
            .server(&s.id)
            .evidence(format!(
                "{} {}",
                pkg.registry,
                crate::text::redact_command(&pkg.spec)
            )),
        );
    }
    if !pinned {
        out.push(
            Finding::new(
                ids::MTC_POL_008,
                format!(
                    "the policy entry of server `{}` pins no artifact (no package, command or url)",
                    s.name
                ),
                p.loc(entry_ptr),
            )
            .server(&s.id)
            .evidence(format!("[servers.\"{}\"] approves a name only", s.id)),
        );
    }
}
