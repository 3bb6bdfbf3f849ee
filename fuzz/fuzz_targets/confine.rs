#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcptrustchecker_fuzz::confine(data));
