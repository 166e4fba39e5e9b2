//! The Wi-Fi multicast lock. Android's Wi-Fi driver drops multicast packets to save power unless
//! an app holds this lock, and mDNS (how tables on this Wi-Fi find each other) is multicast.
//!
//! Held for as long as the app runs, not only while the home screen lists tables: a host answers
//! other phones' mDNS queries while its lobby is open, and seats find each other again by mDNS
//! when a phone drops off the Wi-Fi mid-game. Needs CHANGE_WIFI_MULTICAST_STATE (in the manifest;
//! a normal permission, granted at install).

use android_activity::AndroidApp;
use jni::objects::{Global, JObject};
use jni::{JavaVM, jni_sig, jni_str};

use crate::AndroidError;

/// Tag shown by `adb shell dumpsys wifi` for the lock, to tell who holds it.
const LOCK_TAG: &str = "hoard-mdns";

/// A held `WifiManager.MulticastLock`; released when dropped.
pub struct MulticastLock {
    lock: Global<JObject<'static>>,
}

impl MulticastLock {
    /// Creates and acquires the lock through the activity's application context.
    pub fn acquire(app: &AndroidApp) -> Result<Self, AndroidError> {
        // SAFETY: android-activity hands out the process's valid JavaVM pointer.
        let vm = unsafe { JavaVM::from_raw(app.vm_as_ptr().cast()) };
        let activity = app.activity_as_ptr() as jni::sys::jobject;
        let lock = vm
            .attach_current_thread(|env| -> jni::errors::Result<Global<JObject<'static>>> {
                // SAFETY: the activity reference stays valid while android_main runs (it is only
                // released after onDestroy, which waits for android_main to return), and a Cast
                // never deletes the reference it borrows.
                let activity = unsafe { env.as_cast_raw::<JObject>(&activity)? };
                // The application context, not the activity: a WifiManager taken from an activity
                // context keeps that activity alive on older Android versions.
                let context = env
                    .call_method(
                        &activity,
                        jni_str!("getApplicationContext"),
                        jni_sig!(() -> android.content.Context),
                        &[],
                    )?
                    .l()?;
                let service_name = env.new_string("wifi")?; // Context.WIFI_SERVICE
                let wifi = env
                    .call_method(
                        &context,
                        jni_str!("getSystemService"),
                        jni_sig!((name: JString) -> java.lang.Object),
                        &[(&service_name).into()],
                    )?
                    .l()?;
                let tag = env.new_string(LOCK_TAG)?;
                let lock = env
                    .call_method(
                        &wifi,
                        jni_str!("createMulticastLock"),
                        jni_sig!((tag: JString) -> android.net.wifi.WifiManager::MulticastLock),
                        &[(&tag).into()],
                    )?
                    .l()?;
                // One acquire, one release: no count to get out of step.
                env.call_method(
                    &lock,
                    jni_str!("setReferenceCounted"),
                    jni_sig!((counted: bool)),
                    &[false.into()],
                )?;
                env.call_method(&lock, jni_str!("acquire"), jni_sig!(()), &[])?;
                env.new_global_ref(lock)
            })
            .map_err(|err| AndroidError::MulticastLock {
                reason: err.to_string(),
            })?;
        tracing::info!("holding the Wi-Fi multicast lock for local discovery");
        Ok(Self { lock })
    }
}

impl Drop for MulticastLock {
    fn drop(&mut self) {
        let released = JavaVM::singleton().and_then(|vm| {
            vm.attach_current_thread(|env| -> jni::errors::Result<()> {
                env.call_method(&self.lock, jni_str!("release"), jni_sig!(()), &[])?;
                Ok(())
            })
        });
        match released {
            Ok(()) => tracing::info!("released the Wi-Fi multicast lock"),
            // The process ends soon after this; Android drops the lock of a dead process.
            Err(err) => tracing::warn!("could not release the Wi-Fi multicast lock: {err}"),
        }
    }
}
