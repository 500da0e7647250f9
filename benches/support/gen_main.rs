//! Writes a generated benchmark program to standard output:
//! - `cargo run --release --example gen -- 10000 > gen10000.pl`: `gen(N)`
//!   (benches/support/seed.rs), the seed's entry function repeated N times;
//! - `cargo run --release --example gen -- --lines 5000`: `program(lines)`
//!   (benches/support/generate.rs), the language-server benchmarks' file.

#[path = "generate.rs"]
mod generate;
#[path = "seed.rs"]
mod seed;

use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count = |a: Option<&String>| a.and_then(|a| a.parse::<usize>().ok());
    let text = match args.first().map(String::as_str) {
        Some("--lines") => count(args.get(1)).map(generate::program),
        _ => count(args.first()).map(seed::gen),
    };
    let Some(text) = text else {
        eprintln!("usage: gen N | gen --lines L   (gen(N) of the seed, or a program of about L lines)");
        std::process::exit(2);
    };
    std::io::stdout().lock().write_all(text.as_bytes()).expect("stdout");
}
