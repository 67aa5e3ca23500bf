//! Worker throughput: executions/s of 5-statement `ArrayList` tests on one
//! worker at batch sizes 1 and 50; the engine-side cost per execution (encoding the request and
//! decoding the results, in-process) and the pipe overhead (batch wall time not spent inside tests,
//! as the worker measures them); worker start to first `Ready`; and the engine's resident memory
//! over many executions (`SUITESMITH_BENCH_MEM_EXECS`, default 1,000,000), read from /proc/self/statm.
//!
//! Run: `cargo bench -p worker --bench throughput` (`SUITESMITH_BENCH_QUICK=1` for the plain-text
//! figures only; `SUITESMITH_BENCH_JVM_ARGS="..."` adds JVM flags). Goals: >= 20,000 exec/s per
//! worker, pipe overhead < 10 % at batch 50, start < 500 ms, flat memory.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput};
use protocol::{Response, Setup, Statement, TestRef, Var};
use worker::{Java, Pool, TestRun, Worker, WorkerConfig};

fn config() -> WorkerConfig {
    let java = Java::discover().unwrap_or_else(|e| panic!("{e}"));
    let mut c = WorkerConfig::new(java, worker::runtime_jar().unwrap(), Setup::empty());
    // For comparing JVM flags (e.g. `-XX:TieredStopAtLevel=1`) without editing the defaults.
    if let Ok(extra) = std::env::var("SUITESMITH_BENCH_JVM_ARGS") {
        c.extra_jvm_args = extra.split_whitespace().map(str::to_string).collect();
    }
    c
}

/// `new ArrayList(); "a"; add; size; isEmpty` — five statements on a small JDK class.
fn array_list_test(i: usize) -> Vec<Statement> {
    let list = "java.util.ArrayList";
    let call = |name: &str, descriptor: &str, args: Vec<Var>| Statement::Method {
        class: list.into(),
        name: name.into(),
        descriptor: descriptor.into(),
        is_static: false,
        receiver: Some(Var(0)),
        args,
    };
    vec![
        Statement::Constructor { class: list.into(), descriptor: "()V".into(), args: vec![] },
        Statement::String { value: format!("a{}", i % 7) },
        call("add", "(Ljava/lang/Object;)Z", vec![Var(1)]),
        call("size", "()I", vec![]),
        call("isEmpty", "()Z", vec![]),
    ]
}

fn batch(n: usize) -> Vec<Vec<Statement>> {
    (0..n).map(array_list_test).collect()
}

fn bench_execute(c: &mut Criterion) {
    let mut pool = Pool::new(config(), 1).unwrap();
    let mut group = c.benchmark_group("execute_arraylist_5stmt");
    for size in [1usize, 50] {
        let tests = batch(size);
        let refs: Vec<&[Statement]> = tests.iter().map(Vec::as_slice).collect();
        // Warm the JIT of the worker for this shape.
        for _ in 0..200 {
            pool.execute(&refs).unwrap();
        }
        group.throughput(Throughput::Elements(size as u64));
        group.bench_with_input(BenchmarkId::new("batch", size), &refs, |b, refs| {
            b.iter(|| black_box(pool.execute(refs).unwrap()))
        });
    }
    group.finish();
}

fn bench_codec(c: &mut Criterion) {
    // Real results to decode: one batch of 50 from a worker, re-encoded as frames.
    let mut w = Worker::spawn(&config()).unwrap();
    let tests = batch(50);
    let refs: Vec<TestRef<'_>> =
        tests.iter().enumerate().map(|(i, t)| TestRef { id: i as u32, statements: t }).collect();
    let frames = result_frames(&mut w, &refs);
    let mut group = c.benchmark_group("engine_codec_batch50");
    group.throughput(Throughput::Elements(50));
    group.bench_function("encode_execute", |b| {
        let mut out = Vec::new();
        b.iter(|| {
            out.clear();
            protocol::encode_execute(black_box(&refs), None, &mut out);
            black_box(out.len())
        })
    });
    group.bench_function("decode_results", |b| {
        b.iter(|| {
            for f in &frames {
                black_box(protocol::decode_response(f).unwrap());
            }
        })
    });
    group.finish();
}

fn bench_startup(c: &mut Criterion) {
    let cfg = config();
    let mut group = c.benchmark_group("worker_start");
    group.sample_size(10);
    group.bench_function("spawn_to_ready", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let w = Worker::spawn(&cfg).unwrap();
                total += w.startup_time();
            }
            total
        })
    });
    group.finish();
}

