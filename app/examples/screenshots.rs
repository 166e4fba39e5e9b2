//! Makes the README's screenshots: drives the real app (offline, with bots) to each screen
//! by its labels, exactly as the GUI tests do, then draws each state in a real eframe
//! window and saves it as PNG under docs/screenshots/, at phone and laptop sizes.
//!
//! Needs a display; on a machine without one:
//!   xvfb-run -s "-screen 0 1920x1800x24" cargo run -p hoard-app --example screenshots
//!
//! It also counts the frames the window draws in 10 seconds on an idle GreedQuest table
//! (nothing happens: everyone waits for you) and prints the count.

#[path = "../tests/support/mod.rs"]
mod support;

use egui::ViewportCommand;
use egui_kittest::kittest::Queryable;
use hoard_app::theme::ThemeChoice;
use hoard_app::{HoardApp, NetworkChoice};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use support::*;

/// One picture: the file name, the app in its state, the size in points and the zoom.
struct Shot {
    file: String,
    app: usize,
    size: [f32; 2],
    zoom: f32,
    theme: ThemeChoice,
}

const PHONE: [f32; 2] = [360.0, 780.0];
/// Time the idle table is left alone before frames are counted.
const SETTLE: Duration = Duration::from_secs(8);
const LAPTOP: [f32; 2] = [1280.0, 800.0];

