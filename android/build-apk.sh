#!/usr/bin/env bash
# Builds Hoard's Android APK: the Rust library with cargo-ndk, then the APK with Gradle.
#
# Every tool it needs is checked first, before anything is built; if one is missing it stops at
# once and lists what to install. See android/README.md for a fresh machine, step by step.
set -euo pipefail

# Keep in step with minSdk in apk/build.gradle.kts: the API level the Rust code is linked for.
MIN_SDK=26
COMPILE_SDK=35
# The Gradle that runs the build (through the wrapper); AGP 8.7 needs 8.9 or later.
GRADLE_VERSION=8.11.1
PACKAGE=org.hoard.table

usage() {
    cat <<EOF
Usage: android/build-apk.sh [options]

Builds the Hoard APK (Rust in release mode) and prints where it is.

Options:
  --abi LIST     Android ABIs to build, comma-separated (default: arm64-v8a).
                 Known: arm64-v8a (phones), armeabi-v7a (old 32-bit phones),
                 x86_64 (emulator), x86.
  --release      Build the non-debuggable APK (still signed with the debug key,
                 so that adb can install it). Default: the debuggable APK.
  --install      Install the APK on the phone connected over adb, and start it.
  --check        Only check that every tool is installed, then stop.
  -h, --help     Show this help.
EOF
}

abis="arm64-v8a"
gradle_task="assembleDebug"
apk_kind="debug"
install=false
check_only=false
while [[ $# -gt 0 ]]; do
    case "$1" in
        --abi)
            if [[ $# -lt 2 ]]; then
                echo "build-apk.sh: --abi needs a list, e.g. --abi arm64-v8a,x86_64" >&2
                exit 2
            fi
            abis="$2"
            shift 2
            ;;
        --release) gradle_task="assembleRelease"; apk_kind="release"; shift ;;
        --install) install=true; shift ;;
        --check) check_only=true; shift ;;
        -h | --help) usage; exit 0 ;;
        *)
            echo "build-apk.sh: unknown option '$1'" >&2
            usage >&2
            exit 2
            ;;
    esac
done

rust_target() {
    case "$1" in
        arm64-v8a) echo aarch64-linux-android ;;
        armeabi-v7a) echo armv7-linux-androideabi ;;
        x86_64) echo x86_64-linux-android ;;
        x86) echo i686-linux-android ;;
        *) return 1 ;;
    esac
}

IFS=',' read -r -a abi_list <<<"$abis"
targets=()
for abi in "${abi_list[@]}"; do
    if ! target="$(rust_target "$abi")"; then
        echo "build-apk.sh: unknown ABI '$abi' (known: arm64-v8a, armeabi-v7a, x86_64, x86)" >&2
        exit 2
    fi
    targets+=("$target")
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
apk_dir="$here/apk"

missing=()
need() { missing+=("$1"); }

# --- Rust: cargo, rustup and the Android targets --------------------------------------------
if ! command -v cargo >/dev/null 2>&1; then
    need "Rust (cargo): install rustup from https://rustup.rs, then open a new shell"
elif ! command -v rustup >/dev/null 2>&1; then
    need "rustup (to add the Android targets): see https://rustup.rs"
