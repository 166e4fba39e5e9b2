//! Makes the README's SPAMMERS screenshots: a three-seat table some turns in (the Masses
//! with a merged and a gruntled List, Scams on their way to 20, Mia's turn with a card
//! tapped and read whole), drawn by the table screen as the app draws it and painted on the
//! CPU into docs/screenshots/ at phone (360x780 points, drawn at 2x) and laptop (1280x800)
//! sizes. Ignored in the normal run only because it writes files:
//!
//!   cargo test -p hoard-app --test spammers_screenshots -- --ignored
//!
//! `SPAMMERS_SHOT=window` draws Ann's roll with Mia's answer prompt instead (to look at).

mod support;

use egui_kittest::kittest::Queryable;
use hoard_app::games::spammers::SpammersUi;
use std::path::PathBuf;
use support::shot::{Textures, paint, write_png};
use support::spammers_table::{anns_mailing, mias_turn, spammers_table, spammers_view};
use support::table_screen::table_screen_painted;

const PHONE: [f32; 2] = [360.0, 780.0];
const LAPTOP: [f32; 2] = [1280.0, 800.0];

#[test]
#[ignore = "writes docs/screenshots/spammers-*.png; run by hand"]
fn spammers_screenshots_at_phone_and_laptop_sizes() {
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots");
    std::fs::create_dir_all(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    let window = std::env::var("SPAMMERS_SHOT").is_ok_and(|v| v == "window");
    for (file, size, zoom) in [
        ("spammers-phone", PHONE, 2.0),
        ("spammers-laptop", LAPTOP, 1.0),
    ] {
        let (public, private) = if window {
            spammers_table(anns_mailing)
        } else {
            spammers_table(|_| mias_turn())
        };
        let textures = Textures::default();
        let left = window.then_some(2_400);
        let mut h = table_screen_painted(
            spammers_view(public, private, left),
            Box::new(SpammersUi::default()),
            size,
            zoom,
            textures.clone(),
        );
        h.run();
        if !window {
            // A Mailing tapped and read whole, its moves offered.
            h.get_by_label("Card: Last Generation Technology").click();
            h.run();
        }
        let name = if window {
            format!("{file}-window")
        } else {
            file.to_string()
        };
        let path = if window {
            std::env::temp_dir().join(format!("{name}.png"))
        } else {
            out.join(format!("{name}.png"))
        };
        write_png(&path, paint(&h, &textures, zoom))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!("saved {}", path.display());
    }
}