/// The five states, each reached through the screens.
fn drive() -> Vec<(&'static str, HoardApp)> {
    let mut states = Vec::new();

    // The first run: a name typed on the app's keys, a colour picked.
    let mut h = app(scratch("shot-first-run"), PHONE, true);
    wait_until(&mut h, "the welcome screen", |h| has(h, "Welcome to Hoard"));
    type_on_keys(&mut h, "Mia");
    click(&mut h, "Blue");
    states.push(("first-run", h.into_state()));

    // Home on the Wi-Fi, after the first run.
    let mut h = app_on(scratch("shot-home"), PHONE, true, NetworkChoice::Wifi);
    create_profile(&mut h, "Mia", "Blue");
    click(&mut h, "Join with a code");
    states.push(("home", h.into_state()));

    // The lobby with two bots seated.
    let mut h = app(scratch("shot-lobby"), PHONE, true);
    create_profile(&mut h, "Mia", "Blue");
    host_with_bots(&mut h, 2);
    if has(&h, "I'm ready") {
        click(&mut h, "I'm ready");
    }
    states.push(("lobby", h.into_state()));

    // A table on the Wi-Fi, showing its join code as a QR code and as text. Where this
    // machine cannot open a network endpoint, the picture is left out.
    let mut h = app_on(scratch("shot-lan"), PHONE, true, NetworkChoice::Wifi);
    create_profile(&mut h, "Mia", "Blue");
    click(&mut h, "Host a table");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !has(&h, "Copy the code") && Instant::now() < deadline {
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    if has(&h, "Copy the code") {
        states.push(("lobby-join-code", h.into_state()));
    } else {
        eprintln!("no join code arrived in 30 s: the Wi-Fi lobby picture is left out");
    }

    // Mid-turn: everyone else has laid a card face down; mine is chosen.
    let mut h = app(scratch("shot-table"), PHONE, true);
    create_profile(&mut h, "Mia", "Blue");
    host_with_bots(&mut h, 3);
    start(&mut h);
    // A few turns in, so the track and the story have something to show.
    play_turns_then_wait(&mut h, 6, 3);
    let card = h
        .query_all_by_role(egui::accesskit::Role::Button)
        .filter_map(|n| egui_kittest::kittest::NodeT::accesskit_node(&n).label())
        .find(|l| CARD_NAMES.contains(&l.as_str()));
    if let Some(card) = card {
        click(&mut h, &card);
    }
    states.push(("table-face-down", h.into_state()));

    // The same moment after Play: the cards turned up and the turn told.
    let mut h = app(scratch("shot-reveal"), PHONE, true);
    create_profile(&mut h, "Mia", "Blue");
    host_with_bots(&mut h, 3);
    start(&mut h);
    play_turns_then_wait(&mut h, 6, 3);
    click_card_and_play(&mut h);
    wait_until(&mut h, "the cards turned up", |h| {
        h.query_by_label_contains("Mia played ").is_some()
    });
    // Tell the whole turn at once, so the picture holds every line beside the cards.
    click(&mut h, "Show the whole turn");
    states.push(("table-revealed", h.into_state()));

    // The end screen with the audit's verdict.
    let mut h = app(scratch("shot-end"), PHONE, true);
    create_profile(&mut h, "Mia", "Blue");
    host_with_bots(&mut h, 2);
    start(&mut h);
    play_to_the_end(&mut h, 3_000);
    wait_until(&mut h, "the verdict", |h| {
        h.query_by_label_contains("Verified").is_some()
    });
    states.push(("end", h.into_state()));
    states
}

/// Draws each state in turn, resizing the window, and saves what the GPU drew.
struct Shooter {
    apps: Vec<HoardApp>,
    /// The face-down table, drawn again for the idle count.
    idle_app: usize,
    shots: Vec<Shot>,
    current: usize,
    /// Frames drawn for the current shot; the picture is taken once the size has settled.
    frames: u32,
    requested: bool,
    saved: mpsc::Receiver<PathBuf>,
    save: mpsc::Sender<PathBuf>,
    out: PathBuf,
    /// Counting frames on an idle table, after the pictures: when the phase began, and
    /// the frame count when counting began.
    idle: Option<(Instant, Option<u64>)>,
    idle_result: std::sync::Arc<std::sync::Mutex<Option<u64>>>,
}

impl eframe::App for Shooter {
    /// While pictures are taken the clock stands still at 0: each state is drawn exactly
    /// as the tests left it (a reveal mid-way stays mid-way; the app keeps its place in a
    /// telling when its clock goes back).
    fn raw_input_hook(&mut self, _ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        if self.current < self.shots.len() {
            raw_input.time = Some(0.0);
        }
    }

    /// While pictures are taken nothing is taken in from the network (each state stays as
    /// the tests left it); for the idle count the app runs as it always does.
    fn logic(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        if self.current >= self.shots.len() {
            self.apps[self.idle_app].logic(ctx, frame);
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        if self.current >= self.shots.len() {
            // Idle count on the face-down table at phone size: a few seconds to settle
            // (notices shown when the game began fade after 6), then 10 counted. The two frames this tool wakes itself for, to mark those instants,
            // are not counted; any other frame is, with egui's record of why it was drawn.
            self.apps[self.idle_app].ui(ui, frame);
            let now = Instant::now();
            let frame_nr = ctx.cumulative_frame_nr();
            match self.idle {
                None => {
                    self.idle = Some((now, None));
                    ctx.request_repaint_after(SETTLE);
                }
                Some((since, None)) if now - since >= SETTLE => {
                    self.idle = Some((now, Some(frame_nr)));
                    ctx.request_repaint_after(Duration::from_secs(10));
                }
                Some((since, None)) => {
                    ctx.request_repaint_after(SETTLE - (now - since));
                }
                Some((since, Some(start))) if now - since >= Duration::from_secs(10) => {
                    // Closing draws one more frame; the count is taken once, at the mark.
                    if let Ok(mut r) = self.idle_result.lock()
                        && r.is_none()
                    {
                        *r = Some(frame_nr.saturating_sub(start + 1));
                    }
                    ctx.send_viewport_cmd(ViewportCommand::Close);
                }
                Some((since, Some(_))) => {
                    println!(
                        "idle frame drawn; egui's repaint causes: {:?}",
                        ctx.repaint_causes()
                    );
                    ctx.request_repaint_after(Duration::from_secs(10) - (now - since));
                }
            }
            return;
        }
        let shot = &self.shots[self.current];
        // The zoom first; the size (in points, so at that zoom) on the next frame.
        if self.frames == 0 {
            ctx.set_zoom_factor(shot.zoom);
            self.apps[shot.app].restyle(shot.theme);
        }
        if self.frames == 1 {
            ctx.send_viewport_cmd(ViewportCommand::InnerSize(egui::vec2(
                shot.size[0],
                shot.size[1],
            )));
        }
        self.apps[shot.app].ui(ui, frame);
        self.frames += 1;
        if self.frames >= 10 && !self.requested {
            self.requested = true;
            let path = self.out.join(format!("{}.png", shot.file));
            let save = self.save.clone();
            ctx.request_screenshot(move |image| {
                if let Err(e) = write_png(&path, &image) {
                    eprintln!("could not save {}: {e}", path.display());
                }
                let _ = save.send(path);
            });
        }
        if let Ok(path) = self.saved.try_recv() {
            println!("saved {}", path.display());
            self.current += 1;
            self.frames = 0;
            self.requested = false;
            if self.current >= self.shots.len() {
                ctx.set_zoom_factor(1.0);
                ctx.send_viewport_cmd(ViewportCommand::InnerSize(egui::vec2(PHONE[0], PHONE[1])));
                self.apps[self.idle_app].restyle(ThemeChoice::Dark);
            }
        }
        ctx.request_repaint();
    }
}

fn write_png(path: &Path, image: &egui::ColorImage) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut encoder = png::Encoder::new(
        std::io::BufWriter::new(file),
        image.size[0] as u32,
        image.size[1] as u32,
    );
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    let rgb: Vec<u8> = image
        .pixels
        .iter()
        .flat_map(|p| [p.r(), p.g(), p.b()])
        .collect();
    writer.write_image_data(&rgb).map_err(|e| e.to_string())
}

fn main() -> Result<(), String> {
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots");
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let states = drive();
    let mut apps = Vec::new();
    let mut shots = Vec::new();
    let index = |wanted: &str| states.iter().position(|(n, _)| *n == wanted).unwrap_or(0);
    let (face_down, revealed) = (index("table-face-down"), index("table-revealed"));
    for (i, (name, app)) in states.into_iter().enumerate() {
        apps.push(app);
        for (suffix, size, zoom) in [("phone", PHONE, 2.0), ("laptop", LAPTOP, 1.0)] {
            shots.push(Shot {
                file: format!("{name}-{suffix}"),
                app: i,
                size,
                zoom,
                theme: ThemeChoice::Dark,
            });
        }
    }
    // A phone on its side.
    shots.push(Shot {
        file: "table-face-down-phone-landscape".into(),
        app: face_down,
        size: [780.0, 360.0],
        zoom: 2.0,
        theme: ThemeChoice::Dark,
    });
    // Light theme too, on the table.
    shots.push(Shot {
        file: "table-revealed-phone-light".into(),
        app: revealed,
        size: PHONE,
        zoom: 2.0,
        theme: ThemeChoice::Light,
    });
    let (save, saved) = mpsc::channel();
    let idle_result = std::sync::Arc::new(std::sync::Mutex::new(None));
    let shooter = Shooter {
        apps,
        idle_app: face_down,
        shots,
        current: 0,
        frames: 0,
        requested: false,
        saved,
        save,
        out,
        idle: None,
        idle_result: idle_result.clone(),
    };
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size(PHONE)
            .with_title("Hoard screenshots"),
        ..Default::default()
    };
    eframe::run_native(
        "Hoard screenshots",
        native,
        Box::new(|_| Ok(Box::new(shooter))),
    )
    .map_err(|e| e.to_string())?;
    match idle_result.lock().ok().and_then(|r| *r) {
        Some(n) => {
            println!("frames drawn in 10 idle seconds on the GreedQuest table (real window): {n}")
        }
        None => println!("the idle count did not finish"),
    }
    Ok(())
}
