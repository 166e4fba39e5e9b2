//! Makes the README's screenshots of the table screens, one module a game, each drawn as the
//! app draws it and painted on the CPU into docs/screenshots/ at phone and laptop sizes.
//! Ignored in the normal run only because they write files:
//!
//!   cargo test -p hoard-app --test all screenshots:: -- --ignored

mod sprawl {
    // Makes the README's Sprawl screenshots: drives the real app (offline, with bots) to a
    // Sprawl table by its labels, as the GUI tests do, then paints egui's own triangles for
    // that frame on the CPU and saves PNGs under docs/screenshots/ at phone (360×780 points,
    // drawn at 2×) and laptop (1280×800) sizes. No display and no GPU needed; ignored in the
    // normal run only because it writes files:
    //
    //   cargo test -p hoard-app --test all screenshots::sprawl -- --ignored

    use crate::support::shot::{Textures, paint, write_png};
    use crate::support::*;
    use egui::accesskit::Role;
    use egui_kittest::Harness;
    use egui_kittest::kittest::{NodeT, Queryable};
    use hoard_app::{HoardApp, NetworkChoice};
    use std::path::PathBuf;

    const PHONE: [f32; 2] = [360.0, 780.0];
    const LAPTOP: [f32; 2] = [1280.0, 800.0];

    fn labels(h: &Harness<'_, HoardApp>, role: Role) -> Vec<String> {
        h.query_all_by_role(role)
            .filter(|n| !n.accesskit_node().is_disabled())
            .filter_map(|n| n.accesskit_node().label())
            .collect()
    }

