//! Hoard's log on a phone goes to logcat: an Android app has no terminal, its stderr goes nowhere.
//!
//! [`messages`] and [`priority`] are plain functions, tested on any host. `init` (Android only)
//! installs a tracing subscriber that writes through them, forwards the `log` records of winit,
//! eframe and android-activity, and logs panics from every thread (the network runs on threads
//! of its own, where a panic would otherwise leave no trace). Read it with `adb logcat -s hoard`.

use std::ffi::{CStr, CString};

/// The logcat tag of every line Hoard writes.
pub const TAG: &CStr = c"hoard";

/// The longest text sent as one logcat entry. Android silently cuts an entry at about 4 KiB
/// (`LOGGER_ENTRY_MAX_PAYLOAD` is 4068 bytes, shared with the tag and the priority), so longer
/// text is split into several entries rather than lost.
pub const MAX_MESSAGE_BYTES: usize = 4000;

/// Logcat's priority (`android_LogPriority`) for a tracing level.
pub fn priority(level: &tracing::Level) -> i32 {
    match *level {
        tracing::Level::TRACE => 2, // ANDROID_LOG_VERBOSE
        tracing::Level::DEBUG => 3,
        tracing::Level::INFO => 4,
        tracing::Level::WARN => 5,
        tracing::Level::ERROR => 6,
    }
}

/// Splits one formatted log event into logcat entries: each at most [`MAX_MESSAGE_BYTES`], cut at
/// line ends where possible and never inside a character, with the trailing newline dropped
/// (logcat adds its own). NUL bytes become U+FFFD, since a C string would end at the first one
/// and hide the rest of the line. Empty text gives no entries.
pub fn messages(text: &str) -> Vec<CString> {
    let text = text
        .trim_end_matches(['\n', '\r'])
        .replace('\0', "\u{FFFD}");
    let mut entries: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in text.split('\n') {
        let mut rest = line;
        loop {
            let separator = usize::from(!current.is_empty());
            if current.len() + separator + rest.len() <= MAX_MESSAGE_BYTES {
                if separator == 1 {
                    current.push('\n');
                }
                current.push_str(rest);
                break;
            }
            if !current.is_empty() {
                entries.push(std::mem::take(&mut current));
                continue;
            }
            // One line longer than a whole entry: cut it, at a character boundary.
            let cut = rest.floor_char_boundary(MAX_MESSAGE_BYTES);
            entries.push(rest[..cut].to_owned());
            rest = &rest[cut..];
        }
    }
    if !current.is_empty() {
        entries.push(current);
    }
    // No entry holds a NUL any more, so every conversion succeeds.
    entries
        .into_iter()
        .filter_map(|entry| CString::new(entry).ok())
        .collect()
}

#[cfg(target_os = "android")]
pub use android::init;

#[cfg(target_os = "android")]
mod android {
    use std::ffi::{c_char, c_int};
    use std::io::Write;
    use std::sync::Once;

    use tracing_subscriber::fmt::MakeWriter;

    use super::{TAG, messages, priority};

    #[link(name = "log")]
    unsafe extern "C" {
        fn __android_log_write(prio: c_int, tag: *const c_char, text: *const c_char) -> c_int;
    }

    /// Sends Hoard's tracing events, the `log` records of its libraries, and panics to logcat.
    /// Safe to call more than once: later calls change nothing.
    pub fn init() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            // Fails only if a subscriber is already installed, which then keeps logging.
            let _ = tracing_subscriber::fmt()
                .with_writer(MakeLogcat)
                .with_ansi(false)
                // logcat stamps the time and shows the level (from the priority) itself.
                .without_time()
                .with_level(false)
                .with_max_level(tracing::Level::INFO)
                .try_init();
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                tracing::error!("panic: {info}");
                previous(info);
            }));
        });
    }

    /// Hands each event a writer with the event's own priority.
    struct MakeLogcat;

    impl<'a> MakeWriter<'a> for MakeLogcat {
        type Writer = LogcatWriter;

        fn make_writer(&'a self) -> Self::Writer {
            LogcatWriter::new(priority(&tracing::Level::INFO))
        }

        fn make_writer_for(&'a self, meta: &tracing::Metadata<'_>) -> Self::Writer {
            LogcatWriter::new(priority(meta.level()))
        }
    }

    /// Collects one formatted event (the fmt layer writes each event once, whole) and sends it
    /// when dropped, so an event is never split across entries except when it is too long.
    struct LogcatWriter {
        priority: c_int,
        buffer: Vec<u8>,
    }

    impl LogcatWriter {
        fn new(priority: i32) -> Self {
            Self {
                priority,
                buffer: Vec::new(),
            }
        }
    }

    impl Write for LogcatWriter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.buffer.extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Drop for LogcatWriter {
        fn drop(&mut self) {
            let text = String::from_utf8_lossy(&self.buffer);
            for entry in messages(&text) {
                // SAFETY: both pointers are valid NUL-terminated strings for the whole call;
                // liblog copies them before returning.
                unsafe {
                    __android_log_write(self.priority, TAG.as_ptr(), entry.as_ptr());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(entries: &[CString]) -> Vec<String> {
        entries
            .iter()
            .map(|e| e.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn one_short_event_is_one_entry_without_its_trailing_newline() {
        let entries = messages("hoard_net::transport: table found on this Wi-Fi\n");
        assert_eq!(
            texts(&entries),
            ["hoard_net::transport: table found on this Wi-Fi"]
        );
    }

    #[test]
    fn empty_text_logs_nothing() {
        assert!(messages("").is_empty());
        assert!(messages("\n").is_empty());
    }

    #[test]
    fn a_long_event_is_split_at_line_ends_and_nothing_is_lost() {
        let line = "x".repeat(1500);
        let text = [line.as_str(); 5].join("\n");
        let entries = texts(&messages(&text));
        assert!(entries.len() > 1);
        for entry in &entries {
            assert!(entry.len() <= MAX_MESSAGE_BYTES, "{}", entry.len());
            // Two whole lines fit in an entry, three do not: cuts fall on line ends.
            assert!(entry.split('\n').all(|l| l == line));
        }
        assert_eq!(entries.join("\n"), text);
    }

    #[test]
    fn a_line_longer_than_an_entry_is_cut_between_characters() {
        // '€' is three bytes and the limit is not a multiple of three, so a plain byte cut
        // would fall inside a character.
        assert_ne!(MAX_MESSAGE_BYTES % 3, 0);
        let line = "€".repeat(MAX_MESSAGE_BYTES);
        let entries = texts(&messages(&line));
        assert!(entries.iter().all(|e| e.len() <= MAX_MESSAGE_BYTES));
        assert_eq!(entries.concat(), line);
    }

    #[test]
    fn a_nul_byte_does_not_hide_the_rest_of_the_line() {
        let entries = texts(&messages("seat 2\0 joined"));
        assert_eq!(entries, ["seat 2\u{FFFD} joined"]);
    }

    #[test]
    fn levels_map_to_logcat_priorities() {
        assert_eq!(priority(&tracing::Level::ERROR), 6);
        assert_eq!(priority(&tracing::Level::WARN), 5);
        assert_eq!(priority(&tracing::Level::INFO), 4);
        assert_eq!(priority(&tracing::Level::DEBUG), 3);
        assert_eq!(priority(&tracing::Level::TRACE), 2);
    }
}
