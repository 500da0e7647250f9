//! Writes `gen(N)` (benches/support/seed.rs) to standard output:
//! `cargo run --release --example gen -- 10000 > gen10000.pl`.

#[path = "seed.rs"]
mod seed;

use std::io::Write;

fn main() {
    let n = std::env::args().nth(1).and_then(|a| a.parse::<usize>().ok());
    let Some(n) = n else {
        eprintln!("usage: gen N   (writes the seed's entry function repeated N times)");
        std::process::exit(2);
    };
    let text = seed::gen(n);
    std::io::stdout().lock().write_all(text.as_bytes()).expect("stdout");
}
