//! Throughput of decode + encode over every method of the real-world corpus, in methods per
//! second. Class parsing and `Code` attribute parsing happen once, outside the measurement.
//! Run: `cargo bench -p bytecode --bench codec`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;

use classfile::{ClassFile, Code, ConstantPool};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn corpus_codes() -> Vec<(ConstantPool, Vec<Code>)> {
    common::corpus()
        .into_iter()
        .map(|(label, bytes)| {
            let class = ClassFile::parse(&bytes).unwrap_or_else(|e| panic!("{label}: {e}"));
            let cp = &class.constant_pool;
            let codes =
                class.methods.iter().filter_map(|m| m.code(cp)).map(|c| c.expect("Code parses")).collect();
            (class.constant_pool.clone(), codes)
        })
        .collect()
}

fn codec(c: &mut Criterion) {
    let classes = corpus_codes();
    let methods: usize = classes.iter().map(|(_, codes)| codes.len()).sum();
    let mut group = c.benchmark_group("corpus");
    group.sample_size(10);
    group.throughput(Throughput::Elements(methods as u64));
    group.bench_function("decode", |b| {
        b.iter(|| {
            for (cp, codes) in &classes {
                for code in codes {
                    black_box(bytecode::decode(code, cp).expect("decodes"));
                }
            }
        })
    });
    group.bench_function("decode+encode", |b| {
        b.iter(|| {
            for (cp, codes) in &classes {
                for code in codes {
                    let body = bytecode::decode(code, cp).expect("decodes");
                    black_box(bytecode::encode(&body, cp).expect("encodes"));
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, codec);
criterion_main!(benches);