    /// A Sprawl table some moves in, at my turn, with one of my squares tapped so its
    /// moves are offered; `None` if the game ended first.
    fn sprawl_table(size: [f32; 2], zoom: f32) -> Option<(Harness<'static, HoardApp>, Textures)> {
        let textures = Textures::default();
        let builder = Harness::builder()
            .with_size(size)
            .with_pixels_per_point(zoom)
            .renderer(textures.clone());
        let mut h = app_built(
            builder,
            scratch("shot-sprawl"),
            true,
            NetworkChoice::Offline,
        );
        create_profile(&mut h, "Mia", "Blue");
        host_with_bots(&mut h, 3);
        click(&mut h, "Sprawl");
        wait_until(&mut h, "Sprawl's variants", |h| has(h, "Counting Coup"));
        start(&mut h);
        // Six moves of mine: a 3, capped with a 2 and a 1, then branches and spores, so the
        // board shows towers, branches and targets.
        let mut moves = 0;
        while moves < 6 && !has(&h, "Back to home") {
            let buttons = labels(&h, Role::Button);
            let answer = ["Keep it", "Let it be"]
                .into_iter()
                .find(|a| buttons.iter().any(|b| b == a));
            if let Some(a) = answer {
                click(&mut h, a);
                continue;
            }
            let offered: Vec<&String> = buttons
                .iter()
                .filter(|b| {
                    ["Place a 3", "Build a ", "Branch a ", "Spore a "]
                        .iter()
                        .any(|m| b.starts_with(m))
                })
                .collect();
            let preferred = offered
                .iter()
                .find(|b| b.starts_with("Build") || b.starts_with("Place"))
                .or(offered.iter().find(|b| b.starts_with("Spore")))
                .or(offered.first());
            if let Some(m) = preferred {
                let m = (*m).clone();
                click(&mut h, &m);
                moves += 1;
                continue;
            }
            let squares: Vec<&String> = buttons
                .iter()
                .filter(|b| b.ends_with("(tap to play here)"))
                .collect();
            let square = squares
                .iter()
                .find(|b| b.contains("Mia's tower"))
                .or(squares.get(squares.len() / 2));
            if let Some(sq) = square {
                let sq = (*sq).clone();
                click(&mut h, &sq);
            } else {
                h.step();
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
        wait_until(&mut h, "my turn or the end", |h| {
            has(h, "Back to home")
                || h.query_all_by_label_contains("(tap to play here)")
                    .next()
                    .is_some()
        });
        if has(&h, "Back to home") {
            // The bots neutralized everything of mine before the picture: deal again.
            return None;
        }
        let squares = labels(&h, Role::Button);
        let square = squares
            .iter()
            .filter(|b| b.ends_with("(tap to play here)"))
            .find(|b| b.contains(": empty"))
            .cloned();
        if let Some(sq) = square {
            click(&mut h, &sq);
        }
        for _ in 0..4 {
            h.step();
        }
        Some((h, textures))
    }

    #[test]
    #[ignore = "writes docs/screenshots/sprawl-*.png; run by hand"]
    fn sprawl_screenshots_at_phone_and_laptop_sizes() {
        let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots");
        std::fs::create_dir_all(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
        for (file, size, zoom) in [("sprawl-phone", PHONE, 2.0), ("sprawl-laptop", LAPTOP, 1.0)] {
            let (h, textures) = (0..8)
                .find_map(|_| sprawl_table(size, zoom))
                .unwrap_or_else(|| panic!("every game ended before the picture"));
            let path = out.join(format!("{file}.png"));
            write_png(&path, paint(&h, &textures, zoom))
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            println!("saved {}", path.display());
        }
    }
}

mod spree {
    // Makes the README's Spree! screenshots: a four-seat table under way (cars parked, carts
    // with cards, Mia's dice rolled and a walk being drawn towards the 7♥ shop), drawn by the
    // table screen as the app draws it and painted on the CPU into docs/screenshots/ at phone
    // (360×780 points, drawn at 2×) and laptop (1280×800) sizes. Ignored in the normal run
    // only because it writes files:
    //
    //   cargo test -p hoard-app --test all screenshots::spree -- --ignored

    use crate::support::shot::{Textures, paint, write_png};
    use crate::support::spree_table::{mias_walk, spree_table, spree_view};
    use crate::support::table_screen::table_screen_painted;
    use egui_kittest::kittest::Queryable;
    use hoard_app::games::spree::SpreeUi;
    use std::path::PathBuf;

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
}

mod spammers {
    // Makes the README's SPAMMERS screenshots: a three-seat table some turns in (the Masses
    // with a merged and a gruntled List, Scams on their way to 20, Mia's turn with a card
    // tapped and read whole), drawn by the table screen as the app draws it and painted on the
    // CPU into docs/screenshots/ at phone (360x780 points, drawn at 2x) and laptop (1280x800)
    // sizes. Ignored in the normal run only because it writes files:
    //
    //   cargo test -p hoard-app --test all screenshots::spammers -- --ignored
    //
    // `SPAMMERS_SHOT=window` draws Ann's roll with Mia's answer prompt instead (to look at).

    use crate::support::shot::{Textures, paint, write_png};
    use crate::support::spammers_table::{anns_mailing, mias_turn, spammers_table, spammers_view};
    use crate::support::table_screen::table_screen_painted;
    use egui_kittest::kittest::Queryable;
    use hoard_app::games::spammers::SpammersUi;
    use std::path::PathBuf;

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
}

mod watching {
    // Makes the README's screenshots of watching a game: a laptop at 1920×1080 that joined a
    // GreedQuest game as its shared screen (the phone plays against two bots), and a finished
    // game watched again on a laptop, halfway through. Painted on the CPU into
    // docs/screenshots/. Ignored in the normal run only because they write files:
    //
    //   cargo test -p hoard-app --test all screenshots::watching -- --ignored

    use crate::support::shot::{Textures, paint, write_png};
    use crate::support::*;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use hoard_app::{HoardApp, NetworkChoice};
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

    fn out() -> PathBuf {
        let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots");
        std::fs::create_dir_all(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
        out
    }

    fn painted_app(
        name: &str,
        size: [f32; 2],
        phone: bool,
        network: NetworkChoice,
    ) -> (Harness<'static, HoardApp>, Textures) {
        let textures = Textures::default();
        let builder = Harness::builder()
            .with_size(size)
            .renderer(textures.clone());
        let h = app_built(builder, scratch(name), phone, network);
        (h, textures)
    }

    #[test]
    #[ignore = "writes docs/screenshots/shared-screen.png; run by hand"]
    fn the_shared_screen_at_1920_by_1080() {
        let mut host = app_on(
            scratch("shot-host"),
            [360.0, 780.0],
            true,
            NetworkChoice::Wifi,
        );
        create_profile(&mut host, "Mia", "Blue");
        click(&mut host, "Host a table");
        wait_until(&mut host, "the join code", |h| has(h, "Copy the code"));
        let ticket = shown_code(&host);
        for n in 0..3 {
            click(&mut host, "Add a bot");
            wait_until(&mut host, "the bot", |h| {
                h.query_all_by_label("Remove").count() > n
            });
        }
        start(&mut host);
        let (mut screen, textures) =
            painted_app("shot-screen", [1920.0, 1080.0], false, NetworkChoice::Wifi);
        laptop_uses_code(&mut screen, "Living room", &ticket, "Show the table here");
        // Seven turns in, with the last turn's cards on the table.
        let deadline = Instant::now() + Duration::from_secs(120);
        while host.query_by_label_contains("Turn 7").is_none() {
            assert!(Instant::now() < deadline, "the game did not get far enough");
            if !play_once(&mut host) {
                host.step();
            }
            screen.step();
        }
        for _ in 0..60 {
            host.step();
            screen.step();
            std::thread::sleep(Duration::from_millis(5));
        }
        // The screen draws itself larger across a big window: paint it at that zoom, so the
        // picture has the window's 1920×1080 pixels.
        let zoom = screen.ctx.zoom_factor();
        let path = out().join("shared-screen.png");
        write_png(&path, paint(&screen, &textures, zoom))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!("saved {}", path.display());
    }

    #[test]
    #[ignore = "writes docs/screenshots/replay-laptop.png and replay-every-hand-laptop.png; run by hand"]
    fn a_replay_on_a_laptop() {
        replay_shots("laptop", [1280.0, 800.0], false);
    }

    #[test]
    #[ignore = "writes docs/screenshots/replay-phone.png and replay-every-hand-phone.png; run by hand"]
    fn a_replay_on_a_phone() {
        replay_shots("phone", [360.0, 780.0], true);
    }

    /// A game against two bots played out, watched again twelve steps from its end: as
    /// everyone saw it, then with every hand shown (Mia's first).
    fn replay_shots(device: &str, size: [f32; 2], phone: bool) {
        let (mut h, textures) = painted_app(
            &format!("shot-replay-{device}"),
            size,
            phone,
            NetworkChoice::Offline,
        );
        if phone {
            create_profile(&mut h, "Mia", "Blue");
        } else {
            wait_until(&mut h, "welcome", |h| has(h, "Welcome to Hoard"));
            h.get_by_label("Your name").focus();
            h.step();
            h.get_by_label("Your name").type_text("Mia");
            h.step();
            click(&mut h, "Let's play");
        }
        host_with_bots(&mut h, 2);
        start(&mut h);
        play_to_the_end(&mut h, 2_000);
        click(&mut h, "Watch it again");
        wait_until(&mut h, "the replay", |h| has(h, "Step on"));
        click(&mut h, "Last");
        for _ in 0..12 {
            click(&mut h, "Step back");
        }
        for _ in 0..4 {
            h.step();
        }
        let path = out().join(format!("replay-{device}.png"));
        write_png(&path, paint(&h, &textures, 1.0))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!("saved {}", path.display());
        click(&mut h, "Show every hand");
        wait_until(&mut h, "every hand", |h| has(h, "Hide the hands"));
        for _ in 0..4 {
            h.step();
        }
        let path = out().join(format!("replay-every-hand-{device}.png"));
        write_png(&path, paint(&h, &textures, 1.0))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!("saved {}", path.display());
    }
}
