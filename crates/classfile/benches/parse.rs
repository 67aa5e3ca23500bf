//! Parse + write of the whole real-world corpus (17 Debian jars and java.base.jmod, loaded into
//! memory first, so the figure is the class-file layer alone). Reports classes per second.

#[path = "../tests/common/corpus.rs"]
mod corpus;

use std::hint::black_box;

use classfile::ClassFile;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn parse_and_write(c: &mut Criterion) {
    let classes: Vec<Vec<u8>> = corpus::load().into_iter().map(|(_, _, b)| b).collect();
    let mut group = c.benchmark_group("corpus");
    group.throughput(Throughput::Elements(classes.len() as u64));
    group.sample_size(10);
    group.bench_function("parse", |b| {
        b.iter(|| {
            for bytes in &classes {
                black_box(ClassFile::parse(bytes).expect("corpus class parses"));
            }
        })
    });
    group.bench_function("parse+write", |b| {
        b.iter(|| {
            for bytes in &classes {
                let cf = ClassFile::parse(bytes).expect("corpus class parses");
                black_box(cf.to_bytes());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, parse_and_write);
criterion_main!(benches);
