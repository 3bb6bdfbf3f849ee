//! `--online`: registry facts about the packages the configs run, fetched once
//! per run before the pipeline (stages never do I/O). npm registry and PyPI
//! JSON API, with timeouts, a response-size cap and a per-run cache; a registry
//! that cannot be reached is recorded, so the report can say what went unchecked.

use crate::surface::{PackageId, ServerSurface};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// Where the registries are (tests point these at 127.0.0.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistryConfig {
    pub npm: String,
    /// Base of the npm download-count API (`/downloads/point/last-week/NAME`).
    pub npm_downloads: String,
    pub pypi: String,
    pub timeout: Duration,
    pub max_bytes: usize,
}

pub const DEFAULT_NPM: &str = "https://registry.npmjs.org";
pub const DEFAULT_NPM_DOWNLOADS: &str = "https://api.npmjs.org";
pub const DEFAULT_PYPI: &str = "https://pypi.org";

impl Default for RegistryConfig {
    fn default() -> Self {
        RegistryConfig::new(None, None)
    }
}

impl RegistryConfig {
    /// Public registries unless overridden; a custom npm registry also serves the download counts.
    pub fn new(npm: Option<&str>, pypi: Option<&str>) -> Self {
        let npm_base = npm.unwrap_or(DEFAULT_NPM).trim_end_matches('/').to_string();
        let npm_downloads = if npm.is_some() {
            npm_base.clone()
        } else {
            DEFAULT_NPM_DOWNLOADS.to_string()
        };
        RegistryConfig {
            npm: npm_base,
            npm_downloads,
            pypi: pypi
                .unwrap_or(DEFAULT_PYPI)
                .trim_end_matches('/')
                .to_string(),
            timeout: Duration::from_secs(15),
            max_bytes: 16 * 1024 * 1024,
        }
    }
}

/// Which package a lookup is for: registry, name, requested version.
pub type Key = (String, String, Option<String>);

/// What the registry said about one package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    Found(PackageFacts),
    /// The registry has no package of this name: anyone could register it.
    PackageMissing {
        url: String,
    },
    /// The registry could not be asked (network, status, size, parse).
    Failed {
        url: String,
        reason: String,
    },
}

/// Registry facts for one version of a package.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackageFacts {
    /// The URL the facts came from (evidence).
    pub url: String,
    /// The version described (the requested one, or the latest).
    pub version: Option<String>,
    /// The requested exact version is not published.
    pub version_missing: bool,
    /// `preinstall`, `install`, `postinstall` hooks (npm).
    pub scripts: BTreeMap<String, String>,
    pub repository: Option<String>,
    pub license: Option<String>,
    pub dependencies: Vec<String>,
    /// Weekly downloads, where the registry gives them (npm).
    pub weekly_downloads: Option<u64>,
}

/// Everything fetched in one run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    pub packages: BTreeMap<Key, Lookup>,
}

impl Facts {
    pub fn get(&self, p: &PackageId) -> Option<&Lookup> {
        self.packages.get(&key(p))
    }
}

/// The cache key of a package reference.
pub fn key(p: &PackageId) -> Key {
    (p.registry.clone(), p.name.clone(), p.version.clone())
}

