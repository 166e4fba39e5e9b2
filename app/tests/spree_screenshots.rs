//! Makes the README's Spree! screenshots: a four-seat table under way (cars parked, carts
//! with cards, Mia's dice rolled and a walk being drawn towards the 7♥ shop), drawn by the
//! table screen as the app draws it and painted on the CPU into docs/screenshots/ at phone
//! (360×780 points, drawn at 2×) and laptop (1280×800) sizes. Ignored in the normal run
//! only because it writes files:
//!
//!   cargo test -p hoard-app --test spree_screenshots -- --ignored

mod support;

use egui_kittest::kittest::Queryable;
use hoard_app::games::spree::SpreeUi;
use std::path::PathBuf;
use support::shot::{Textures, paint, write_png};
use support::spree_table::{mias_walk, spree_table, spree_view};
use support::table_screen::table_screen_painted;

const PHONE: [f32; 2] = [360.0, 780.0];
const LAPTOP: [f32; 2] = [1280.0, 800.0];

#[test]
#[ignore = "writes docs/screenshots/spree-*.png; run by hand"]
fn spree_screenshots_at_phone_and_laptop_sizes() {
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots");
    std::fs::create_dir_all(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    for (file, size, zoom) in [("spree-phone", PHONE, 2.0), ("spree-laptop", LAPTOP, 1.0)] {
        let (public, private) = spree_table(mias_walk());
        let textures = Textures::default();
        let mut h = table_screen_painted(
            spree_view(public, private, None),
            Box::new(SpreeUi::default()),
            size,
            zoom,
            textures.clone(),
        );
        h.run();
        // A walk drawn three squares up the floor towards the hearts, and the 10♠ picked (Move-10).
        for square in ["Walk to F5,", "Walk to F4,", "Walk to F3,"] {
            h.get_by_label_contains(square).click();
            h.run();
        }
        h.get_by_label("Your 10 of Spades").click();
        h.run();
        let path = out.join(format!("{file}.png"));
        write_png(&path, paint(&h, &textures, zoom))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!("saved {}", path.display());
    }
}
