//! Stage 4, toxic flow: the lethal trifecta (untrusted input → sensitive source →
//! a way out) co-reachable in one tool, one server, or one session (the servers
//! of a client config or profile, or one manifest, plus the client's built-in
//! tools when asked). A way out is an external-sink or code-exec tool, or — a
//! weaker egress — a tool that requests caller-chosen URLs (data rides in the
//! URL). An action sink (for untrusted input to trigger) is a sink, a
//! destructive or a high-impact tool. Static analysis proves the primitive
//! exists, not that a chain will run: only a single tool holding all three with
//! a full sink is confirmed.

use super::ScanOptions;
use super::builtins::builtins_for;
use super::capability::{classify_in, sibling_names};
use crate::finding::Finding;
use crate::model::{Role, ServerResult};
use crate::rules::ids;
use crate::surface::{Location, ServerSurface};
use std::collections::{BTreeMap, BTreeSet};

/// Where a holder's roles were read, to explain each leg of a flow.
#[derive(Debug, Clone, Copy)]
pub enum Origin<'a> {
    /// An MCP tool: stage 3 re-reads it for the leg's reason.
    Surface(&'a ServerSurface),
    /// A client built-in, with what it does.
    Builtin(&'a str),
    /// Roles given directly (tests).
    Given,
}

/// One tool that may hold roles, wherever it comes from.
#[derive(Debug, Clone)]
pub struct Holder<'a> {
    /// Index of its member (server) in the session; built-ins get their own index.
    pub member: usize,
    /// `None` for a client built-in.
    pub server_id: Option<&'a str>,
    pub server_name: &'a str,
    pub tool: &'a str,
    pub roles: &'a BTreeSet<Role>,
    pub location: Location,
    pub origin: Origin<'a>,
}

impl Holder<'_> {
    fn has(&self, r: Role) -> bool {
        self.roles.contains(&r)
    }
    /// A full sink: it sends data out or runs code.
    fn sink(&self) -> bool {
        self.has(Role::ExternalSink) || self.has(Role::CodeExec)
    }
    /// A way out for data: a full sink, or a fetch of caller-chosen URLs.
    fn egress(&self) -> bool {
        self.sink() || self.has(Role::UrlFetch)
    }
    /// Something untrusted input can make happen.
    fn action(&self) -> bool {
        self.sink() || self.has(Role::Destructive) || self.has(Role::HighImpact)
    }
    fn ui(&self) -> bool {
        self.has(Role::UntrustedInput)
    }
    fn ss(&self) -> bool {
        self.has(Role::SensitiveSource)
    }
    fn label(&self) -> String {
        format!("{}/{}", self.server_name, self.tool)
    }
    fn sink_kind(&self) -> &'static str {
        if self.has(Role::ExternalSink) {
            "external-sink"
        } else if self.has(Role::CodeExec) {
            "code-exec"
        } else if self.has(Role::UrlFetch) {
            "url-fetch: the URL it requests can carry the data out"
        } else if self.has(Role::HighImpact) {
            "high-impact"
        } else {
            "destructive"
        }
    }
    /// The leg's role, for the message: the strongest way out it offers.
    fn egress_role(&self) -> Role {
        [Role::ExternalSink, Role::CodeExec, Role::UrlFetch]
            .into_iter()
            .find(|r| self.has(*r))
            .unwrap_or(Role::ExternalSink)
    }
    fn action_role(&self) -> Role {
        [
            Role::ExternalSink,
            Role::CodeExec,
            Role::HighImpact,
            Role::Destructive,
        ]
        .into_iter()
        .find(|r| self.has(*r))
        .unwrap_or(Role::ExternalSink)
    }
    /// Why this tool holds `role`: the name, parameter or sentence stage 3 read it from.
    fn reason(&self, role: Role) -> String {
        let why = match self.origin {
            Origin::Surface(s) => s
                .tool(self.tool)
                .map(|item| classify_in(item, &sibling_names(s)))
                .and_then(|tr| tr.roles.get(&role).map(|(_, w)| w.clone()))
                .unwrap_or_default(),
            Origin::Builtin(what) => format!("client built-in: {what}"),
            Origin::Given => String::new(),
        };
        crate::text::truncate_chars(&why, 90)
    }
}