/// Install ring as rustls's process-wide provider (reqwest panics without one).
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// Fetch facts for every npm and PyPI package the surfaces run (each once).
pub fn fetch(surfaces: &[ServerSurface], cfg: &RegistryConfig) -> Facts {
    let mut wanted: BTreeSet<Key> = BTreeSet::new();
    for s in surfaces {
        if let Some(p) = &s.package
            && matches!(p.registry.as_str(), "npm" | "pypi")
        {
            wanted.insert(key(p));
        }
    }
    if wanted.is_empty() {
        return Facts::default();
    }
    install_crypto_provider();
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            return failed_all(
                &wanted,
                cfg,
                &format!("cannot start the network runtime: {e}"),
            );
        }
    };
    let client = match reqwest::Client::builder()
        .timeout(cfg.timeout)
        .connect_timeout(cfg.timeout.min(Duration::from_secs(10)))
        .user_agent(concat!("mcptrustchecker/", env!("CARGO_PKG_VERSION")))
        .build()
    {
        Ok(c) => c,
        Err(e) => return failed_all(&wanted, cfg, &format!("cannot build the HTTP client: {e}")),
    };
    rt.block_on(async {
        let mut facts = Facts::default();
        // A registry that refused a connection is not asked again this run.
        let mut down: BTreeMap<String, String> = BTreeMap::new();
        for k in wanted {
            let (registry, name, version) = &k;
            if let Some(reason) = down.get(registry) {
                let url = base_url(cfg, registry);
                facts.packages.insert(
                    k.clone(),
                    Lookup::Failed {
                        url,
                        reason: reason.clone(),
                    },
                );
                continue;
            }
            let got = match registry.as_str() {
                "npm" => npm(&client, cfg, name, version.as_deref()).await,
                _ => pypi(&client, cfg, name, version.as_deref()).await,
            };
            if let Lookup::Failed { reason, .. } = &got
                && reason.starts_with("unreachable")
            {
                down.insert(registry.clone(), reason.clone());
            }
            facts.packages.insert(k, got);
        }
        facts
    })
}

fn base_url(cfg: &RegistryConfig, registry: &str) -> String {
    if registry == "npm" {
        cfg.npm.clone()
    } else {
        cfg.pypi.clone()
    }
}

fn failed_all(wanted: &BTreeSet<Key>, cfg: &RegistryConfig, reason: &str) -> Facts {
    let packages = wanted
        .iter()
        .map(|k| {
            (
                k.clone(),
                Lookup::Failed {
                    url: base_url(cfg, &k.0),
                    reason: reason.to_string(),
                },
            )
        })
        .collect();
    Facts { packages }
}

/// GET a JSON document: `Ok(None)` on 404, `Err(reason)` otherwise.
async fn get_json(
    client: &reqwest::Client,
    url: &str,
    max: usize,
) -> Result<Option<Value>, String> {
    let mut resp = client
        .get(url)
        .header("accept", "application/json")
        .send()
        .await
        .map_err(|e| {
            if e.is_timeout() {
                format!("unreachable (timed out): {url}")
            } else if e.is_connect() {
                format!("unreachable (connection failed): {url}")
            } else {
                format!("request failed: {e}")
            }
        })?;
    let status = resp.status();
    if status == reqwest::StatusCode::NOT_FOUND {
        return Ok(None);
    }
    if !status.is_success() {
        return Err(format!("HTTP {status} from {url}"));
    }
    if resp.content_length().is_some_and(|n| n as usize > max) {
        return Err(format!("response larger than {max} bytes: {url}"));
    }
    let mut body: Vec<u8> = Vec::new();
    loop {
        match resp.chunk().await {
            Ok(Some(chunk)) => {
                body.extend_from_slice(&chunk);
                if body.len() > max {
                    return Err(format!("response larger than {max} bytes: {url}"));
                }
            }
            Ok(None) => break,
            Err(e) if e.is_timeout() => return Err(format!("unreachable (timed out): {url}")),
            Err(e) => return Err(format!("reading the response failed: {e}")),
        }
    }
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(|e| format!("not JSON ({e}): {url}"))
}

