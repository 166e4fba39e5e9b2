// One module, no Java or Kotlin: Android's own NativeActivity runs the Rust library.
plugins {
    // AGP 8.7 needs Gradle 8.9 or later and JDK 17 or later; ../build-apk.sh checks both.
    id("com.android.application") version "8.7.3"
}

android {
    namespace = "org.hoard.table"
    compileSdk = 35

    defaultConfig {
        applicationId = "org.hoard.table"
        // Keep in step with MIN_SDK in ../build-apk.sh (the API level the Rust code links for).
        minSdk = 26
        targetSdk = 35
        versionCode = 1
        versionName = "0.1.0"
    }

    buildTypes {
        getByName("release") {
            isMinifyEnabled = false
            // Signed with the debug key so that `adb install` works without a release keystore;
            // sign with your own key before publishing anywhere.
            signingConfig = signingConfigs.getByName("debug")
        }
    }

    packaging {
        jniLibs {
            // Keep the .so uncompressed and page-aligned in the APK: Android maps it directly
            // instead of unpacking a copy at install.
            useLegacyPackaging = false
        }
    }
}
