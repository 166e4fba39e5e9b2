//! The phone under the app ([`hoard_app::platform::Platform`]): where Android's system bars
//! cover the window, the screen kept awake while the player sits at a table, and a buzz when
//! the game comes to the player.
//!
//! egui gets no safe-area insets on Android (egui issue 7748), and from Android 15 every app is
//! drawn edge to edge, under the status bar and the navigation bar. So the bars' room is read
//! from the window's root insets (`View.getRootWindowInsets`, Android 6 and later) through JNI.

use android_activity::{AndroidApp, WindowManagerFlags};
use hoard_app::platform::{Insets, Platform};
use jni::objects::JObject;
use jni::strings::JNIStr;
use jni::{JavaVM, jni_sig, jni_str};

/// The phone the app runs on.
pub struct Phone {
    app: AndroidApp,
    /// A failed lookup is logged once, not twice a second.
    warned: bool,
}

impl Phone {
    pub fn new(app: AndroidApp) -> Phone {
        Phone { app, warned: false }
    }
}

impl Platform for Phone {
    fn insets(&mut self) -> Option<Insets> {
        match system_bars(&self.app) {
            Ok(insets) => insets,
            Err(err) => {
                if !self.warned {
                    self.warned = true;
                    tracing::warn!("could not read where the system bars are: {err}");
                }
                None
            }
        }
    }

    fn at_table(&mut self, on: bool) {
        // Nobody touches the screen while friends join or the others take their turns: it
        // must not go dark at the table. At home it sleeps as the phone is set to.
        if on {
            self.app.set_window_flags(
                WindowManagerFlags::KEEP_SCREEN_ON,
                WindowManagerFlags::empty(),
            );
        } else {
            self.app.set_window_flags(
                WindowManagerFlags::empty(),
                WindowManagerFlags::KEEP_SCREEN_ON,
            );
        }
    }

    fn your_turn(&mut self, mine: bool) {
        if mine && let Err(err) = buzz(&self.app, TURN_BUZZ_MS) {
            // A phone with no vibrator, or one the system keeps still: the turn shows anyway.
            tracing::debug!("could not buzz for the turn: {err}");
        }
    }
}

/// How long the phone buzzes when the game comes to its player, in milliseconds.
const TURN_BUZZ_MS: i64 = 200;

/// A short buzz through the system's vibrator (`Vibrator.vibrate(long)`, on every version
/// since Android 1; the VIBRATE permission is granted at install). The system leaves it out
/// where the player turned vibration off.
fn buzz(app: &AndroidApp, ms: i64) -> Result<(), jni::errors::Error> {
    // SAFETY: android-activity hands out the process's valid JavaVM pointer.
    let vm = unsafe { JavaVM::from_raw(app.vm_as_ptr().cast()) };
    let activity = app.activity_as_ptr() as jni::sys::jobject;
    vm.attach_current_thread(|env| -> jni::errors::Result<()> {
        // SAFETY: as in `system_bars`: the activity outlives android_main.
        let activity = unsafe { env.as_cast_raw::<JObject>(&activity)? };
        let name = env.new_string("vibrator")?; // Context.VIBRATOR_SERVICE
        let vibrator = env
            .call_method(
                &activity,
                jni_str!("getSystemService"),
                jni_sig!((name: JString) -> java.lang.Object),
                &[(&name).into()],
            )?
            .l()?;
        if vibrator.is_null() {
            return Ok(());
        }
        env.call_method(
            &vibrator,
            jni_str!("vibrate"),
            jni_sig!((ms: jlong) -> void),
            &[jni::JValue::Long(ms)],
        )?;
        Ok(())
    })
}

/// The room the status bar, the navigation bar and any cutout take at each edge of the
/// window, in pixels; `None` before the window is attached (no insets yet).
fn system_bars(app: &AndroidApp) -> Result<Option<Insets>, jni::errors::Error> {
    // SAFETY: android-activity hands out the process's valid JavaVM pointer.
    let vm = unsafe { JavaVM::from_raw(app.vm_as_ptr().cast()) };
    let activity = app.activity_as_ptr() as jni::sys::jobject;
    vm.attach_current_thread(|env| -> jni::errors::Result<Option<Insets>> {
        // SAFETY: the activity reference stays valid while android_main runs (it is released
        // only after onDestroy, which waits for android_main to return).
        let activity = unsafe { env.as_cast_raw::<JObject>(&activity)? };
        let window = env
            .call_method(
                &activity,
                jni_str!("getWindow"),
                jni_sig!(() -> android.view.Window),
                &[],
            )?
            .l()?;
        let decor = env
            .call_method(
                &window,
                jni_str!("getDecorView"),
                jni_sig!(() -> android.view.View),
                &[],
            )?
            .l()?;
        let insets = env
            .call_method(
                &decor,
                jni_str!("getRootWindowInsets"),
                jni_sig!(() -> android.view.WindowInsets),
                &[],
            )?
            .l()?;
        if insets.is_null() {
            return Ok(None);
        }
        // The system window insets: status and navigation bars, and a cutout in the bars'
        // strip (deprecated since Android 11 in favour of `getInsets(Type)`, and still
        // answered, the same, on every version since 5).
        let mut side = |name: &JNIStr| -> jni::errors::Result<u32> {
            let px = env
                .call_method(&insets, name, jni_sig!(() -> jint), &[])?
                .i()?;
            Ok(px.max(0) as u32)
        };
        Ok(Some(Insets {
            top: side(jni_str!("getSystemWindowInsetTop"))?,
            bottom: side(jni_str!("getSystemWindowInsetBottom"))?,
            left: side(jni_str!("getSystemWindowInsetLeft"))?,
            right: side(jni_str!("getSystemWindowInsetRight"))?,
        }))
    })
}