/// Percent-encode a package name for a URL path (keeping `@` and `/` of a scope).
fn path_name(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'@' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

async fn npm(
    client: &reqwest::Client,
    cfg: &RegistryConfig,
    name: &str,
    version: Option<&str>,
) -> Lookup {
    let exact = version
        .filter(|v| crate::acquire::package::is_exact_version(v))
        .map(|v| v.trim_start_matches('v').to_string());
    // A dist-tag (`latest`, `next`) is served by the same endpoint; a range resolves to `latest`.
    let tag = match (&exact, version) {
        (Some(v), _) => v.clone(),
        (None, Some(t))
            if !t.is_empty()
                && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && t.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) =>
        {
            t.to_string()
        }
        _ => "latest".to_string(),
    };
    let url = format!("{}/{}/{}", cfg.npm, path_name(name), path_name(&tag));
    let doc = match get_json(client, &url, cfg.max_bytes).await {
        Err(reason) => return Lookup::Failed { url, reason },
        Ok(d) => d,
    };
    let mut facts = PackageFacts {
        url: url.clone(),
        ..PackageFacts::default()
    };
    let manifest = match doc {
        Some(d) => d,
        None => {
            // Missing version or missing package? Ask for `latest`.
            let latest_url = format!("{}/{}/latest", cfg.npm, path_name(name));
            match get_json(client, &latest_url, cfg.max_bytes).await {
                Err(reason) => {
                    return Lookup::Failed {
                        url: latest_url,
                        reason,
                    };
                }
                Ok(None) => return Lookup::PackageMissing { url: latest_url },
                Ok(Some(d)) => {
                    facts.version_missing = exact.is_some();
                    facts.url = latest_url;
                    d
                }
            }
        }
    };
    facts.version = manifest
        .get("version")
        .and_then(Value::as_str)
        .map(str::to_string);
    if let Some(scripts) = manifest.get("scripts").and_then(Value::as_object) {
        for hook in ["preinstall", "install", "postinstall"] {
            if let Some(s) = scripts.get(hook).and_then(Value::as_str) {
                facts.scripts.insert(hook.to_string(), s.to_string());
            }
        }
    }
    facts.repository = match manifest.get("repository") {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
        Some(Value::Object(o)) => o
            .get("url")
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .map(str::to_string),
        _ => None,
    };
    facts.license = match manifest.get("license") {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
        Some(Value::Object(o)) => o.get("type").and_then(Value::as_str).map(str::to_string),
        _ => None,
    };
    let mut deps: BTreeSet<String> = BTreeSet::new();
    for field in ["dependencies", "optionalDependencies"] {
        if let Some(o) = manifest.get(field).and_then(Value::as_object) {
            deps.extend(o.keys().cloned());
        }
    }
    facts.dependencies = deps.into_iter().collect();
    let dl_url = format!(
        "{}/downloads/point/last-week/{}",
        cfg.npm_downloads,
        path_name(name)
    );
    if let Ok(Some(d)) = get_json(client, &dl_url, 64 * 1024).await {
        facts.weekly_downloads = d.get("downloads").and_then(Value::as_u64);
    }
    Lookup::Found(facts)
}

