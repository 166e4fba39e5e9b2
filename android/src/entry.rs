//! `android_main`: what NativeActivity runs, from start-up until the app closes and the process ends.

use std::time::{Duration, Instant};

use android_activity::{AndroidApp, MainEvent, PollEvent};
use jni::objects::JObject;
use jni::{JavaVM, jni_sig, jni_str};

use crate::multicast::MulticastLock;
use crate::phone::Phone;
use crate::{AndroidError, logcat, run_options};

/// How long to wait for Android to tear the activity down once the app has closed.
const FINISH_TIMEOUT: Duration = Duration::from_secs(3);

/// Called by android-activity on a thread of its own when the activity is created.
#[unsafe(no_mangle)]
fn android_main(app: AndroidApp) {
    logcat::init();
    if let Err(err) = run(&app) {
        tracing::error!("Hoard could not run: {err}");
    }
    finish_and_exit(&app);
}

/// Runs the shared app with the phone's folder, layout, screen and network set up.
fn run(app: &AndroidApp) -> Result<(), AndroidError> {
    let data_dir = app.internal_data_path().ok_or(AndroidError::NoDataDir)?;
    tracing::info!("data folder: {}", data_dir.display());
    let mut options = run_options(data_dir)?;
    options.native.android_app = Some(app.clone());
    // The system bars' room, and the screen kept on while the player sits at a table.
    options.platform = Some(Box::new(Phone::new(app.clone())));

    // Without the lock, tables on this Wi-Fi stay invisible, but hosting, joining by code and
    // playing still work: go on without it.
    let _multicast = MulticastLock::acquire(app)
        .inspect_err(|err| tracing::warn!("{err}"))
        .ok();

    hoard_app::run(options).map_err(AndroidError::Gui)
}

/// Ends the activity and then the process.
///
/// winit allows one event loop per process (winit issue 3325), while Android keeps the process
/// alive after the activity finishes and starts the next launch's activity in it; that second
/// `android_main` could never open a window. So the process ends here and the next launch starts
/// a fresh one. Nothing is lost: the store writes every step as it happens, and eframe has saved
/// its state before `run` returned.
fn finish_and_exit(app: &AndroidApp) -> ! {
    if let Err(err) = request_finish(app) {
        tracing::warn!("could not ask Android to close the activity: {err}");
    }
    // Keep serving the activity's lifecycle calls (pause, stop, window gone): Android's main
    // thread waits on them. Its onDestroy then waits for this thread, so Destroy is the moment
    // the activity is recorded as finished, and ending the process then is clean.
    let deadline = Instant::now() + FINISH_TIMEOUT;
    let mut destroyed = false;
    while !destroyed && Instant::now() < deadline {
        app.poll_events(Some(Duration::from_millis(100)), |event| {
            if let PollEvent::Main(MainEvent::Destroy) = event {
                destroyed = true;
            }
        });
    }
    tracing::info!("Hoard closed");
    // _exit, not exit: no C atexit handlers, which in an Android app process belong to the
    // runtime and graphics libraries and can crash when run from a thread other than main.
    unsafe extern "C" {
        fn _exit(status: std::ffi::c_int) -> !;
    }
    // SAFETY: _exit takes a plain int and never returns.
    unsafe { _exit(0) }
}

/// Calls `Activity.finish()`, which Android may take from any thread.
fn request_finish(app: &AndroidApp) -> Result<(), jni::errors::Error> {
    // SAFETY: android-activity hands out the process's valid JavaVM pointer.
    let vm = unsafe { JavaVM::from_raw(app.vm_as_ptr().cast()) };
    let activity = app.activity_as_ptr() as jni::sys::jobject;
    vm.attach_current_thread(|env| -> jni::errors::Result<()> {
        // SAFETY: valid until onDestroy, which cannot complete before this thread stops.
        let activity = unsafe { env.as_cast_raw::<JObject>(&activity)? };
        env.call_method(&activity, jni_str!("finish"), jni_sig!(()), &[])?;
        Ok(())
    })
}
