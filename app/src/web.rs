//! The app in a browser's page: the same screens, drawn on the page's canvas by eframe's web
//! backend, with the device run on the page's event loop and kept in the page's storage
//! (`hoard_net::device::browser`). The page has no keyboard of its own to rely on, so it is
//! laid out as a phone is: the in-app keypads, never a focused text box.
//!
//! The page reaches the table through the relay at its own origin (the laptop that served
//! it); an address with `#join=<join code>` seats the player at that table as soon as they
//! have a name. "Offline" in the settings plays on the page alone, against bots.

use crate::{AppConfig, HoardApp};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Mutex;
use wasm_bindgen::JsCast;

/// The id of the page's `<canvas>` the app draws on.
pub const CANVAS: &str = "hoard";

/// Starts the app on the page's canvas [`CANVAS`]; returns at once. Errors go to the
/// browser's console, the only place left to tell them when the canvas is missing.
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        let Some(canvas) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(CANVAS))
            .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            console_error(&format!(
                "the page has no <canvas id=\"{CANVAS}\"> to draw on"
            ));
            return;
        };
        let config = AppConfig {
            data_dir: PathBuf::new(),
            phone: true,
            network: None,
            platform: Some(Box::new(Page)),
            opened: scanned(),
            page: &[],
        };
        let started = eframe::WebRunner::new()
            .start(
                canvas,
                eframe::WebOptions::default(),
                Box::new(|cc| {
                    cc.egui_ctx.add_plugin(Shown);
                    Ok(Box::new(HoardApp::new(cc, config)))
                }),
            )
            .await;
        if let Err(e) = started {
            console_error(&format!("the app could not start on the page: {e:?}"));
        }
    });
}

/// Writes `message` to the browser's console as an error (the page sets up no log, so a
/// `tracing` call would go nowhere).
fn console_error(message: &str) {
    web_sys::console::error_1(&message.into());
}

/// The browser under the page: it has no system bars to tell and no way to keep the screen
/// on that every browser offers, but the player's turn shows in the tab's title (read from
/// across the room, or from another tab) and buzzes a phone that can.
struct Page;

impl crate::platform::Platform for Page {
    fn insets(&mut self) -> Option<crate::platform::Insets> {
        None
    }

    fn at_table(&mut self, _on: bool) {}

    fn your_turn(&mut self, mine: bool) {
        let Some(window) = web_sys::window() else {
            return;
        };
        if let Some(document) = window.document() {
            document.set_title(if mine {
                crate::app::TITLE_MY_TURN
            } else {
                crate::app::TITLE
            });
        }
        if mine {
            // Where the browser has no vibration (a laptop, iPhones' Safari), nothing.
            let _ = window.navigator().vibrate_with_duration(200);
        }
    }
}

/// What the page's address asks for (`#join=<code>` or `#watch=<code>`), taken out of the
/// address so a reload does not join again (a reload comes back to the seat by itself).
fn scanned() -> Option<crate::Opened> {
    let window = web_sys::window()?;
    let hash = window.location().hash().ok()?;
    let opened = crate::screens::home::opened(&hash)?;
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/"));
    }
    Some(opened)
}

/// The frames drawn since the page's bench last asked, the latest [`FRAMES_KEPT`] at most.
static FRAMES: Mutex<Frames> = Mutex::new(Frames {
    kept: VecDeque::new(),
    began: None,
    app: None,
});
const FRAMES_KEPT: usize = 4096;

/// Each frame's CPU in milliseconds, whole and Hoard's own part of it.
struct Frames {
    /// eframe's measure of a frame (`eframe::IntegrationInfo::cpu_usage`: the app's logic and
    /// screens, egui's layout into triangles, and the painting calls), and the app's part
    /// (its logic and screens alone), by frame.
    kept: VecDeque<(f32, f32)>,
    /// When the app's part of this frame began (the page's clock, ms).
    began: Option<f64>,
    /// The app's part of the frame before, ms.
    app: Option<f32>,
}

/// The page's clock in milliseconds (`performance.now()`).
fn clock() -> Option<f64> {
    web_sys::window()?.performance().map(|p| p.now())
}

/// The app's part of a frame begins (its logic runs first).
pub(crate) fn app_began() {
    if let Ok(mut frames) = FRAMES.lock() {
        frames.began = clock();
    }
}

/// The app's part of the frame ends (its screens are laid out).
pub(crate) fn app_done() {
    if let (Ok(mut frames), Some(now)) = (FRAMES.lock(), clock()) {
        frames.app = frames.began.take().map(|began| (now - began) as f32);
    }
}

/// Notes the CPU of the frame before, in seconds (`eframe::IntegrationInfo::cpu_usage`),
/// with the app's part of it.
pub(crate) fn frame_cpu(seconds: Option<f32>) {
    let Ok(mut frames) = FRAMES.lock() else {
        return;
    };
    let app = frames.app.take();
    let (Some(seconds), Some(app)) = (seconds, app) else {
        return;
    };
    if frames.kept.len() == FRAMES_KEPT {
        frames.kept.pop_front();
    }
    frames.kept.push_back((seconds * 1000.0, app));
}

/// The frames noted since the last call, comma-separated, each its whole CPU and the app's
/// part of it in milliseconds (`12.30/4.10`), for the page's bench (`tests/benches/page.rs`).
pub fn frame_times() -> String {
    let Ok(mut frames) = FRAMES.lock() else {
        return String::new();
    };
    let times: Vec<String> = frames
        .kept
        .drain(..)
        .map(|(whole, app)| format!("{whole:.2}/{app:.2}"))
        .collect();
    times.join(",")
}

/// What the page shows, one line per thing on it: where it is in the page's CSS pixels (left,
/// top, width, height), whether it can be tapped, and its words, tab-separated. Read from
/// egui's accessibility tree of the last frame, so a test (or a screen reader's view of it)
/// finds "Start" where a player sees it and taps there.
pub fn shown() -> String {
    SHOWN.lock().map(|s| s.clone()).unwrap_or_default()
}

static SHOWN: Mutex<String> = Mutex::new(String::new());

/// Keeps [`SHOWN`] up to date from each frame's accessibility tree.
struct Shown;

impl egui::plugin::Plugin for Shown {
    fn debug_name(&self) -> &'static str {
        "hoard-shown"
    }

    fn setup(&mut self, ctx: &egui::Context) {
        ctx.enable_accesskit();
    }

    fn output_hook(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput) {
        let Some(update) = &output.platform_output.accesskit_update else {
            return;
        };
        // Points to CSS pixels: egui's points are CSS pixels times its zoom.
        let zoom = f64::from(ctx.zoom_factor());
        let mut lines = String::new();
        for (_, node) in &update.nodes {
            let (Some(words), Some(b)) = (node.label().or(node.value()), node.bounds()) else {
                continue;
            };
            let tap = node.supports_action(egui::accesskit::Action::Click) && !node.is_disabled();
            let words = words.replace(['\t', '\n'], " ");
            lines += &format!(
                "{:.0}\t{:.0}\t{:.0}\t{:.0}\t{}\t{words}\n",
                b.x0 * zoom,
                b.y0 * zoom,
                (b.x1 - b.x0) * zoom,
                (b.y1 - b.y0) * zoom,
                u8::from(tap),
            );
        }
        if let Ok(mut shown) = SHOWN.lock() {
            *shown = lines;
        }
    }
}
