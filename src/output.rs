//! Where output goes: stdout and stderr through the log escaper, files written
//! atomically, and the exit codes. A leaf, so every command can share it.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

/// Exit codes (documented in the README).
pub mod exit {
    /// The gate passed.
    pub const OK: i32 = 0;
    /// The gate failed (a grade at or below `--fail-on`, or unreviewed drift).
    pub const GATE_FAILED: i32 = 1;
    /// A usage error, or an input that could not be read.
    pub const INPUT_ERROR: i32 = 2;
}

/// Write to a file atomically, or to stdout. Stdout is where a CI runner reads
/// workflow commands, so every line there goes through the log escaper (JSON
/// and SARIF are already log-safe; a terminal report or Markdown with a hostile
/// `##[…]` or leading `::` is rewritten).
pub fn emit(text: &str, output: Option<&Path>) -> Result<()> {
    match output {
        Some(p) => write_atomic(p, text.as_bytes()),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(crate::text::log_text(text).as_bytes())
                .context("writing to stdout")?;
            out.flush().ok();
            Ok(())
        }
    }
}

/// One line to stderr, through the log escaper (a runner parses stderr too).
pub fn note(line: &str) {
    stderr_line(&crate::text::log_text(line));
}

/// One line to stdout as given: a workflow command, or text the caller made
/// log-safe. The only `println!` of the library (lint `print_stdout`).
#[allow(clippy::print_stdout)]
pub fn stdout_line(line: &str) {
    println!("{line}");
}

/// One line to stderr as given (the caller made it log-safe). The only
/// `eprintln!` of the library (lint `print_stderr`).
#[allow(clippy::print_stderr)]
pub fn stderr_line(line: &str) {
    eprintln!("{line}");
}

/// Write through a temporary file in the same directory, then rename. A
/// path that is not a regular file (`-o /dev/null`, a FIFO, `/dev/stdout`)
/// is written in place: renaming onto it would replace the device with a file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut f| f.write_all(bytes))
            .with_context(|| format!("writing {}", path.display()));
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    tmp.write_all(bytes)
        .with_context(|| format!("writing {}", path.display()))?;
    // A temporary file is created 0600; reports and the lockfile are read by
    // others (the runner's user reads what a root container wrote): 0644.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .with_context(|| format!("setting the permissions of {}", path.display()))?;
    }
    tmp.persist(path)
        .with_context(|| format!("replacing {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    /// `-o /dev/null` discards the report and leaves the device a device.
    #[cfg(unix)]
    #[test]
    fn writing_to_a_device_keeps_the_device() {
        use std::os::unix::fs::FileTypeExt;
        let null = std::path::Path::new("/dev/null");
        super::write_atomic(null, b"report").unwrap();
        let kind = std::fs::metadata(null).unwrap().file_type();
        assert!(kind.is_char_device(), "{kind:?}");
    }
}
