//! Settings: the theme, how to reach the others (the Wi-Fi, a relay over the internet, or
//! nobody), and a way to the name-and-colour form.

use crate::settings::{MAX_RELAY, NetworkChoice, Settings};
use crate::theme::{Palette, ThemeChoice};
use crate::widgets::{self, entry::Entry, keypad::KeypadKind};
use egui::RichText;
use hoard_net::handle::Relays;

pub enum SettingsIntent {
    Back,
    Theme(ThemeChoice),
    /// Motion off (true) or on.
    Still(bool),
    Network(NetworkChoice),
    /// Play through this relay (its address, checked), or iroh's public ones (empty).
    Relay(String),
    EditProfile,
}

/// The relay address being typed, between frames.
#[derive(Default)]
pub struct RelayForm {
    entry: Entry,
    typed: Option<String>,
    error: Option<String>,
}

pub fn show(
    ui: &mut egui::Ui,
    settings: &Settings,
    form: &mut RelayForm,
    phone: bool,
    page: &[(&str, &[u8])],
) -> Option<SettingsIntent> {
    let mut intent = None;
    if widgets::top_bar(ui, "Settings", Some("Back")) {
        intent = Some(SettingsIntent::Back);
    }
    egui::ScrollArea::vertical().show(ui, |ui| {
        if let Some(profile) = &settings.profile {
            ui.label(RichText::new("You").strong());
            widgets::seat_chip(ui, &profile.name, profile.colour, true);
            if widgets::wide(ui, "Change name or colour").clicked() {
                intent = Some(SettingsIntent::EditProfile);
            }
            ui.add_space(8.0);
        }
        ui.label(RichText::new("Look").strong());
        ui.horizontal_wrapped(|ui| {
            for choice in [ThemeChoice::System, ThemeChoice::Dark, ThemeChoice::Light] {
                if widgets::choice(ui, settings.theme == choice, choice.label()) {
                    intent = Some(SettingsIntent::Theme(choice));
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            for (still, text) in [(false, "Motion"), (true, "No motion")] {
                if widgets::choice(ui, settings.still == still, text) {
                    intent = Some(SettingsIntent::Still(still));
                }
            }
        });
        ui.add_space(8.0);
        ui.label(RichText::new("Playing with").strong());
        for (choice, text) in [
            (NetworkChoice::Wifi, "Friends on this Wi-Fi"),
            (
                NetworkChoice::Internet,
                "Friends anywhere, over the internet",
            ),
            (
                NetworkChoice::Offline,
                "Bots only, on this device (no network)",
            ),
        ] {
            if widgets::choice(ui, settings.network == choice, text) {
                intent = Some(SettingsIntent::Network(choice));
            }
        }
        if settings.network == NetworkChoice::Internet
            && let Some(relay) = relay_choice(ui, settings, form, phone)
        {
            intent = Some(relay);
        }
        ui.label(
            RichText::new(
                "Games in progress are kept on this device either way and can be resumed later.",
            )
            .weak(),
        );
        ui.add_space(8.0);
        ui.label(RichText::new("This Hoard").strong());
        ui.label(format!("Version {}", env!("CARGO_PKG_VERSION")));
        // What a table can compare: every Hoard of one version carries the same page for
        // browsers, so the laptop serving it shows the same fingerprint as everyone else's.
        if let Some(hash) = fingerprint(page) {
            ui.label(format!("Page for browsers: {hash}"));
            ui.label(
                RichText::new(
                    "A phone in a browser runs the page the laptop serving it gave it: that \
                     laptop's fingerprint here should match everyone else's Hoard of the same \
                     version.",
                )
                .weak(),
            );
        }
    });
    intent
}

/// Which relay carries the game: iroh's public ones, or the players' own by its address.
fn relay_choice(
    ui: &mut egui::Ui,
    settings: &Settings,
    form: &mut RelayForm,
    phone: bool,
) -> Option<SettingsIntent> {
    let palette = Palette::of(ui);
    let mut intent = None;
    ui.add_space(4.0);
    let using = if settings.relay.is_empty() {
        "Through iroh's public relays. Your moves stay signed and your cards sealed; a relay \
         only passes them on."
            .to_string()
    } else {
        format!("Through your own relay, {}.", settings.relay)
    };
    ui.label(RichText::new(using).color(palette.muted));
    let typed = form.typed.get_or_insert_with(|| settings.relay.clone());
    if form.entry.show(
        ui,
        "Your own relay",
        "https://relay.example.org (blank: public)",
        KeypadKind::Address,
        typed,
        MAX_RELAY,
        phone,
    ) {
        form.error = None;
    }
    let typed = typed.trim().to_string();
    ui.horizontal_wrapped(|ui| {
        let changed = typed != settings.relay;
        if widgets::primary_enabled(ui, changed, "Use this relay").clicked() {
            match Relays::own(&typed) {
                Err(why) if !typed.is_empty() => form.error = Some(why),
                _ => intent = Some(SettingsIntent::Relay(typed.clone())),
            }
        }
        if !settings.relay.is_empty() && widgets::button(ui, "Public relays").clicked() {
            form.typed = Some(String::new());
            intent = Some(SettingsIntent::Relay(String::new()));
        }
    });
    if let Some(why) = &form.error {
        ui.label(RichText::new(why).color(palette.warn));
    }
    intent
}

/// The page's fingerprint, the same on every Hoard built from the same sources: a BLAKE3
/// hash over its files (each name, length and bytes, in name order), its first 8 bytes as
/// four groups of hex. `None` for no page.
pub fn fingerprint(files: &[(&str, &[u8])]) -> Option<String> {
    if files.is_empty() {
        return None;
    }
    let mut sorted: Vec<&(&str, &[u8])> = files.iter().collect();
    sorted.sort_by_key(|(name, _)| *name);
    let mut hasher = blake3::Hasher::new();
    for (name, bytes) in sorted {
        hasher.update(&(name.len() as u64).to_le_bytes());
        hasher.update(name.as_bytes());
        hasher.update(&(bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    }
    let hash = hasher.finalize();
    let groups: Vec<String> = hash.as_bytes()[..8]
        .chunks(2)
        .map(|pair| format!("{:02x}{:02x}", pair[0], pair[1]))
        .collect();
    Some(groups.join("-"))
}

#[cfg(test)]
mod tests {
    use super::fingerprint;

    /// The same files give the same fingerprint in any order; a changed byte or name does
    /// not; no page has none.
    #[test]
    fn a_pages_fingerprint_follows_its_bytes_not_their_order() {
        let page: [(&str, &[u8]); 2] = [("index.html", b"<html>"), ("hoard.wasm", b"\0asm")];
        let swapped = [page[1], page[0]];
        let fp = fingerprint(&page).expect("a page");
        assert_eq!(fingerprint(&swapped), Some(fp.clone()));
        assert_eq!(fp.len(), 19, "four groups of four: {fp}");
        let changed: [(&str, &[u8]); 2] = [("index.html", b"<html!"), ("hoard.wasm", b"\0asm")];
        assert_ne!(fingerprint(&changed), Some(fp.clone()));
        let renamed: [(&str, &[u8]); 2] = [("index.htm", b"<html>"), ("hoard.wasm", b"\0asm")];
        assert_ne!(fingerprint(&renamed), Some(fp));
        assert_eq!(fingerprint(&[]), None);
    }
}
