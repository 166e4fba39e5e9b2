//! The first screen a new player sees (and the one to change name or colour later):
//! a name typed on the app's keys and a colour picked from the seat palette.

use crate::settings::{MAX_NAME, Profile, clean_name};
use crate::theme::{self, SEAT_COLOURS, TOUCH};
use crate::widgets::{self, entry::Entry, keypad::KeypadKind};
use egui::{RichText, Sense, Stroke, Vec2};

/// The form's state between frames.
#[derive(Clone, Debug)]
pub struct ProfileForm {
    pub name: String,
    pub colour: [u8; 3],
    entry: Entry,
}

impl ProfileForm {
    pub fn new(profile: Option<&Profile>) -> ProfileForm {
        ProfileForm {
            name: profile.map(|p| p.name.clone()).unwrap_or_default(),
            colour: profile.map(|p| p.colour).unwrap_or(SEAT_COLOURS[0].0),
            entry: Entry::default(),
        }
    }
}

pub enum ProfileIntent {
    Save(Profile),
    Cancel,
}

/// `first_run` hides Cancel: there is nothing to go back to without a name.
pub fn show(
    ui: &mut egui::Ui,
    form: &mut ProfileForm,
    first_run: bool,
    phone: bool,
) -> Option<ProfileIntent> {
    let mut intent = None;
    let back = if first_run { None } else { Some("Back") };
    let title = if first_run {
        "Welcome to Hoard"
    } else {
        "Your name and colour"
    };
    if widgets::top_bar(ui, title, back) {
        intent = Some(ProfileIntent::Cancel);
    }
    egui::ScrollArea::vertical().show(ui, |ui| {
        if first_run {
            ui.label("A game table for friends in one room. Choose how the others will see you.");
            ui.add_space(4.0);
        }
        form.entry.show(
            ui,
            "Your name",
            "Type your name",
            KeypadKind::Name,
            &mut form.name,
            MAX_NAME,
            phone,
        );
        ui.add_space(8.0);
        ui.label(RichText::new("Your colour").strong());
        let size = TOUCH + 4.0;
        let gap = ui.spacing().item_spacing.x;
        let per_row = (((ui.available_width() + gap) / (size + gap)).floor() as usize).clamp(4, 8);
        for row in SEAT_COLOURS.chunks(per_row) {
            ui.horizontal(|ui| {
                for (rgb, name) in row {
                    let chosen = form.colour == *rgb;
                    let (rect, response) =
                        ui.allocate_exact_size(Vec2::splat(size), Sense::click());
                    let stroke = if chosen {
                        Stroke::new(4.0, ui.visuals().strong_text_color())
                    } else {
                        Stroke::new(1.0, ui.visuals().weak_text_color())
                    };
                    ui.painter().circle(
                        rect.center(),
                        size / 2.0 - 4.0,
                        theme::colour(*rgb),
                        stroke,
                    );
                    response.widget_info(|| {
                        egui::WidgetInfo::selected(egui::Role::RadioButton, true, chosen, *name)
                    });
                    if response.clicked() {
                        form.colour = *rgb;
                    }
                }
            });
        }
        ui.add_space(12.0);
        let name = clean_name(&form.name);
        let label = if first_run { "Let's play" } else { "Save" };
        if widgets::primary_enabled(ui, name.is_some(), label).clicked()
            && let Some(name) = name
        {
            intent = Some(ProfileIntent::Save(Profile {
                name,
                colour: form.colour,
            }));
        }
    });
    intent
}