async fn pypi(
    client: &reqwest::Client,
    cfg: &RegistryConfig,
    name: &str,
    version: Option<&str>,
) -> Lookup {
    let url = format!("{}/pypi/{}/json", cfg.pypi, path_name(name));
    let doc = match get_json(client, &url, cfg.max_bytes).await {
        Err(reason) => return Lookup::Failed { url, reason },
        Ok(None) => return Lookup::PackageMissing { url },
        Ok(Some(d)) => d,
    };
    let exact = version.filter(|v| crate::acquire::package::is_exact_version(v));
    let mut facts = PackageFacts {
        url: url.clone(),
        ..PackageFacts::default()
    };
    let mut info = doc.get("info").cloned().unwrap_or(Value::Null);
    if let Some(v) = exact {
        let published = doc
            .get("releases")
            .and_then(Value::as_object)
            .is_some_and(|r| r.contains_key(v));
        if !published {
            facts.version_missing = true;
        } else {
            let vurl = format!(
                "{}/pypi/{}/{}/json",
                cfg.pypi,
                path_name(name),
                path_name(v)
            );
            if let Ok(Some(vd)) = get_json(client, &vurl, cfg.max_bytes).await
                && let Some(i) = vd.get("info")
            {
                info = i.clone();
                facts.url = vurl;
            }
        }
    }
    facts.version = info
        .get("version")
        .and_then(Value::as_str)
        .map(str::to_string);
    let nonempty = |k: &str| {
        info.get(k)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty() && *s != "UNKNOWN")
            .map(str::to_string)
    };
    facts.license = nonempty("license_expression")
        .or_else(|| nonempty("license"))
        .or_else(|| {
            info.get("classifiers")
                .and_then(Value::as_array)
                .and_then(|c| {
                    c.iter()
                        .filter_map(Value::as_str)
                        .find(|c| c.starts_with("License ::"))
                        .map(str::to_string)
                })
        });
    let mut urls: Vec<String> = info
        .get("project_urls")
        .and_then(Value::as_object)
        .map(|o| {
            o.values()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    urls.extend(nonempty("home_page"));
    const HOSTS: &[&str] = &[
        "github.com/",
        "gitlab.com/",
        "bitbucket.org/",
        "codeberg.org/",
        "git.sr.ht/",
    ];
    facts.repository = urls
        .into_iter()
        .find(|u| HOSTS.iter().any(|h| u.contains(h)));
    let mut deps: BTreeSet<String> = BTreeSet::new();
    for r in info
        .get("requires_dist")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if r.contains("extra ==") || r.contains("extra==") {
            continue;
        }
        let n: String = r
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            .collect();
        if !n.is_empty() {
            deps.insert(n);
        }
    }
    facts.dependencies = deps.into_iter().collect();
    Lookup::Found(facts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpListener;

    fn surface(name: &str, spec: &str) -> ServerSurface {
        let mut s = crate::testkit::surface(&format!("mcp.json#{name}"))
            .format("client-config")
            .build();
        s.package = crate::acquire::package::npm_spec(spec);
        s
    }

    /// Serves `body` to every request (`None`: accept, read, never answer).
    fn server(body: Option<String>) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", l.local_addr().unwrap());
        let hits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let h = hits.clone();
        std::thread::spawn(move || {
            let mut held = Vec::new();
            for mut st in l.incoming().flatten() {
                h.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let mut buf = [0u8; 4096];
                let _ = st.read(&mut buf);
                match &body {
                    Some(b) => {
                        let _ = st.write_all(format!("HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{b}", b.len()).as_bytes());
                    }
                    None => held.push(st),
                }
            }
        });
        (base, hits)
    }

    #[test]
    fn oversized_answers_are_refused() {
        let (base, _) = server(Some(format!(
            "{{\"version\":\"1.0.0\",\"pad\":\"{}\"}}",
            "x".repeat(4096)
        )));
        let mut cfg = RegistryConfig::new(Some(&base), None);
        cfg.max_bytes = 1024;
        let facts = fetch(&[surface("a", "pkg-a@1.0.0")], &cfg);
        match facts.packages.values().next().unwrap() {
            Lookup::Failed { reason, .. } => {
                assert!(reason.contains("larger than 1024"), "{reason}")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_silent_registry_times_out_once_and_is_not_asked_again() {
        let (base, hits) = server(None);
        let mut cfg = RegistryConfig::new(Some(&base), None);
        cfg.timeout = Duration::from_millis(300);
        let facts = fetch(
            &[
                surface("a", "pkg-a@1.0.0"),
                surface("b", "pkg-b@1.0.0"),
                surface("c", "pkg-c"),
            ],
            &cfg,
        );
        assert_eq!(facts.packages.len(), 3);
        for l in facts.packages.values() {
            assert!(
                matches!(l, Lookup::Failed { reason, .. } if reason.contains("timed out")),
                "{l:?}"
            );
        }
        assert_eq!(
            hits.load(std::sync::atomic::Ordering::SeqCst),
            1,
            "one request, then the registry counts as down"
        );
    }

    #[test]
    fn the_same_package_is_asked_once() {
        let (base, hits) = server(Some(
            r#"{"version":"1.0.0","license":"MIT","repository":"github:a/b"}"#.into(),
        ));
        let facts = fetch(
            &[surface("a", "pkg-a@1.0.0"), surface("b", "pkg-a@1.0.0")],
            &RegistryConfig::new(Some(&base), None),
        );
        assert_eq!(facts.packages.len(), 1);
        // the version manifest, then the download count
        assert_eq!(hits.load(std::sync::atomic::Ordering::SeqCst), 2);
        let Lookup::Found(f) = facts.packages.values().next().unwrap() else {
            panic!()
        };
        assert_eq!(
            (f.license.as_deref(), f.repository.as_deref()),
            (Some("MIT"), Some("github:a/b"))
        );
    }
}
