//! Criterion benchmarks: the whole pipeline on 100 / 1,000 / 10,000-tool
//! catalogs, each stage on its own, and a session of 1,000 servers × 20 tools.
//! Figures are in the README; `bench/run.sh` measures whole-process time and RSS.

// Tool and test code: a panic is the failure report and printing is the output.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

// The shipped binary's allocator, so allocation costs are the product's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../bench/gen.rs"]
mod synth;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mcptrustchecker::acquire::Acquired;
use mcptrustchecker::detect::{self, ScanOptions};
use mcptrustchecker::surface::{
    Client, Coverage, Item, Location, ServerSurface, Source, Transport,
};

fn surface(id: &str, session: Option<&str>, n_tools: usize, seed: u64) -> ServerSurface {
    let cat = synth::catalog(n_tools, seed);
    let src = Source {
        location: Location::new("bench.json", 1, 1),
        format: "tool-manifest".into(),
        client: Some(Client::Cursor),
    };
    let mut s = ServerSurface::new(
        id.to_string(),
        id.to_string(),
        src,
        Transport::Stdio {
            command: "npx".into(),
            args: vec!["-y".into(), format!("pkg-{seed}@1.0.0")],
            env_names: vec![],
            cwd: None,
        },
    );
    s.session = session.map(str::to_string);
    s.tools = cat["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| Item::new(t["name"].as_str().unwrap(), t.clone(), None))
        .collect();
    s.coverage = Coverage::Manifest;
    s
}

fn text_bytes(s: &ServerSurface) -> u64 {
    s.text_fields().iter().map(|f| f.text.len() as u64).sum()
}

fn pipeline(c: &mut Criterion) {
    let opts = ScanOptions::default();
    let mut g = c.benchmark_group("pipeline");
    g.sample_size(10);
    for n in [100usize, 1_000, 10_000] {
        let s = surface("synthetic", None, n, 7);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("tools", n), &s, |b, s| {
            b.iter(|| {
                detect::run(
                    Acquired {
                        surfaces: vec![s.clone()],
                        ..Acquired::default()
                    },
                    &opts,
                )
            })
        });
    }
    g.finish();
}

fn text_stages(c: &mut Criterion) {
    let opts = ScanOptions::default();
    let s = surface("synthetic", None, 1_000, 11);
    let mut g = c.benchmark_group("stages");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text_bytes(&s)));
    g.bench_function("unicode/1000-tools", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            detect::unicode::check(&s, &opts, &mut out);
            out
        })
    });
    g.bench_function("injection/1000-tools", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            detect::injection::check(&s, &opts, &mut out);
            out
        })
    });
    // Stages 1+2 as the pipeline runs them: walk and checks in parallel over items.
    g.bench_function("unicode+injection/1000-tools", |b| {
        b.iter(|| detect::text_stages(&s, &opts))
    });
    // The same on one core: what a 1-CPU runner gets.
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    g.bench_function("unicode+injection-1-thread/1000-tools", |b| {
        b.iter(|| one.install(|| detect::text_stages(&s, &opts)))
    });
    g.finish();

    // The same on the 35 vendored real catalogs (recorded from published
    // servers): ordinary product text, as a pull request brings it.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vendor/corpora");
    let mut paths: Vec<_> = std::fs::read_dir(dir.join("real-catalogs"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let aopts = mcptrustchecker::acquire::AcquireOptions {
        root: dir,
        ..Default::default()
    };
    let real = mcptrustchecker::acquire::acquire_paths(&paths, &aopts).surfaces;
    let mut g = c.benchmark_group("stages");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(real.iter().map(text_bytes).sum()));
    g.bench_function("unicode+injection-1-thread/real-catalogs", |b| {
        b.iter(|| {
            one.install(|| {
                real.iter()
                    .map(|s| detect::text_stages(s, &opts).len())
                    .sum::<usize>()
            })
        })
    });
    g.finish();
    let mut g = c.benchmark_group("stages");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text_bytes(&s)));
    g.bench_function("capability/1000-tools", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            let mut roles = std::collections::BTreeMap::new();
            detect::capability::check(&s, &opts, &mut roles, &mut out);
            out
        })
    });
    g.bench_function("text-fields/1000-tools", |b| {
        b.iter(|| s.text_fields().len())
    });
    g.bench_function("canonical-digest/1000-tools", |b| {
        b.iter(|| mcptrustchecker::lock::canonical::surface_digest(&s))
    });
    g.finish();
}

fn session(c: &mut Criterion) {
    let opts = ScanOptions::default();
    let servers: Vec<ServerSurface> = (0..1_000)
        .map(|i| surface(&format!("cfg.json#s{i}"), Some("cfg.json"), 20, i as u64))
        .collect();
    let mut g = c.benchmark_group("session");
    g.sample_size(10);
    g.bench_function("1000-servers-x-20-tools", |b| {
        b.iter(|| {
            detect::run(
                Acquired {
                    surfaces: servers.clone(),
                    ..Acquired::default()
                },
                &opts,
            )
        })
    });
    g.finish();
}

/// Start-up (issue 22): the first scan of a small manifest in a fresh process.
/// Each iteration runs the release binary once (`CARGO_BIN_EXE_*`), so every
/// table is loaded anew, as in a pull request's one-config scan.
fn startup(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("mtc-startup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = dir.join("small.tools.json");
    std::fs::write(
        &manifest,
        serde_json::to_vec_pretty(&synth::catalog(5, 42)).unwrap(),
    )
    .unwrap();
    let report = dir.join("report.json");
    let bin = env!("CARGO_BIN_EXE_mcptrustchecker");
    let mut g = c.benchmark_group("startup");
    g.sample_size(30);
    g.bench_function("process/5-tools", |b| {
        b.iter(|| {
            std::process::Command::new(bin)
                .arg("scan")
                .arg(&manifest)
                .args(["--format", "json", "--fail-on", "none", "-o"])
                .arg(&report)
                .stderr(std::process::Stdio::null())
                .status()
                .unwrap()
        })
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, startup, pipeline, text_stages, session);
criterion_main!(benches);
