//! The look of the table: dark and light palettes, phone-sized text and touch targets,
//! and the colours players pick for their seats.

use egui::{Color32, FontFamily, FontId, Stroke, TextStyle, Theme, Vec2};
use hoard_net::colours::SEAT_COLOURS as PALETTE;
use serde::{Deserialize, Serialize};

/// The smallest side of anything a finger must hit, in points (Android's 48 dp rule).
pub const TOUCH: f32 = 48.0;

/// Widest a single column of content grows on a laptop; beyond this it is centred.
pub const MAX_COLUMN: f32 = 760.0;

/// Widest a game table grows.
pub const MAX_TABLE: f32 = 1280.0;

/// Which palette the player chose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ThemeChoice {
    /// Follow the device.
    #[default]
    System,
    Dark,
    Light,
}

impl ThemeChoice {
    pub fn label(self) -> &'static str {
        match self {
            ThemeChoice::System => "Like the device",
            ThemeChoice::Dark => "Dark",
            ThemeChoice::Light => "Light",
        }
    }

    pub fn preference(self) -> egui::ThemePreference {
        match self {
            ThemeChoice::System => egui::ThemePreference::System,
            ThemeChoice::Dark => egui::ThemePreference::Dark,
            ThemeChoice::Light => egui::ThemePreference::Light,
        }
    }
}

/// The seat colours a player can pick (the network's palette, which keeps them apart at a
/// table), with their names: distinct in both themes and for the common
/// kinds of colour blindness when paired with the name shown beside every token.
pub const SEAT_COLOURS: [([u8; 3], &str); 8] = [
    (PALETTE[0], "Red"),
    (PALETTE[1], "Blue"),
    (PALETTE[2], "Yellow"),
    (PALETTE[3], "Green"),
    (PALETTE[4], "Purple"),
    (PALETTE[5], "Orange"),
    (PALETTE[6], "Teal"),
    (PALETTE[7], "Pink"),
];

/// A player's colour as egui wants it.
pub fn colour(rgb: [u8; 3]) -> Color32 {
    Color32::from_rgb(rgb[0], rgb[1], rgb[2])
}

/// The name of a palette colour, or a neutral word for any other.
pub fn colour_name(rgb: [u8; 3]) -> &'static str {
    SEAT_COLOURS
        .iter()
        .find(|(c, _)| *c == rgb)
        .map(|(_, n)| *n)
        .unwrap_or("Custom")
}

/// Colours the screens use beyond egui's own widgets.
#[derive(Clone, Copy, Debug)]
pub struct Palette {
    /// The table surface behind the board.
    pub felt: Color32,
    /// A room tile on the track.
    pub room: Color32,
    pub room_edge: Color32,
    /// Card faces.
    pub card: Color32,
    pub card_ink: Color32,
    pub card_back: Color32,
    pub card_back_pattern: Color32,
    /// Highlights: the chosen card, my seat, a good outcome.
    pub accent: Color32,
    pub good: Color32,
    pub warn: Color32,
    pub muted: Color32,
}

impl Palette {
    pub fn of(ui: &egui::Ui) -> Palette {
        Palette::for_theme(ui.ctx().theme())
    }

    pub fn for_theme(theme: Theme) -> Palette {
        match theme {
            Theme::Dark => Palette {
                felt: Color32::from_rgb(22, 46, 40),
                room: Color32::from_rgb(44, 70, 62),
                room_edge: Color32::from_rgb(110, 150, 130),
                card: Color32::from_rgb(246, 238, 220),
                card_ink: Color32::from_rgb(35, 30, 25),
                card_back: Color32::from_rgb(120, 36, 40),
                card_back_pattern: Color32::from_rgb(200, 160, 80),
                accent: Color32::from_rgb(250, 200, 70),
                good: Color32::from_rgb(110, 210, 120),
                warn: Color32::from_rgb(250, 130, 90),
                muted: Color32::from_rgb(160, 170, 165),
            },
            Theme::Light => Palette {
                felt: Color32::from_rgb(226, 236, 226),
                room: Color32::from_rgb(250, 250, 244),
                room_edge: Color32::from_rgb(90, 120, 100),
                card: Color32::from_rgb(255, 252, 242),
                card_ink: Color32::from_rgb(30, 28, 24),
                card_back: Color32::from_rgb(140, 40, 46),
                card_back_pattern: Color32::from_rgb(226, 186, 96),
                accent: Color32::from_rgb(200, 130, 0),
                good: Color32::from_rgb(20, 130, 50),
                warn: Color32::from_rgb(190, 60, 30),
                muted: Color32::from_rgb(95, 100, 98),
            },
        }
    }
}

/// Sets text sizes and spacing for fingers, in both themes, and the theme itself.
pub fn apply(ctx: &egui::Context, choice: ThemeChoice) {
    ctx.set_theme(choice.preference());
    ctx.all_styles_mut(|style| {
        style.text_styles = [
            (
                TextStyle::Small,
                FontId::new(14.0, FontFamily::Proportional),
            ),
            (TextStyle::Body, FontId::new(18.0, FontFamily::Proportional)),
            (
                TextStyle::Button,
                FontId::new(19.0, FontFamily::Proportional),
            ),
            (
                TextStyle::Heading,
                FontId::new(26.0, FontFamily::Proportional),
            ),
            (
                TextStyle::Monospace,
                FontId::new(16.0, FontFamily::Monospace),
            ),
        ]
        .into();
        let spacing = &mut style.spacing;
        // Rows stay compact; every control sets its own finger-sized minimum (TOUCH).
        spacing.interact_size = Vec2::new(40.0, 26.0);
        spacing.button_padding = Vec2::new(14.0, 10.0);
        spacing.item_spacing = Vec2::new(10.0, 10.0);
        spacing.scroll.bar_width = 10.0;
        spacing.icon_width = 26.0;
        spacing.icon_width_inner = 16.0;
        // Nothing on a phone can hover: tooltips would never show, so none are relied on.
        style.interaction.tooltip_delay = 0.6;
        style.visuals.widgets.inactive.corner_radius = 10.into();
        style.visuals.widgets.hovered.corner_radius = 10.into();
        style.visuals.widgets.active.corner_radius = 10.into();
        style.visuals.widgets.noninteractive.corner_radius = 10.into();
        style.visuals.selection.stroke = Stroke::new(2.0, style.visuals.selection.stroke.color);
    });
}
