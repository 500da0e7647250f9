fn main() -> std::process::ExitCode {
    plc::cli::main()
}
