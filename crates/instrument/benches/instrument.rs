//! Throughput of the whole instrumentation pipeline over the real-world corpus jars (parse, plan,
//! decode, insert probes and guards, add the reset method, encode, write bytes), in classes per
//! second. Reading the jars happens once, outside the measurement.
//! Run: `cargo bench -p instrument --bench instrument`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use instrument::Options;

fn corpus() -> Vec<Vec<u8>> {
    let mut res = Vec::new();
    for jar in test_support::corpus_jars() {
        let entry = classfile::ClassPathEntry::open(&jar.path).expect("open jar");
        for r in entry.class_files() {
            let (name, bytes) = r.expect("read class");
            if !name.starts_with("META-INF/") && !name.rsplit('/').next().unwrap_or(&name).contains('-') {
                res.push(bytes);
            }
        }
    }
    res
}

fn instrument_corpus(c: &mut Criterion) {
    let classes = corpus();
    let inputs: Vec<&[u8]> = classes.iter().map(Vec::as_slice).collect();
    let mut group = c.benchmark_group("corpus");
    group.sample_size(10);
    group.throughput(Throughput::Elements(inputs.len() as u64));
    group.bench_function("plan+instrument all", |b| {
        b.iter(|| black_box(instrument::instrument_classes(&inputs, &Options::all())))
    });
    // The same without the UOI and RC probes of weak mutation, to show what they cost.
    let mut no_uoi_rc = Options::all();
    no_uoi_rc.plan.values = false;
    no_uoi_rc.plan.constants = false;
    group.bench_function("plan+instrument all but UOI/RC", |b| {
        b.iter(|| black_box(instrument::instrument_classes(&inputs, &no_uoi_rc)))
    });
    group.bench_function("plan+instrument none", |b| {
        b.iter(|| black_box(instrument::instrument_classes(&inputs, &Options::none())))
    });
    group.finish();
}

criterion_group!(benches, instrument_corpus);
criterion_main!(benches);
