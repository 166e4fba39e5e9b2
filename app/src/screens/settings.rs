//! Settings: the theme, Wi-Fi or offline, and a way to the name-and-colour form.

use crate::settings::{NetworkChoice, Settings};
use crate::theme::ThemeChoice;
use crate::widgets;
use egui::RichText;

pub enum SettingsIntent {
    Back,
    Theme(ThemeChoice),
    Network(NetworkChoice),
    EditProfile,
}

pub fn show(ui: &mut egui::Ui, settings: &Settings) -> Option<SettingsIntent> {
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
        ui.add_space(8.0);
        ui.label(RichText::new("Playing with").strong());
        for (choice, text) in [
            (NetworkChoice::Wifi, "Friends on this Wi-Fi"),
            (
                NetworkChoice::Offline,
                "Bots only, on this device (no network)",
            ),
        ] {
            if widgets::choice(ui, settings.network == choice, text) {
                intent = Some(SettingsIntent::Network(choice));
            }
        }
        ui.label(
            RichText::new(
                "Games in progress are kept on this device either way and can be resumed later.",
            )
            .weak(),
        );
    });
    intent
}
