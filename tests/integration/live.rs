//! Live acquisition against real servers: fixture servers built with the
//! Python MCP SDK, hostile raw JSON-RPC servers, and published servers from
//! npm and PyPI (installed by `scripts/test-deps.sh`; no internet needed).

use crate::common::{mtc, repo};
use mcptrustchecker::acquire::live::{self, LiveOptions, LiveReport, Outcome};
use mcptrustchecker::surface::{Coverage, Location, RemoteKind, ServerSurface, Source, Transport};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn fixture(name: &str) -> String {
    repo()
        .join("tests/fixtures/live")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The test venv's python (SDK fixtures and mcp-server-time need it).
fn venv_python() -> String {
    let p = repo().join(".cache/venv/bin/python");
    assert!(
        p.exists(),
        "{} is missing: run scripts/test-deps.sh",
        p.display()
    );
    p.to_string_lossy().into_owned()
}

fn everything_js() -> String {
    let p = repo()
        .join(".cache/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        p.exists(),
        "{} is missing: run scripts/test-deps.sh",
        p.display()
    );
    p.to_string_lossy().into_owned()
}

fn surface(name: &str, transport: Transport) -> ServerSurface {
    let src = Source {
        location: Location::new(".mcp.json", 1, 1),
        format: "client-config".into(),
        client: None,
    };
    ServerSurface::new(format!(".mcp.json#{name}"), name.into(), src, transport)
}

fn stdio(name: &str, command: &str, args: &[&str]) -> ServerSurface {
    surface(
        name,
        Transport::Stdio {
            command: command.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
            env_names: Vec::new(),
            cwd: None,
        },
    )
}

fn remote(name: &str, url: &str, protocol: RemoteKind) -> ServerSurface {
    surface(
        name,
        Transport::Remote {
            url: url.into(),
            protocol,
            header_names: Vec::new(),
        },
    )
}

/// Live tests take turns: each starts several interpreters, and the machine is small.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

/// Generous for start-up (Python and Node on a loaded 2-core machine), short elsewhere.
fn opts() -> LiveOptions {
    LiveOptions {
        request_timeout: Duration::from_secs(60),
        server_timeout: Duration::from_secs(90),
        allow_any_command: true,
        progress: false,
        ..LiveOptions::default()
    }
}

fn names(items: &[mcptrustchecker::surface::Item]) -> Vec<&str> {
    let mut v: Vec<&str> = items.iter().map(|i| i.name.as_str()).collect();
    v.sort();
    v
}

fn rules(r: &LiveReport, s: &ServerSurface) -> Vec<String> {
    live::findings(r, s)
        .into_iter()
        .map(|f| f.rule_id)
        .collect()
}

fn bounded(r: &LiveReport) -> &str {
    match &r.outcome {
        Outcome::Bounded(why) => why,
        other => panic!("{} should be bounded, got {other:?}", r.server),
    }
}

/// A background server process, killed when dropped.
struct Bg(Child);
impl Drop for Bg {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn start(cmd: &mut Command, port: u16) -> Bg {
    let child = Bg(cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("server starts"));
    let t = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            t.elapsed() < Duration::from_secs(40),
            "server on port {port} did not come up"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    child
}

#[test]
fn sdk_servers_over_stdio_are_read_verbatim_in_the_sandbox() {
    let _serial = serial();
    let py = venv_python();
    let pidfile = tempfile::NamedTempFile::new().unwrap();
    let pidpath = pidfile.path().to_string_lossy().into_owned();
    let mut envcopy = stdio("envcopy", &py, &[&fixture("sdk_server.py"), "envcopy"]);
    envcopy.env = BTreeMap::from([
        ("CONFIG_VAR".to_string(), "from-config".to_string()),
        ("LD_PRELOAD".to_string(), "/evil.so".to_string()),
    ]);
    let mut surfaces = vec![
        stdio("benign", &py, &[&fixture("sdk_server.py"), "benign"]),
        stdio("poisoned", &py, &[&fixture("sdk_server.py"), "poisoned"]),
        envcopy,
        stdio(
            "spawner",
            &py,
            &[&fixture("sdk_server.py"), "spawner", "stdio", &pidpath],
        ),
    ];
    let cache = tempfile::tempdir().unwrap();
    let o = LiveOptions {
        package_cache: Some(cache.path().to_path_buf()),
        ..opts()
    };
    let reports = live::acquire_live_blocking(&mut surfaces, &o);
    let order: Vec<&str> = reports.iter().map(|r| r.server.as_str()).collect();
    assert_eq!(
        order,
        [
            ".mcp.json#benign",
            ".mcp.json#poisoned",
            ".mcp.json#envcopy",
            ".mcp.json#spawner"
        ],
        "report order follows the input"
    );
    for r in &reports {
        assert_eq!(
            r.outcome,
            Outcome::Complete,
            "{}: {:?} stderr {}",
            r.server,
            r.outcome,
            r.stderr
        );
        assert_eq!(r.transport.as_deref(), Some("stdio"));
    }

    let benign = &surfaces[0];
    assert_eq!(benign.coverage, Coverage::Live);
    assert_eq!(names(&benign.tools), ["add", "echo"]);
    assert_eq!(names(&benign.prompts), ["greet"]);
    assert_eq!(benign.resources.len(), 1);
    assert_eq!(
        benign.instructions.as_deref(),
        Some("Adds numbers and echoes text.")
    );
    assert_eq!(
        benign.server_info.as_ref().unwrap()["name"],
        "benign-fixture"
    );
    assert!(benign.protocol_version.is_some());
    assert_eq!(
        benign.tools[0].raw["inputSchema"]["properties"]["a"]["type"],
        "integer"
    );

    assert!(
        surfaces[1].tools[0]
            .description()
            .contains("read ~/.ssh/id_rsa")
    );

    // The server saw only PATH, a fresh HOME, what the config names, and
    // the allowlisted network variables the scanner's environment has set.
    let env: BTreeMap<String, String> =
        serde_json::from_str(surfaces[2].tools[0].description()).unwrap();
    let network = &live::sandbox::data().network_env;
    for n in network {
        assert_eq!(
            env.get(n),
            std::env::var(n).ok().as_ref(),
            "network variable {n}"
        );
    }
    // The package managers' caches point into the scanner's package cache.
    let caches = &live::sandbox::data().cache_env;
    for (var, sub) in caches {
        assert_eq!(
            env.get(var).map(PathBuf::from),
            Some(cache.path().join(sub)),
            "{var}"
        );
    }
    let keys: Vec<&str> = env
        .keys()
        .map(String::as_str)
        .filter(|k| *k != "LC_CTYPE" && !network.iter().any(|n| n == k) && !caches.contains_key(*k))
        .collect();
    assert_eq!(
        keys,
        ["CONFIG_VAR", "HOME", "PATH"],
        "child environment: {env:?}"
    );
    assert_eq!(env["CONFIG_VAR"], "from-config");
    assert!(
        env["HOME"].contains("mtc-home-"),
        "HOME is a fresh temp dir: {}",
        env["HOME"]
    );
    assert!(
        !std::path::Path::new(&env["HOME"]).exists(),
        "the temp HOME is removed after the scan"
    );
    assert!(reports[2].notes.iter().any(|n| n.contains("LD_PRELOAD")));

    // The spawner's child died with its process group.
    let pid: i32 = std::fs::read_to_string(&pidpath)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let alive = stat
        .split(") ")
        .nth(1)
        .is_some_and(|rest| !rest.starts_with('Z'));
    assert!(!alive, "the server's child {pid} outlived the scan: {stat}");
}

#[test]
fn hostile_servers_trip_their_bounds_and_the_others_go_on() {
    let _serial = serial();
    let raw = fixture("raw_server.py");
    let mode = |m: &str| stdio(m, "python3", &[&raw, m]);
    let mut surfaces = vec![
        mode("changing"),
        mode("flood"),
        mode("cursor"),
        mode("cursor-same"),
        mode("many"),
        mode("huge"),
        mode("requests"),
    ];
    let o = LiveOptions {
        request_timeout: Duration::from_secs(30),
        server_timeout: Duration::from_secs(60),
        max_pages: 20,
        max_items: 5_000,
        max_bytes: 12 * 1024 * 1024,
        allow_any_command: false,
        progress: false,
        ..LiveOptions::default()
    };
    let t = Instant::now();
    let reports = live::acquire_live_blocking(&mut surfaces, &o);
    let wall = t.elapsed();
    eprintln!("hostile batch: {wall:?}");
    assert!(bounded(&reports[1]).contains("max metadata bytes"));
    assert!(bounded(&reports[2]).contains("max pages"));
    assert_eq!(
        surfaces[2].tools.len(),
        20,
        "what was read before the bound is kept"
    );
    assert_eq!(surfaces[2].coverage, Coverage::Live);
    assert!(bounded(&reports[3]).contains("repeated a pagination cursor"));
    assert!(
        bounded(&reports[4]).contains("max items"),
        "{:?}",
        reports[4].outcome
    );
    assert_eq!(surfaces[4].tools.len(), 5_000);
    assert!(bounded(&reports[5]).contains("max metadata bytes"));
    assert_eq!(
        reports[6].outcome,
        Outcome::Complete,
        "a well-behaved server in the same batch is unaffected"
    );
    for (r, s) in reports.iter().zip(&surfaces).skip(1).take(5) {
        assert!(
            rules(r, s).contains(&"MTC-META-003".to_string()),
            "{}",
            r.server
        );
    }
    // Unknown fields survive (rmcp's typed model would drop them).
    let req = &surfaces[6];
    assert_eq!(req.capabilities.as_ref().unwrap()["x-vendor"]["kept"], true);
    assert_eq!(req.server_info.as_ref().unwrap()["x-build"], "raw");
    let u = req.tool("u").unwrap();
    assert_eq!(u.raw["x-extra"]["kept"], 1);
    assert_eq!(u.raw["execution"]["taskSupport"], "optional");
    // Sampling and elicitation were requested, refused and recorded.
    let methods: Vec<&str> = reports[6]
        .server_requests
        .iter()
        .filter_map(|r| r["method"].as_str())
        .collect();
    assert_eq!(methods, ["sampling/createMessage", "elicitation/create"]);
    let r = rules(&reports[6], req);
    assert!(
        r.contains(&"MTC-LIVE-001".to_string()) && r.contains(&"MTC-LIVE-002".to_string()),
        "{r:?}"
    );

    // The catalog that changed after list_changed: both are recorded.
    assert_eq!(
        reports[0].outcome,
        Outcome::Complete,
        "{:?}",
        reports[0].outcome
    );
    assert_eq!(names(&surfaces[0].tools), ["read_notes", "send_notes"]);
    let before = reports[0]
        .tools_before_change
        .as_ref()
        .expect("both catalogs are recorded");
    assert_eq!(before.len(), 1);
    let f = live::findings(&reports[0], &surfaces[0]);
    let change = f
        .iter()
        .find(|f| f.rule_id == "MTC-LIVE-003")
        .expect("MTC-LIVE-003");
    assert!(
        change.evidence.contains("added [send_notes]"),
        "{}",
        change.evidence
    );
}

#[test]
fn a_server_that_never_answers_gives_up_at_either_bound() {
    let _serial = serial();
    let raw = fixture("raw_server.py");
    // One bound per run: (request, start-up, wall clock) in seconds, the mode of
    // the raw server, the bound the outcome must name, and the elapsed window.
    let run = |(request, startup, wall): (u64, u64, u64), mode: &str, bound: &str| {
        let opts = LiveOptions {
            request_timeout: Duration::from_secs(request),
            startup_timeout: Duration::from_secs(startup),
            server_timeout: Duration::from_secs(wall),
            progress: false,
            ..LiveOptions::default()
        };
        let mut s = vec![stdio(mode, "python3", &[&raw, mode])];
        let r = live::acquire_live_blocking(&mut s, &opts).remove(0);
        assert!(bounded(&r).contains(bound), "{:?}", r.outcome);
        (r, s)
    };
    // No answer to `initialize`: the start-up deadline, not the per-request timeout.
    let (r, s) = run((1, 3, 30), "hang", "start-up deadline (3000 ms)");
    assert!(
        r.elapsed >= Duration::from_secs(3) && r.elapsed < Duration::from_secs(7),
        "{:?}",
        r.elapsed
    );
    assert!(rules(&r, &s[0]).contains(&"MTC-META-003".to_string()));
    assert_eq!(s[0].coverage, Coverage::ConfigOnly);

    // Answered, then silent on `tools/list`: the per-request timeout.
    let (r, s) = run((2, 20, 30), "hang-list", "per-request timeout (2000 ms)");
    assert!(
        r.elapsed >= Duration::from_secs(2) && r.elapsed < Duration::from_secs(6),
        "{:?}",
        r.elapsed
    );
    assert!(rules(&r, &s[0]).contains(&"MTC-META-003".to_string()));

    let (r, _) = run((30, 45, 2), "hang", "wall-clock bound (2000 ms)");
    assert!(r.elapsed < Duration::from_secs(6), "{:?}", r.elapsed);
    eprintln!("hang: gave up after {:?}", r.elapsed);
}

#[test]
fn sandbox_and_url_refusals() {
    let _serial = serial();
    let mut surfaces = vec![
        stdio("shell", "bash", &["-c", "touch /tmp/mtc-should-not-exist"]),
        stdio("pathy", "/usr/bin/python3", &["-c", "pass"]),
        remote("ftp", "ftp://127.0.0.1/mcp", RemoteKind::StreamableHttp),
        remote(
            "other-host",
            "http://not-allowed.invalid/mcp",
            RemoteKind::StreamableHttp,
        ),
        remote(
            "closed-port",
            &format!("http://127.0.0.1:{}/mcp", free_port()),
            RemoteKind::StreamableHttp,
        ),
    ];
    let o = LiveOptions {
        request_timeout: Duration::from_secs(5),
        host_allowlist: Some(vec!["127.0.0.1".into()]),
        progress: false,
        ..LiveOptions::default()
    };
    let reports = live::acquire_live_blocking(&mut surfaces, &o);
    for r in &reports[..4] {
        assert!(
            matches!(r.outcome, Outcome::Refused(_)),
            "{}: {:?}",
            r.server,
            r.outcome
        );
    }
    assert!(
        matches!(&reports[4].outcome, Outcome::Failed(why) if why.contains("HTTP request failed")),
        "{:?}",
        reports[4].outcome
    );
    assert!(!std::path::Path::new("/tmp/mtc-should-not-exist").exists());
    assert!(surfaces.iter().all(|s| s.coverage == Coverage::ConfigOnly));
}

#[test]
fn http_streamable_and_legacy_sse_with_fallback() {
    let _serial = serial();
    let py = venv_python();
    let (p_http, p_sse) = (free_port(), free_port());
    let _http = start(
        Command::new(&py).args([
            &fixture("sdk_server.py"),
            "benign",
            "http",
            &p_http.to_string(),
        ]),
        p_http,
    );
    let _sse = start(
        Command::new(&py).args([
            &fixture("sdk_server.py"),
            "benign",
            "sse",
            &p_sse.to_string(),
        ]),
        p_sse,
    );
    let mut surfaces = vec![
        remote(
            "streamable",
            &format!("http://127.0.0.1:{p_http}/mcp"),
            RemoteKind::StreamableHttp,
        ),
        remote(
            "sse",
            &format!("http://127.0.0.1:{p_sse}/sse"),
            RemoteKind::Sse,
        ),
        remote(
            "fallback",
            &format!("http://127.0.0.1:{p_sse}/sse"),
            RemoteKind::Unspecified,
        ),
    ];
    let reports = live::acquire_live_blocking(&mut surfaces, &opts());
    let used: Vec<_> = reports
        .iter()
        .map(|r| r.transport.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(
        used,
        ["streamable-http", "sse", "sse"],
        "{:?}",
        reports.iter().map(|r| &r.outcome).collect::<Vec<_>>()
    );
    for (r, s) in reports.iter().zip(&surfaces) {
        assert_eq!(r.outcome, Outcome::Complete, "{}", r.server);
        assert_eq!(names(&s.tools), ["add", "echo"], "{}", r.server);
        assert_eq!(r.tls, Some(false));
    }
    assert_eq!(
        reports[0].bind,
        [format!("127.0.0.1:{p_http}")],
        "the localhost server's bind is recorded"
    );
    assert!(
        surfaces[0]
            .notes
            .iter()
            .any(|n| n.contains("streamable-http, no TLS")),
        "{:?}",
        surfaces[0].notes
    );
}

#[test]
fn published_servers_over_stdio_and_streamable_http() {
    let _serial = serial();
    let py = venv_python();
    let js = everything_js();
    let port = free_port();
    let preload = format!(
        "--import={}",
        PathBuf::from(fixture("bind-localhost.mjs")).display()
    );
    let _srv = start(
        Command::new("node")
            .args([preload.as_str(), &js, "streamableHttp"])
            .env("PORT", port.to_string()),
        port,
    );
    let mut surfaces = vec![
        stdio("everything", "node", &[&js, "stdio"]),
        stdio(
            "time",
            &py,
            &["-m", "mcp_server_time", "--local-timezone", "UTC"],
        ),
        remote(
            "everything-http",
            &format!("http://127.0.0.1:{port}/mcp"),
            RemoteKind::StreamableHttp,
        ),
    ];
    let reports = live::acquire_live_blocking(&mut surfaces, &opts());
    for r in &reports {
        assert_eq!(
            r.outcome,
            Outcome::Complete,
            "{}: {:?} {}",
            r.server,
            r.outcome,
            r.stderr
        );
    }
    // server-everything shows its sampling/elicitation/roots tools because we declare those capabilities.
    let everything = [
        "echo",
        "get-annotated-message",
        "get-env",
        "get-resource-links",
        "get-resource-reference",
        "get-roots-list",
        "get-structured-content",
        "get-sum",
        "get-tiny-image",
        "gzip-file-as-resource",
        "toggle-simulated-logging",
        "toggle-subscriber-updates",
        "trigger-elicitation-request",
        "trigger-long-running-operation",
        "trigger-sampling-request",
    ];
    for i in [0, 2] {
        let got = names(&surfaces[i].tools);
        for t in everything {
            assert!(
                got.contains(&t),
                "{}: {t} missing from {got:?}",
                reports[i].server
            );
        }
        assert_eq!(surfaces[i].prompts.len(), 4);
        assert_eq!(
            surfaces[i].server_info.as_ref().unwrap()["name"],
            "mcp-servers/everything"
        );
    }
    assert_eq!(
        names(&surfaces[0].tools),
        names(&surfaces[2].tools),
        "same catalog over stdio and HTTP"
    );
    assert_eq!(
        surfaces[0].tools.len(),
        16,
        "{:?}",
        names(&surfaces[0].tools)
    );
    assert_eq!(
        names(&surfaces[1].tools),
        ["convert_time", "get_current_time"]
    );
    assert_eq!(reports[2].transport.as_deref(), Some("streamable-http"));
    assert_eq!(reports[2].bind, [format!("127.0.0.1:{port}")]);
}

#[test]
fn cli_live_scan_keeps_the_scanners_secrets_out() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let secret = "sk_live_SECRETVALUEdoNotLeak0123456789";
    let cfg = serde_json::json!({"mcpServers": {
        "envcopy": {"command": "python3", "args": [fixture("sdk_server.py"), "envcopy"], "env": {"GIVEN": "${GIVEN_BY_CONFIG}"}},
        "hang": {"command": "python3", "args": [fixture("raw_server.py"), "hang"]},
        "shell": {"command": "sh", "args": ["-c", "true"]}
    }});
    std::fs::write(
        dir.path().join(".mcp.json"),
        serde_json::to_string_pretty(&cfg).unwrap(),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        repo().join(".cache/venv/bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let _ = venv_python();
    let out = mtc()
        .args([
            "scan",
            &dir.path().to_string_lossy(),
            "--root",
            &dir.path().to_string_lossy(),
            "--live",
            "--live-timeout",
            "30",
            "--live-server-timeout",
            "40",
            "--format",
            "json",
        ])
        .env("PATH", path)
        .env("MTC_TEST_SECRET", secret)
        .env("GIVEN_BY_CONFIG", "config-named-value")
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stdout.contains(secret) && !stderr.contains(secret),
        "the scanner's environment leaked"
    );
    assert!(
        !stdout.contains("config-named-value"),
        "config env values are never printed"
    );
    let v: Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}"));
    let server = |n: &str| {
        v["servers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == n)
            .unwrap()
            .clone()
    };
    let envcopy = server("envcopy");
    assert_eq!(envcopy["coverage"], "live", "{envcopy}");
    assert_eq!(envcopy["counts"]["tools"], 1);
    let ids = |s: &Value| {
        s["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["rule_id"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert!(ids(&server("hang")).contains(&"MTC-META-003".to_string()));
    let shell = server("shell");
    assert!(
        shell["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule_id"] == "MTC-META-003"
                && f["message"].as_str().unwrap().contains("allowlist")),
        "{shell}"
    );
}

/// A PATH of shims: `npx` records each invocation (arguments and the cache it
/// was given), and answers as the SDK fixture server unless it is the install
/// step (`… -- node -e ""`); `node` exists so that `npx` counts as installed.
fn npx_shims(dir: &std::path::Path, log: &std::path::Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    let py = venv_python();
    let npx = format!(
        "#!/bin/sh\nprintf '%s|%s\\n' \"$*\" \"$npm_config_cache\" >> '{}'\ncase \"$*\" in *'-- node -e'*) exit 0;; esac\nexec '{}' '{}' benign\n",
        log.display(),
        py,
        fixture("sdk_server.py")
    );
    for (name, body) in [("npx", npx.as_str()), ("node", "#!/bin/sh\nexit 0\n")] {
        let p = dir.join(name);
        std::fs::write(&p, body).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    format!("{}:/usr/bin:/bin", dir.display())
}

#[test]
fn packages_install_into_the_scanners_cache_before_servers_are_timed() {
    let _serial = serial();
    let work = tempfile::tempdir().unwrap();
    let (bin, cache) = (work.path().join("bin"), work.path().join("cache"));
    std::fs::create_dir_all(&bin).unwrap();
    let log = work.path().join("npx.log");
    let path = npx_shims(&bin, &log);
    let cfg = serde_json::json!({"mcpServers": {
        "a": {"command": "npx", "args": ["-y", "@example/server-a@1.2.3", "--root", "."]},
        "b": {"command": "npx", "args": ["-y", "@example/server-a@1.2.3", "--other"]},
        "missing": {"command": "uvx", "args": ["mcp-server-time@2026.10.19"]}
    }});
    std::fs::write(work.path().join(".mcp.json"), cfg.to_string()).unwrap();
    let out = mtc()
        .args([
            "scan",
            &work.path().to_string_lossy(),
            "--root",
            &work.path().to_string_lossy(),
        ])
        .args([
            "--live",
            "--live-cache",
            &cache.to_string_lossy(),
            "--format",
            "json",
        ])
        .env("PATH", &path)
        .env("HTTPS_PROXY", "http://proxyuser:proxypass1234@127.0.0.1:9")
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stdout.contains("proxypass1234") && !stderr.contains("proxypass1234"),
        "a proxy's credentials are never shown"
    );
    let v: Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}"));
    let server = |n: &str| {
        v["servers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == n)
            .unwrap()
            .clone()
    };
    for n in ["a", "b"] {
        assert_eq!(server(n)["coverage"], "live", "{}", server(n));
    }
    // One install for the one package, first, with the cache; then each server.
    let calls: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let npm_cache = cache.join("npm").to_string_lossy().into_owned();
    assert_eq!(
        calls[0],
        format!("-y --package=@example/server-a@1.2.3 -- node -e |{npm_cache}"),
        "{calls:?}"
    );
    let mut servers: Vec<&str> = calls[1..].iter().map(String::as_str).collect();
    servers.sort();
    assert_eq!(
        servers,
        [
            format!("-y @example/server-a@1.2.3 --other|{npm_cache}"),
            format!("-y @example/server-a@1.2.3 --root .|{npm_cache}"),
        ]
    );
    // A launcher that is not installed is a located finding that says so.
    let missing = server("missing");
    let f = missing["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "MTC-META-003")
        .unwrap_or_else(|| panic!("{missing}"));
    let msg = f["message"].as_str().unwrap();
    assert!(
        msg.contains("`uvx` (uv's tool runner) is not installed") && msg.contains("install uv"),
        "{msg}"
    );
    assert_eq!(f["location"]["path"], ".mcp.json", "{f}");
}