else
    installed="$(rustup target list --installed 2>/dev/null || true)"
    absent=()
    for target in "${targets[@]}"; do
        grep -qx "$target" <<<"$installed" || absent+=("$target")
    done
    if [[ ${#absent[@]} -gt 0 ]]; then
        need "the Rust Android targets: rustup target add ${absent[*]}"
    fi
fi

# --- cargo-ndk ----------------------------------------------------------------------------
if ! command -v cargo-ndk >/dev/null 2>&1; then
    need "cargo-ndk (builds the Rust library with the NDK): cargo install cargo-ndk"
fi

# --- Android SDK ----------------------------------------------------------------------------
sdk=""
for candidate in "${ANDROID_HOME:-}" "${ANDROID_SDK_ROOT:-}" \
    "${HOME:-/nonexistent}/Android/Sdk" "${HOME:-/nonexistent}/Library/Android/sdk"; do
    if [[ -n "$candidate" && -d "$candidate" ]]; then
        sdk="$candidate"
        break
    fi
done
sdk_packages="\"platform-tools\" \"platforms;android-$COMPILE_SDK\" \"build-tools;$COMPILE_SDK.0.0\""
if [[ -z "$sdk" ]]; then
    need "the Android SDK, with ANDROID_HOME set to it: install Android Studio, or the
      command-line tools from https://developer.android.com/studio#command-tools, then
      sdkmanager $sdk_packages"
elif [[ ! -d "$sdk/platforms/android-$COMPILE_SDK" || ! -d "$sdk/build-tools" ]]; then
    need "the Android SDK platform $COMPILE_SDK and build tools in $sdk:
      sdkmanager --sdk_root=\"$sdk\" $sdk_packages"
fi

# --- Android NDK (the same search as cargo-ndk: variables first, then the SDK's ndk/ folder) --
highest_ndk_in() {
    local dir="$1"
    [[ -d "$dir" ]] || return 1
    # Newest version sub-folder that really is an NDK.
    local found
    found="$(find "$dir" -mindepth 1 -maxdepth 1 -type d -exec test -f '{}/source.properties' ';' \
        -print 2>/dev/null | sort -V | tail -n 1)"
    [[ -n "$found" ]] && echo "$found"
}
ndk=""
for var in ANDROID_NDK_HOME ANDROID_NDK_ROOT ANDROID_NDK_PATH NDK_HOME; do
    value="${!var:-}"
    if [[ -n "$value" ]]; then
        if [[ -f "$value/source.properties" ]]; then
            ndk="$value"
        elif nested="$(highest_ndk_in "$value")"; then
            ndk="$nested"
        else
            need "a working NDK at \$$var=$value (no source.properties there): point $var
      at the NDK's folder, e.g. \$ANDROID_HOME/ndk/<version>"
            ndk="invalid"
        fi
        break
    fi
done
if [[ -z "$ndk" && -n "$sdk" ]]; then
    ndk="$(highest_ndk_in "$sdk/ndk" || true)"
fi
if [[ -z "$ndk" ]]; then
    need "the Android NDK, with ANDROID_NDK_HOME set to it: sdkmanager \"ndk;27.2.12479018\"
      (or Android Studio > SDK Manager > SDK Tools > NDK), then
      export ANDROID_NDK_HOME=\$ANDROID_HOME/ndk/27.2.12479018"
fi

# --- Java 17 or later, for Gradle and the Android Gradle plugin -----------------------------
java_bin="java"
[[ -n "${JAVA_HOME:-}" ]] && java_bin="$JAVA_HOME/bin/java"
if ! command -v "$java_bin" >/dev/null 2>&1; then
    need "a JDK 17 or 21 (Gradle runs on it), e.g. apt install openjdk-17-jdk-headless"
else
    java_major="$("$java_bin" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)"
    if [[ -z "$java_major" || "$java_major" -lt 17 ]]; then
        need "a JDK 17 or 21 (found Java ${java_major:-of unknown version} at $java_bin), e.g.
      apt install openjdk-17-jdk-headless, and JAVA_HOME pointing at it"
    fi
fi

# --- Gradle: the project's wrapper, or any Gradle that can create it --------------------------
if [[ ! -x "$apk_dir/gradlew" ]] && ! command -v gradle >/dev/null 2>&1; then
    need "Gradle (any version: it only creates the project's wrapper, which then fetches Gradle
      $GRADLE_VERSION), e.g. sdk install gradle (https://sdkman.io) or Android Studio's"
fi

# --- adb, only to install -------------------------------------------------------------------
adb_bin=""
if $install; then
    if [[ -n "$sdk" && -x "$sdk/platform-tools/adb" ]]; then
        adb_bin="$sdk/platform-tools/adb"
    elif command -v adb >/dev/null 2>&1; then
        adb_bin="adb"
    else
        need "adb (to install on the phone): sdkmanager \"platform-tools\""
    fi
fi

if [[ ${#missing[@]} -gt 0 ]]; then
    {
        echo "build-apk.sh: cannot build the Hoard APK yet. Missing:"
        for item in "${missing[@]}"; do
            echo "  - $item"
        done
        echo "Nothing was built. See android/README.md for the full setup."
    } >&2
    exit 1
fi

echo "build-apk.sh: tools found: SDK $sdk, NDK $ndk"
if $check_only; then
    exit 0
fi

# --- 1. The Rust library, one .so per ABI, into the project's jniLibs -------------------------
jni_libs="$apk_dir/src/main/jniLibs"
rm -rf "$jni_libs" # no stale ABI from an earlier build may slip into the APK
target_args=()
for abi in "${abi_list[@]}"; do
    target_args+=(-t "$abi")
done
(
    cd "$repo"
    ANDROID_NDK_HOME="$ndk" cargo ndk "${target_args[@]}" -P "$MIN_SDK" -o "$jni_libs" \
        build --release -p hoard-android
)

# --- 2. The APK -------------------------------------------------------------------------------
if [[ ! -x "$apk_dir/gradlew" ]]; then
    # Create the wrapper from an empty scratch build, so the local Gradle's version does not
    # matter: the wrapper pins the version this project is tested with.
    scratch="$(mktemp -d)"
    trap 'rm -rf "$scratch"' EXIT
    touch "$scratch/settings.gradle" # Groovy: read by old and new Gradle alike
    gradle -q -p "$scratch" wrapper --gradle-version "$GRADLE_VERSION"
    cp -R "$scratch/gradlew" "$scratch/gradlew.bat" "$scratch/gradle" "$apk_dir/"
fi
printf 'sdk.dir=%s\n' "$sdk" >"$apk_dir/local.properties"
(
    cd "$apk_dir"
    ./gradlew --no-daemon "$gradle_task"
)

apk="$(find "$apk_dir/build/outputs/apk/$apk_kind" -name '*.apk' | head -n 1)"
if [[ -z "$apk" ]]; then
    echo "build-apk.sh: Gradle finished but left no APK under $apk_dir/build/outputs/apk/$apk_kind" >&2
    exit 1
fi
echo "build-apk.sh: built $apk"

if $install; then
    "$adb_bin" install -r "$apk"
    "$adb_bin" shell am start -n "$PACKAGE/android.app.NativeActivity"
    echo "build-apk.sh: installed and started; its log: $adb_bin logcat -s hoard"
fi