/// Runs one batch and returns each result re-encoded as a frame body (kind + payload).
fn result_frames(w: &mut Worker, refs: &[TestRef<'_>]) -> Vec<Vec<u8>> {
    w.run_batch(refs)
        .into_iter()
        .map(|run| {
            let TestRun::Finished(r) = run else { panic!("{run:?}") };
            let mut out = Vec::new();
            protocol::encode_response(&Response::TestResult(r), &mut out);
            out.split_off(4)
        })
        .collect()
}

/// Batch-50 figures printed as plain lines: exec/s, in-test time vs wall time, engine codec share.
fn report_overhead() {
    let mut pool = Pool::new(config(), 1).unwrap();
    let tests = batch(50);
    let refs: Vec<&[Statement]> = tests.iter().map(Vec::as_slice).collect();
    for _ in 0..500 {
        pool.execute(&refs).unwrap();
    }
    let rounds = 400;
    let mut in_tests_us = 0u64;
    let t0 = Instant::now();
    for _ in 0..rounds {
        for run in pool.execute(&refs).unwrap() {
            if let TestRun::Finished(r) = run {
                in_tests_us += u64::from(r.elapsed_us);
            }
        }
    }
    let wall = t0.elapsed();
    let execs = (rounds * refs.len()) as f64;
    // Engine-side codec cost for the same work, in-process.
    let mut w = Worker::spawn(pool.config()).unwrap();
    let trefs: Vec<TestRef<'_>> =
        tests.iter().enumerate().map(|(i, t)| TestRef { id: i as u32, statements: t }).collect();
    let frames = result_frames(&mut w, &trefs);
    let t1 = Instant::now();
    let mut out = Vec::new();
    for _ in 0..rounds {
        out.clear();
        protocol::encode_execute(&trefs, None, &mut out);
        for f in &frames {
            black_box(protocol::decode_response(f).unwrap());
        }
    }
    let codec = t1.elapsed();
    let per_exec_us = wall.as_secs_f64() * 1e6 / execs;
    println!("batch 50, 1 worker: {:.0} exec/s, {per_exec_us:.2} us/exec", execs / wall.as_secs_f64());
    println!(
        "  time inside tests (worker-measured): {:.1} % of wall; outside (pipe, framing, worker loop): {:.1} %",
        100.0 * in_tests_us as f64 / (wall.as_secs_f64() * 1e6),
        100.0 - 100.0 * in_tests_us as f64 / (wall.as_secs_f64() * 1e6)
    );
    println!(
        "  engine encode+decode: {:.2} us/exec = {:.1} % of wall",
        codec.as_secs_f64() * 1e6 / execs,
        100.0 * codec.as_secs_f64() / wall.as_secs_f64()
    );
}

fn resident_kib() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    pages * 4
}

/// The engine's resident memory before and after many executions (after a warm-up that sizes the
/// buffers): it must stay flat.
fn memory_check() {
    let total = total_mem_execs();
    let mut pool = Pool::new(config(), 1).unwrap();
    let tests = batch(50);
    let refs: Vec<&[Statement]> = tests.iter().map(Vec::as_slice).collect();
    for _ in 0..200 {
        black_box(pool.execute(&refs).unwrap());
    }
    let before = resident_kib();
    let t0 = Instant::now();
    let mut done = 0;
    let mut mid = 0;
    while done < total {
        black_box(pool.execute(&refs).unwrap());
        done += refs.len();
        if mid == 0 && done >= total / 2 {
            mid = resident_kib();
        }
    }
    let after = resident_kib();
    println!(
        "memory: engine RSS {before} KiB before, {mid} KiB halfway, {after} KiB after {done} executions ({:.1} s, {:.0} exec/s)",
        t0.elapsed().as_secs_f64(),
        done as f64 / t0.elapsed().as_secs_f64()
    );
}

fn main() {
    // `SUITESMITH_BENCH_QUICK=1`: only the plain-text figures (startup of 5 workers, batch-50 report).
    if std::env::var_os("SUITESMITH_BENCH_QUICK").is_some() {
        let cfg = config();
        let starts: Vec<_> = (0..5).map(|_| Worker::spawn(&cfg).unwrap().startup_time()).collect();
        println!("worker start to Ready: {starts:?}");
        report_overhead();
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench_startup(&mut c);
    bench_execute(&mut c);
    bench_codec(&mut c);
    c.final_summary();
    report_overhead();
    if total_mem_execs() > 0 {
        memory_check();
    }
}

fn total_mem_execs() -> usize {
    std::env::var("SUITESMITH_BENCH_MEM_EXECS").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000_000)
}
