// The APK around libhoard_android.so. All code is Rust (built by ../build-apk.sh with cargo-ndk
// into src/main/jniLibs); this project only packages it with the manifest and resources.
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
}

dependencyResolutionManagement {
    repositoriesMode.set(RepositoriesMode.FAIL_ON_PROJECT_REPOS)
    repositories {
        google()
        mavenCentral()
    }
}

rootProject.name = "hoard"
