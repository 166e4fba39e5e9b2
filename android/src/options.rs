//! The options hoard-app runs with on a phone: data in the activity's private folder, phone layout.

use std::path::PathBuf;

use hoard_app::RunOptions;

use crate::AndroidError;

/// The file (inside the data folder) where egui keeps its own state between runs: theme, scroll
/// positions and what the app stores through eframe. Game data is the store's business, not this.
pub const UI_STATE_FILE: &str = "ui-state.ron";

/// Options for [`hoard_app::run`] on a phone, with all data under `data_dir` (on Android the
/// activity's `internal_data_path`, which survives app restarts and updates). The folder is
/// created if missing. The caller adds the `AndroidApp` handle on Android.
pub fn run_options(data_dir: PathBuf) -> Result<RunOptions, AndroidError> {
    std::fs::create_dir_all(&data_dir).map_err(|source| AndroidError::DataDir {
        path: data_dir.clone(),
        source,
    })?;
    let native = eframe::NativeOptions {
        // eframe has no storage folder of its own on Android (its `storage_dir` is None there),
        // so without a file here nothing egui keeps would outlive the process.
        persistence_path: Some(data_dir.join(UI_STATE_FILE)),
        ..Default::default()
    };
    Ok(RunOptions {
        data_dir,
        native,
        phone: true,
        // Android adds its own (the system bars, the screen), around the activity.
        platform: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "hoard-android-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn ui_state_is_a_file_inside_the_data_folder_so_it_survives_restarts() {
        let dir = scratch_dir("ui-state");
        let options = run_options(dir.clone()).expect("a temp folder can be created");
        let path = options
            .native
            .persistence_path
            .expect("a persistence file is always set on a phone");
        assert_eq!(path.parent(), Some(dir.as_path()));
        assert_eq!(
            path.file_name().and_then(|n| n.to_str()),
            Some(UI_STATE_FILE)
        );
        assert_eq!(options.data_dir, dir);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn phone_layout_is_asked_for() {
        let dir = scratch_dir("phone");
        let options = run_options(dir.clone()).expect("a temp folder can be created");
        assert!(
            options.phone,
            "the status-bar margin and portrait layout need phone = true"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_data_folder_is_created_before_the_app_starts() {
        let root = scratch_dir("missing");
        let dir = root.join("nested").join("files");
        assert!(!dir.exists());
        run_options(dir.clone()).expect("a temp folder can be created");
        assert!(dir.is_dir());
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn an_unusable_data_folder_is_reported_with_its_path() {
        let dir = scratch_dir("blocked");
        std::fs::create_dir_all(&dir).expect("a temp folder can be created");
        // A plain file where a folder should be: create_dir_all under it fails.
        let blocker = dir.join("not-a-folder");
        std::fs::write(&blocker, b"x").expect("a temp file can be written");
        let Err(err) = run_options(blocker.join("files")) else {
            panic!("a folder under a plain file cannot be created");
        };
        let message = err.to_string();
        assert!(message.contains("not-a-folder"), "{message}");
        assert!(message.contains("storage folder"), "{message}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
