//! The page's entry point: the browser runs this when the page loads its script, and the app
//! starts on the page's canvas (see `hoard_app::web`). Built only for
//! `wasm32-unknown-unknown`; elsewhere this crate is empty.

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn main() {
    hoard_app::web::start();
}

/// What the page shows, for its tests: see `hoard_app::web::shown`.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hoard_shown() -> String {
    hoard_app::web::shown()
}