/// A flow rule firing over a set of holders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub rule: &'static str,
    /// Holder indexes: [tool] for 001/003; the representative path otherwise.
    pub path: Vec<usize>,
}

/// Evaluate the flow table (`docs/spec/README.md`, "Toxic flows") over holders. Candidates are taken in the order given
/// (callers sort them), legs on distinct tools when possible.
pub fn evaluate(h: &[Holder<'_>]) -> Vec<Hit> {
    let mut hits = Vec::new();
    let u: Vec<usize> = (0..h.len()).filter(|&i| h[i].ui()).collect();
    let s: Vec<usize> = (0..h.len()).filter(|&i| h[i].ss()).collect();
    // Full sinks first, so a path names the strongest way out; fetches after.
    let mut k: Vec<usize> = (0..h.len()).filter(|&i| h[i].sink()).collect();
    k.extend((0..h.len()).filter(|&i| !h[i].sink() && h[i].egress()));
    let a: Vec<usize> = (0..h.len()).filter(|&i| h[i].action()).collect();
    let mut single = false;
    for (i, x) in h.iter().enumerate() {
        if x.ui() && x.ss() && x.sink() {
            hits.push(Hit {
                rule: ids::MTC_FLOW_001,
                path: vec![i],
            });
            single = true;
        }
    }
    let pick = |cands: &[usize], avoid: &[usize]| {
        cands
            .iter()
            .copied()
            .find(|c| !avoid.contains(c))
            .or_else(|| cands.first().copied())
    };
    let trifecta = !u.is_empty() && !s.is_empty() && !k.is_empty();
    // The table's situations are tiers: with the trifecta present, its finding
    // already names every source and way out, so FLOW-003/004/005 are not repeated.
    if trifecta {
        if !single {
            let a = pick(&u, &[]).unwrap_or(0);
            let b = pick(&s, &[a]).unwrap_or(0);
            let c = pick(&k, &[a, b]).unwrap_or(0);
            hits.push(Hit {
                rule: ids::MTC_FLOW_002,
                path: vec![a, b, c],
            });
        }
        return hits;
    }
    for (i, x) in h.iter().enumerate() {
        if x.ss() && x.egress() {
            hits.push(Hit {
                rule: ids::MTC_FLOW_003,
                path: vec![i],
            });
        }
    }
    // Source and a way out on different tools.
    if let Some((src, out)) = s
        .iter()
        .find_map(|&x| k.iter().find(|&&c| c != x).map(|&c| (x, c)))
    {
        hits.push(Hit {
            rule: ids::MTC_FLOW_004,
            path: vec![src, out],
        });
    }
    // Untrusted input reaching something it can make happen.
    if !u.is_empty() && !a.is_empty() {
        let x = pick(&u, &[]).unwrap_or(0);
        let c = pick(&a, &[x]).unwrap_or(0);
        hits.push(Hit {
            rule: ids::MTC_FLOW_005,
            path: vec![x, c],
        });
    }
    hits
}

/// Up to `max` holders of a role, then a count.
fn holders_of<'a>(h: &[Holder<'a>], max: usize, f: impl Fn(&Holder<'a>) -> bool) -> String {
    let all: Vec<String> = h.iter().filter(|x| f(x)).map(Holder::label).collect();
    let mut s = all.iter().take(max).cloned().collect::<Vec<_>>().join(", ");
    if all.len() > max {
        s.push_str(&format!(" (+{} more)", all.len() - max));
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// The legs of a hit with the reason each holds its role, then the other holders.
fn evidence(hit: &Hit, h: &[Holder<'_>]) -> String {
    let p = &hit.path;
    let leg = |i: usize, role: Role| {
        let why = h[i].reason(role);
        if why.is_empty() {
            format!("{} `{}`", role.as_str(), h[i].label())
        } else {
            format!("{} `{}`: {why}", role.as_str(), h[i].label())
        }
    };
    let legs: Vec<String> = match hit.rule {
        ids::MTC_FLOW_001 => vec![
            leg(p[0], Role::UntrustedInput),
            leg(p[0], Role::SensitiveSource),
            leg(p[0], h[p[0]].egress_role()),
        ],
        ids::MTC_FLOW_002 => vec![
            leg(p[0], Role::UntrustedInput),
            leg(p[1], Role::SensitiveSource),
            leg(p[2], h[p[2]].egress_role()),
        ],
        ids::MTC_FLOW_003 => vec![
            leg(p[0], Role::SensitiveSource),
            leg(p[0], h[p[0]].egress_role()),
        ],
        ids::MTC_FLOW_004 => vec![
            leg(p[0], Role::SensitiveSource),
            leg(p[1], h[p[1]].egress_role()),
        ],
        _ => vec![
            leg(p[0], Role::UntrustedInput),
            leg(p[1], h[p[1]].action_role()),
        ],
    };
    format!(
        "{}; all holders: untrusted-input {}; sensitive-source {}; way out {}",
        legs.join("; "),
        holders_of(h, 2, Holder::ui),
        holders_of(h, 2, Holder::ss),
        holders_of(h, 2, Holder::egress)
    )
}

fn describe(hit: &Hit, h: &[Holder<'_>], scope: &str) -> String {
    let t = |i: usize| format!("`{}`", h[i].label());
    let p = &hit.path;
    match hit.rule {
        ids::MTC_FLOW_001 => format!(
            "{scope}: tool {} alone holds untrusted-input, sensitive-source and {}: the lethal trifecta in one call",
            t(p[0]),
            h[p[0]].sink_kind()
        ),
        ids::MTC_FLOW_003 => format!(
            "{scope}: tool {} reads sensitive data and has a way out ({})",
            t(p[0]),
            h[p[0]].sink_kind()
        ),
        ids::MTC_FLOW_002 if p[0] == p[1] && p[1] == p[2] => format!(
            "{scope}: the lethal trifecta over separate calls of one tool: {} reads untrusted content, reads sensitive data, and has a way out ({})",
            t(p[0]),
            h[p[0]].sink_kind()
        ),
        ids::MTC_FLOW_002 => format!(
            "{scope}: the lethal trifecta across tools: {} (untrusted-input) → {} (sensitive-source) → {} ({})",
            t(p[0]),
            t(p[1]),
            t(p[2]),
            h[p[2]].sink_kind()
        ),
        ids::MTC_FLOW_004 => format!(
            "{scope}: sensitive data can flow from {} (sensitive-source) to {} ({})",
            t(p[0]),
            t(p[1]),
            h[p[1]].sink_kind()
        ),
        _ => format!(
            "{scope}: untrusted input from {} can drive the action sink {} ({})",
            t(p[0]),
            t(p[1]),
            h[p[1]].sink_kind()
        ),
    }
}

/// The location a flow finding points at: its single tool, else its last leg.
fn at(hit: &Hit, h: &[Holder<'_>]) -> Location {
    h[*hit.path.last().unwrap_or(&0)].location.clone()
}

/// Holders of one server, sorted by tool name.
fn server_holders<'a>(
    s: &'a ServerSurface,
    roles: &'a BTreeMap<String, BTreeSet<Role>>,
    member: usize,
) -> Vec<Holder<'a>> {
    roles
        .iter()
        .filter(|(_, r)| !r.is_empty())
        .map(|(tool, r)| Holder {
            member,
            server_id: Some(&s.id),
            server_name: &s.name,
            tool,
            roles: r,
            location: s.location_for(Some(tool)),
            origin: Origin::Surface(s),
        })
        .collect()
}

/// Stage 4 inside one server.
pub fn check_server(
    s: &ServerSurface,
    roles: &BTreeMap<String, BTreeSet<Role>>,
    out: &mut Vec<Finding>,
) {
    let h = server_holders(s, roles, 0);
    let scope = format!("server `{}`", s.name);
    for hit in evaluate(&h) {
        let tool = (hit.path.len() == 1).then(|| h[hit.path[0]].tool);
        out.push(
            Finding::new(hit.rule, describe(&hit, &h, &scope), at(&hit, &h))
                .server(&s.id)
                .tool(tool)
                .evidence(evidence(&hit, &h)),
        );
    }
}

/// The client whose built-ins join a session: `--include-builtins CLIENT`, or
/// `auto` (the session's own client, when its config says).
pub fn session_builtins(
    members: &[&ServerResult],
    opts: &ScanOptions,
) -> Option<&'static super::builtins::BuiltinProfile> {
    let client = match opts.include_builtins.as_deref() {
        Some("auto") => members
            .iter()
            .find_map(|m| m.surface.source.client)
            .map(|c| c.as_str().to_string()),
        other => other.map(str::to_string),
    };
    client.as_deref().and_then(builtins_for)
}

/// Stage 4 over a session: flows that need tools of two or more members (servers
/// or the client's built-ins). Flows one server completes alone are its own findings.
pub fn check_session(members: &[&ServerResult], opts: &ScanOptions, out: &mut Vec<Finding>) {
    if members.is_empty() {
        return;
    }
    let mut h: Vec<Holder<'_>> = Vec::new();
    for (i, m) in members.iter().enumerate() {
        h.extend(server_holders(&m.surface, &m.roles, i));
    }
    let profile = session_builtins(members, opts);
    let fallback = members[0].surface.source.location.clone();
    let builtin_member = members.len();
    if let Some(p) = profile {
        for t in &p.tools {
            h.push(Holder {
                member: builtin_member,
                server_id: None,
                server_name: &p.id,
                tool: &t.name,
                roles: &t.roles,
                location: fallback.clone(),
                origin: Origin::Builtin(&t.what),
            });
        }
    }
    // Built-ins last, so representative paths prefer the MCP servers' tools.
    h.sort_by(|a, b| {
        (a.server_id.is_none(), a.server_name, a.tool).cmp(&(
            b.server_id.is_none(),
            b.server_name,
            b.tool,
        ))
    });
    // Each member's own holders, in `h` order: one pass, not one scan per member.
    let mut per_member: Vec<Vec<Holder<'_>>> = vec![Vec::new(); members.len()];
    for x in h.iter().filter(|x| x.member < members.len()) {
        per_member[x.member].push(x.clone());
    }
    let alone: BTreeSet<&str> = per_member
        .iter()
        .flat_map(|mine| {
            evaluate(mine)
                .into_iter()
                .map(|x| x.rule)
                .collect::<Vec<_>>()
        })
        .collect();
    let servers: BTreeSet<&str> = members.iter().map(|m| m.surface.name.as_str()).collect();
    let scope = format!(
        "session of {} server(s) ({}){}",
        members.len(),
        servers.into_iter().collect::<Vec<_>>().join(", "),
        profile
            .map(|p| format!(" + {} built-ins", p.name))
            .unwrap_or_default()
    );
    for hit in evaluate(&h) {
        let single = hit.path.len() == 1;
        // Per-tool rules of MCP tools are already the server's; once-rules one server fires alone too.
        if (single && h[hit.path[0]].server_id.is_some()) || (!single && alone.contains(hit.rule)) {
            continue;
        }
        let tool = single.then(|| h[hit.path[0]].tool);
        out.push(
            Finding::new(hit.rule, describe(&hit, &h, &scope), at(&hit, &h))
                .tool(tool)
                .evidence(evidence(&hit, &h)),
        );
    }
}

/// Every id this stage emits (a unit test checks each is catalogued).
pub const RULE_IDS: &[&str] = &[
    ids::MTC_FLOW_001,
    ids::MTC_FLOW_002,
    ids::MTC_FLOW_003,
    ids::MTC_FLOW_004,
    ids::MTC_FLOW_005,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::acquire::Acquired;
    use crate::finding::{Category, Confidence, Severity};
    use crate::score::Grade;
    use serde_json::{Value, json};

    fn surface(id: &str, session: Option<&str>, tools: Vec<Value>) -> ServerSurface {
        crate::testkit::surface(id)
            .name(id)
            .at("mcp.json", 3, 5)
            .session(session)
            .tools(tools)
            .build()
    }

    fn scan(surfaces: Vec<ServerSurface>, opts: &ScanOptions) -> super::super::ScanResult {
        super::super::run(
            Acquired {
                surfaces,
                ..Acquired::default()
            },
            opts,
        )
    }

    fn ids(f: &[Finding]) -> Vec<&str> {
        f.iter()
            .map(|x| x.rule_id.as_str())
            .filter(|r| r.starts_with("MTC-FLOW"))
            .collect()
    }

    fn fetch_url() -> Value {
        json!({"name": "fetch_url", "description": "Fetch a URL", "inputSchema": {"properties": {"url": {"type": "string", "format": "uri"}}}})
    }
    fn read_file() -> Value {
        json!({"name": "read_file", "inputSchema": {"properties": {"path": {"type": "string", "pattern": "^/srv/"}}}})
    }
    fn http_request() -> Value {
        json!({"name": "http_request", "inputSchema": {"properties": {"url": {"type": "string", "format": "uri"}, "method": {"enum": ["GET", "POST"]}, "body": {"type": "string"}}}})
    }

    #[test]
    fn rule_ids_are_catalogued_with_the_seed_table() {
        let want = [
            (
                crate::rules::ids::MTC_FLOW_001,
                Severity::Critical,
                Confidence::Confirmed,
            ),
            (
                crate::rules::ids::MTC_FLOW_002,
                Severity::Critical,
                Confidence::Strong,
            ),
            (
                crate::rules::ids::MTC_FLOW_003,
                Severity::High,
                Confidence::Strong,
            ),
            (
                crate::rules::ids::MTC_FLOW_004,
                Severity::High,
                Confidence::Strong,
            ),
            (
                crate::rules::ids::MTC_FLOW_005,
                Severity::Medium,
                Confidence::Strong,
            ),
        ];
        for (id, sev, conf) in want {
            let r = crate::rules::get(id).unwrap();
            assert_eq!(
                (r.severity, r.confidence, r.category),
                (sev, conf, Category::Exfiltration),
                "{id}"
            );
        }
        assert_eq!(RULE_IDS.len(), want.len());
    }

    #[test]
    fn seed_single_tool_trifecta_is_flow_001_and_f() {
        let s = surface(
            "one.json",
            None,
            vec![
                json!({"name": "sync", "description": "Fetch a URL, read a local file and post the result."}),
            ],
        );
        let r = scan(vec![s], &ScanOptions::default());
        let srv = &r.servers[0];
        assert_eq!(ids(&srv.findings), [crate::rules::ids::MTC_FLOW_001]);
        assert_eq!(
            srv.findings
                .iter()
                .find(|f| f.rule_id == crate::rules::ids::MTC_FLOW_001)
                .unwrap()
                .tool
                .as_deref(),
            Some("sync")
        );
        assert_eq!(srv.score.grade, Grade::F);
    }

    #[test]
    fn seed_cross_tool_trifecta_is_flow_002_d_not_f() {
        let s = surface(
            "three.json",
            None,
            vec![fetch_url(), read_file(), http_request()],
        );
        let r = scan(vec![s], &ScanOptions::default());
        let srv = &r.servers[0];
        assert_eq!(
            ids(&srv.findings),
            [crate::rules::ids::MTC_FLOW_002],
            "{:#?}",
            srv.findings
        );
        let f = srv
            .findings
            .iter()
            .find(|f| f.rule_id == crate::rules::ids::MTC_FLOW_002)
            .unwrap();
        assert!(
            f.message.contains("three.json/fetch_url")
                && f.message.contains("three.json/read_file")
                && f.message.contains("three.json/http_request"),
            "{}",
            f.message
        );
        assert!(
            srv.score.grade >= Grade::D && srv.score.grade != Grade::F,
            "{:?}",
            srv.score.grade
        );
    }

    #[test]
    fn read_only_tools_have_no_flow() {
        let s = surface(
            "ro.json",
            None,
            vec![
                read_file(),
                json!({"name": "list_directory", "inputSchema": {"properties": {"path": {"type": "string", "pattern": "^/"}}}}),
                json!({"name": "get_current_time"}),
            ],
        );
        let r = scan(vec![s], &ScanOptions::default());
        assert!(
            ids(&r.servers[0].findings).is_empty(),
            "{:#?}",
            r.servers[0].findings
        );
    }

    #[test]
    fn flow_003_004_005() {
        let h = |n: &'static str, r: &'static [Role]| {
            (n, r.iter().copied().collect::<BTreeSet<Role>>())
        };
        type Case<'a> = (Vec<(&'a str, BTreeSet<Role>)>, Vec<&'a str>);
        let cases: Vec<Case<'_>> = vec![
            (
                vec![h(
                    "dump_and_send",
                    &[Role::SensitiveSource, Role::ExternalSink],
                )],
                vec![crate::rules::ids::MTC_FLOW_003],
            ),
            (
                vec![
                    h("read_db", &[Role::SensitiveSource]),
                    h("post", &[Role::ExternalSink]),
                ],
                vec![crate::rules::ids::MTC_FLOW_004],
            ),
            (
                vec![
                    h("fetch", &[Role::UntrustedInput]),
                    h("shell", &[Role::CodeExec]),
                ],
                vec![crate::rules::ids::MTC_FLOW_005],
            ),
            (
                vec![
                    h("fetch", &[Role::UntrustedInput]),
                    h("read", &[Role::SensitiveSource]),
                ],
                vec![],
            ),
            (
                vec![
                    h("write", &[Role::FileWrite]),
                    h("read", &[Role::SensitiveSource]),
                ],
                vec![],
            ),
        ];
        for (tools, want) in cases {
            let hs: Vec<Holder<'_>> = tools
                .iter()
                .map(|(n, r)| Holder {
                    member: 0,
                    server_id: Some("s"),
                    server_name: "s",
                    tool: n,
                    roles: r,
                    location: Location::default(),
                    origin: Origin::Given,
                })
                .collect();
            let got: Vec<&str> = evaluate(&hs).iter().map(|x| x.rule).collect();
            assert_eq!(got, want, "{tools:?}");
        }
    }

    #[test]
    fn session_trifecta_across_servers_belongs_to_the_session() {
        let a = surface("mcp.json#web", Some("mcp.json"), vec![fetch_url()]);
        let b = surface("mcp.json#files", Some("mcp.json"), vec![read_file()]);
        let c = surface("mcp.json#api", Some("mcp.json"), vec![http_request()]);
        let r = scan(vec![a, b, c], &ScanOptions::default());
        // fetch_url alone: nothing; http_request: untrusted-input + sink = FLOW-005 in its own server.
        for s in &r.servers {
            assert!(
                !ids(&s.findings).contains(&crate::rules::ids::MTC_FLOW_002),
                "{}",
                s.surface.id
            );
        }
        let sess = &r.sessions[0];
        assert_eq!(
            ids(&sess.findings),
            [crate::rules::ids::MTC_FLOW_002],
            "{:#?}",
            sess.findings
        );
        let f = &sess.findings[0];
        assert!(
            f.message.contains("mcp.json#files/read_file"),
            "{}",
            f.message
        );
        assert!(
            f.evidence.contains("mcp.json#web/fetch_url"),
            "{}",
            f.evidence
        );
        assert!(sess.score.grade >= Grade::D && sess.score.grade != Grade::F);
    }

    #[test]
    fn builtins_complete_a_session_flow() {
        let a = surface("mcp.json#files", Some("mcp.json"), vec![read_file()]);
        let r = scan(vec![a.clone()], &ScanOptions::default());
        assert!(ids(&r.sessions[0].findings).is_empty());
        let opts = ScanOptions {
            include_builtins: Some("claude-code".into()),
            ..ScanOptions::default()
        };
        let r = scan(vec![a], &opts);
        let f = &r.sessions[0].findings;
        assert_eq!(ids(f), [crate::rules::ids::MTC_FLOW_002], "{f:#?}");
        assert!(
            f[0].message.contains("mcp.json#files/read_file")
                && f[0].message.contains("claude-code/Bash"),
            "{}",
            f[0].message
        );
    }
}
