//! Checks on the APK's build files that need no NDK: the manifest says what the phone app relies
//! on, the build files agree with each other, and the build script stops at once, naming what to
//! install, when the Android tools are missing (as on a machine without the NDK).
#![cfg(unix)]

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

fn android_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    let path = android_dir().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// The manifest without its comments, so that prose never counts as a setting.
fn manifest() -> String {
    let text = read("apk/src/main/AndroidManifest.xml");
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        rest = rest[start..]
            .find("-->")
            .map_or("", |end| &rest[start + end + 3..]);
    }
    out.push_str(rest);
    out
}

/// Every value of `attribute="..."` in `text`, in order.
fn values<'a>(text: &'a str, attribute: &str) -> Vec<&'a str> {
    let needle = format!("{attribute}=\"");
    text.match_indices(&needle)
        .filter_map(|(at, _)| {
            let start = at + needle.len();
            text[start..].find('"').map(|len| &text[start..start + len])
        })
        .collect()
}

/// The number after `key` (e.g. `minSdk = 26` or `MIN_SDK=26`) in a build file.
fn number_after(text: &str, key: &str) -> u32 {
    let at = text.find(key).unwrap_or_else(|| panic!("{key} not found"));
    text[at + key.len()..]
        .trim_start_matches([' ', '='])
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap_or_else(|e| panic!("{key} is not followed by a number: {e}"))
}

#[test]
fn manifest_loads_this_crates_library_in_native_activity() {
    let manifest = manifest();
    let library = env!("CARGO_PKG_NAME").replace('-', "_");
    let names = values(&manifest, "android:name");
    assert!(names.contains(&"android.app.NativeActivity"));
    assert!(names.contains(&"android.app.lib_name"));
    assert_eq!(
        values(&manifest, "android:value"),
        [library.as_str()],
        "lib{library}.so is what cargo-ndk builds"
    );
    assert_eq!(values(&manifest, "android:hasCode"), ["false"]);
    assert!(names.contains(&"android.intent.action.MAIN"));
    assert!(names.contains(&"android.intent.category.LAUNCHER"));
    assert_eq!(values(&manifest, "android:exported"), ["true"]);
}

#[test]
fn manifest_asks_for_local_network_and_multicast_permissions() {
    let manifest = manifest();
    let permissions: Vec<&str> = values(&manifest, "android:name")
        .into_iter()
        .filter(|n| n.starts_with("android.permission."))
        .collect();
    for needed in [
        "android.permission.INTERNET",
        "android.permission.ACCESS_NETWORK_STATE",
        "android.permission.ACCESS_WIFI_STATE",
        // mDNS on Android needs a held Wi-Fi multicast lock, and the lock needs this.
        "android.permission.CHANGE_WIFI_MULTICAST_STATE",
    ] {
        assert!(
            permissions.contains(&needed),
            "{needed} missing from {permissions:?}"
        );
    }
}

#[test]
fn rotation_does_not_restart_the_activity() {
    let manifest = manifest();
    let changes = values(&manifest, "android:configChanges");
    assert_eq!(changes.len(), 1, "one activity, one configChanges");
    let handled: Vec<&str> = changes[0].split('|').collect();
    for needed in [
        "orientation",
        "screenSize",
        "keyboardHidden",
        "screenLayout",
    ] {
        assert!(
            handled.contains(&needed),
            "{needed} missing from {handled:?}"
        );
    }
    assert_eq!(values(&manifest, "android:launchMode"), ["singleTask"]);
}

#[test]
fn back_button_reaches_the_app_as_a_key() {
    // With predictive back (Android 16's default for new target SDKs) Android would close the
    // activity itself instead of sending the back key the app uses to leave a screen.
    assert_eq!(
        values(&manifest(), "android:enableOnBackInvokedCallback"),
        ["false"]
    );
}

#[test]
fn build_files_agree_on_api_levels() {
    let gradle = read("apk/build.gradle.kts");
    let script = read("build-apk.sh");
    assert_eq!(
        number_after(&gradle, "minSdk"),
        number_after(&script, "MIN_SDK"),
        "the Rust library must be linked for the APK's minimum API level"
    );
    assert_eq!(
        number_after(&gradle, "compileSdk"),
        number_after(&script, "COMPILE_SDK")
    );
    assert!(number_after(&gradle, "targetSdk") <= number_after(&gradle, "compileSdk"));
}

/// Runs the build script with an empty environment: no SDK, NDK, cargo-ndk or Gradle to find.
fn run_script_without_tools(args: &[&str]) -> (std::process::Output, Duration) {
    let home = std::env::temp_dir().join(format!("hoard-apk-home-{}", std::process::id()));
    std::fs::create_dir_all(&home).expect("a temp folder can be created");
    let started = Instant::now();
    let output = Command::new("bash")
        .arg(android_dir().join("build-apk.sh"))
        .args(args)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", &home)
        .output()
        .expect("bash runs");
    let elapsed = started.elapsed();
    let _ = std::fs::remove_dir_all(&home);
    (output, elapsed)
}

#[test]
fn build_script_without_the_ndk_stops_at_once_and_names_what_to_install() {
    let jni_libs = android_dir().join("apk/src/main/jniLibs");
    let had_jni_libs = jni_libs.exists();
    let (output, elapsed) = run_script_without_tools(&[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "stderr: {stderr}");
    // "At once": only the checks ran, no compiler.
    assert!(elapsed < Duration::from_secs(10), "took {elapsed:?}");
    for named in [
        "ANDROID_NDK_HOME",
        "sdkmanager \"ndk;",
        "cargo install cargo-ndk",
        "ANDROID_HOME",
        "Gradle",
        "Nothing was built",
    ] {
        assert!(stderr.contains(named), "'{named}' not named in:\n{stderr}");
    }
    assert_eq!(
        jni_libs.exists(),
        had_jni_libs,
        "nothing may be built or removed"
    );
}

#[test]
fn build_script_refuses_an_unknown_abi_before_checking_tools() {
    let (output, _) = run_script_without_tools(&["--abi", "mips"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    assert!(stderr.contains("unknown ABI 'mips'"), "{stderr}");
}

#[test]
fn build_script_is_executable() {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(android_dir().join("build-apk.sh"))
        .expect("the script exists")
        .permissions()
        .mode();
    assert_ne!(
        mode & 0o111,
        0,
        "android/build-apk.sh must be runnable as ./build-apk.sh"
    );
}
