//! A real browser for the page's tests: headless Chromium driven over the DevTools protocol
//! on a pipe (`--remote-debugging-pipe`: commands on its fd 3, answers on its fd 4, each a
//! JSON message ended by a NUL byte), so no socket and no extra crate is needed. The page is
//! tapped with touch events where it shows what a player would tap: the page tells where
//! through `window.hoardShown()` (`hoard_app::web::shown`). The browser is killed on drop.

use crate::{Line, Peer, Scratch, wait_line};
use serde_json::{Value, json};
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{OnceLock, mpsc};
use std::time::{Duration, Instant};

/// The page's files: built (or brought up to date) by `web/build.sh` once per process, into
/// `target/page`, with a target folder of its own (`target/page-test-build`) so the build
/// never waits on the one running the tests. It is not the one a release `hoard` builds its
/// page in (`target/page-build`, from app/build.rs): a build script's environment differs
/// from a test's, and sharing one folder rebuilt the page's C and everything above it at
/// each turn from one to the other.
pub fn page() -> &'static Path {
    static PAGE: OnceLock<PathBuf> = OnceLock::new();
    PAGE.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let out = root.join("target/page");
        let status = Command::new(root.join("web/build.sh"))
            .arg(&out)
            .env("CARGO_TARGET_DIR", root.join("target/page-test-build"))
            .status()
            .expect("web/build.sh runs");
        assert!(
            status.success(),
            "web/build.sh failed: the page could not be built"
        );
        out
    })
}

/// `hoard page --loopback` (the CLI in `bin`) serving [`page`], and the page's address.
pub fn serve(bin: &Path, scratch: &Scratch) -> (Peer, String) {
    let (tx, lines) = mpsc::channel::<Line>();
    let args = vec![
        "page".to_string(),
        "--loopback".into(),
        "--dir".into(),
        page().display().to_string(),
    ];
    let peer = Peer::spawn(bin, "page", &args, &scratch.dir("server"), &tx);
    let mut seen = Vec::new();
    let url = wait_line(
        &lines,
        Instant::now() + Duration::from_secs(20),
        &mut seen,
        |l| l.text.strip_prefix("PAGE ").map(String::from),
    )
    .unwrap_or_else(|| panic!("the page was not served: {seen:?}"));
    (peer, url)
}

/// How long a tap waits for what it taps to show.
pub const TAP: Duration = Duration::from_secs(20);

/// The words of what can be tapped.
pub fn buttons(shown: &[Shown]) -> Vec<String> {
    shown
        .iter()
        .filter(|s| s.tap)
        .map(|s| s.words.clone())
        .collect()
}

/// Something the page shows (see `hoard_app::web::shown`).
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// It can be tapped (a button, enabled).
    pub tap: bool,
    pub words: String,
}

impl Shown {
    fn parse(line: &str) -> Option<Shown> {
        let mut f = line.splitn(6, '\t');
        let mut num = || f.next()?.parse::<f64>().ok();
        let (x, y, w, h) = (num()?, num()?, num()?, num()?);
        let tap = f.next()? == "1";
        let words = f.next()?.to_string();
        Some(Shown {
            x,
            y,
            w,
            h,
            tap,
            words,
        })
    }
}

/// A headless Chromium with one page open.
pub struct Browser {
    child: Child,
    commands: File,
    answers: mpsc::Receiver<Value>,
    session: String,
    /// The tab driven.
    tab: String,
    next: u64,
    width: u32,
    height: u32,
    _profile: Scratch,
}

/// Chromium as Debian names it (`chromium`), or as others do.
pub fn chromium() -> Option<String> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .map(str::to_string)
}

fn pipe() -> Result<(RawFd, RawFd), String> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(format!("pipe: {}", std::io::Error::last_os_error()));
    }
    // Above 9, so neither can be 3 or 4, which the child's ends are moved to.
    let high = |fd: RawFd| {
        // SAFETY: duplicating a descriptor this process owns.
        let h = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 10) };
        // SAFETY: `fd` is ours and no longer used.
        unsafe { libc::close(fd) };
        h
    };
    Ok((high(fds[0]), high(fds[1])))
}

impl Browser {
    /// Starts Chromium with a page of `width`×`height` CSS pixels (a phone's, with touch)
    /// showing `url`.
    pub fn open(url: &str, width: u32, height: u32) -> Result<Browser, String> {
        let bin = chromium().ok_or("no chromium to run (Debian: apt-get install chromium)")?;
        let profile = Scratch::new("chromium");
        let (their_in, our_out) = pipe()?;
        let (our_in, their_out) = pipe()?;
        let mut cmd = Command::new(bin);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--remote-debugging-pipe",
            "--no-first-run",
            "--no-default-browser-check",
            "--enable-unsafe-swiftshader",
            "--use-angle=swiftshader",
            "--disable-background-timer-throttling",
            "--disable-renderer-backgrounding",
            // A tab opened over the first window is occluded: without this, it draws no
            // frames (and takes no taps) until something like a screenshot asks for one.
            "--disable-backgrounding-occluded-windows",
            &format!("--window-size={width},{height}"),
            &format!("--user-data-dir={}", profile.path.display()),
            "about:blank",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (dup2) between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                if libc::dup2(their_in, 3) < 0 || libc::dup2(their_out, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().map_err(|e| format!("chromium: {e}"))?;
        // SAFETY: the child has its copies; ours of its ends are closed, and the two left
        // are owned by the files made here.
        let (commands, answers_file) = unsafe {
            libc::close(their_in);
            libc::close(their_out);
            (File::from_raw_fd(our_out), File::from_raw_fd(our_in))
        };
        let (tx, answers) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(answers_file);
            let mut buf = Vec::new();
            while reader.read_until(0, &mut buf).is_ok_and(|n| n > 0) {
                buf.pop();
                if let Ok(v) = serde_json::from_slice::<Value>(&buf)
                    && tx.send(v).is_err()
                {
                    return;
                }
                buf.clear();
            }
        });
        let mut browser = Browser {
            child,
            commands,
            answers,
            session: String::new(),
            tab: String::new(),
            next: 0,
            width,
            height,
            _profile: profile,
        };
        browser.open_tab(url)?;
        Ok(browser)
    }

    /// Opens `url` in a new tab of a phone's size, with touch, and drives that tab from now on.
    fn open_tab(&mut self, url: &str) -> Result<(), String> {
        let target = self.call_browser("Target.createTarget", json!({ "url": "about:blank" }))?;
        self.tab = target["targetId"]
            .as_str()
            .ok_or("no target id")?
            .to_string();
        let attached = self.call_browser(
            "Target.attachToTarget",
            json!({ "targetId": self.tab, "flatten": true }),
        )?;
        self.session = attached["sessionId"]
            .as_str()
            .ok_or("no session id")?
            .to_string();
        let (width, height) = (self.width, self.height);
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": true }),
        )?;
        self.call(
            "Emulation.setTouchEmulationEnabled",
            json!({ "enabled": true, "maxTouchPoints": 1 }),
        )?;
        self.call("Page.enable", json!({}))?;
        self.call("Page.bringToFront", json!({}))?;
        self.call(
            "Emulation.setFocusEmulationEnabled",
            json!({ "enabled": true }),
        )?;
        self.call("Page.navigate", json!({ "url": url }))?;
        Ok(())
    }

    /// Closes the tab and opens `url` in a new one of the same browser, whose storage is
    /// kept: a player who closed the page and opened its address again.
    pub fn close_tab_and_open(&mut self, url: &str) -> Result<(), String> {
        let tab = self.tab.clone();
        self.call_browser("Target.closeTarget", json!({ "targetId": tab }))?;
        self.open_tab(url)
    }

    fn send(&mut self, method: &str, params: Value, session: bool) -> Result<Value, String> {
        self.next += 1;
        let id = self.next;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if session {
            msg["sessionId"] = json!(self.session);
        }
        let mut bytes = serde_json::to_vec(&msg).map_err(|e| e.to_string())?;
        bytes.push(0);
        self.commands
            .write_all(&bytes)
            .map_err(|e| format!("{method}: the browser is gone ({e})"))?;
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let answer = self
                .answers
                .recv_timeout(left)
                .map_err(|_| format!("{method}: no answer from the browser"))?;
            if answer["id"].as_u64() != Some(id) {
                continue;
            }
            if let Some(e) = answer.get("error") {
                return Err(format!("{method}: {e}"));
            }
            return Ok(answer["result"].clone());
        }
    }

    fn call_browser(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.send(method, params, false)
    }

    /// A DevTools command to the page.
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.send(method, params, true)
    }

    /// The value of a JavaScript expression on the page.
    pub fn eval(&mut self, expression: &str) -> Result<Value, String> {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        )?;
        if let Some(e) = r.get("exceptionDetails") {
            return Err(format!("{expression}: {e}"));
        }
        Ok(r["result"]["value"].clone())
    }

    /// What the page shows now (empty until the app has drawn).
    pub fn shown(&mut self) -> Vec<Shown> {
        let text = self
            .eval("window.hoardShown ? window.hoardShown() : ''")
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        text.lines().filter_map(Shown::parse).collect()
    }

    /// A finger's tap at (`x`, `y`) in CSS pixels.
    pub fn tap_at(&mut self, x: f64, y: f64) -> Result<(), String> {
        let point = json!([{ "x": x, "y": y }]);
        self.call(
            "Input.dispatchTouchEvent",
            json!({ "type": "touchStart", "touchPoints": point }),
        )?;
        // A finger rests a moment: a press and a lift in one frame (a busy machine) would
        // lose the tap, as a real tap never does.
        std::thread::sleep(Duration::from_millis(120));
        self.call(
            "Input.dispatchTouchEvent",
            json!({ "type": "touchEnd", "touchPoints": [] }),
        )?;
        Ok(())
    }

    /// A finger dragged up the middle of the page by `by` CSS pixels (down, if negative):
    /// the page scrolls that much towards its end.
    pub fn swipe(&mut self, by: f64) -> Result<(), String> {
        let x = f64::from(self.width) / 2.0;
        let from = f64::from(self.height) / 2.0 + by / 2.0;
        self.call(
            "Input.dispatchTouchEvent",
            json!({ "type": "touchStart", "touchPoints": [{ "x": x, "y": from }] }),
        )?;
        for i in 1..=10 {
            let y = from - by * f64::from(i) / 10.0;
            self.call(
                "Input.dispatchTouchEvent",
                json!({ "type": "touchMove", "touchPoints": [{ "x": x, "y": y }] }),
            )?;
            std::thread::sleep(Duration::from_millis(16));
        }
        // Held still a moment before lifting, so the scroll stops where the finger did.
        std::thread::sleep(Duration::from_millis(100));
        self.call(
            "Input.dispatchTouchEvent",
            json!({ "type": "touchEnd", "touchPoints": [] }),
        )?;
        std::thread::sleep(Duration::from_millis(200));
        Ok(())
    }

    /// Taps the middle of the first tappable thing whose words are `words`, waiting up to
    /// `wait` for it to show.
    /// It is scrolled into view first, with a finger's swipe, as a player would.
    pub fn tap(&mut self, words: &str, wait: Duration) -> Result<(), String> {
        // The thing, and whether its middle is hidden under something else the page shows
        // there: a panel pinned over the scrolling page (the lobby's Start) keeps what
        // scrolled under it in the page's list, at its place.
        let pick = |s: &[Shown]| {
            let found = s.iter().find(|s| s.tap && s.words == words)?;
            let (x, y) = (found.x + found.w / 2.0, found.y + found.h / 2.0);
            let over = |o: &Shown| (o.x..o.x + o.w).contains(&x) && (o.y..o.y + o.h).contains(&y);
            let within = |o: &Shown| {
                o.x >= found.x
                    && o.y >= found.y
                    && o.x + o.w <= found.x + found.w
                    && o.y + o.h <= found.y + found.h
            };
            let hidden = s
                .iter()
                .any(|o| o.words != found.words && over(o) && !within(o));
            Some((found.clone(), hidden))
        };
        let (mut found, mut hidden) = self.wait_for(wait, pick)?;
        for _ in 0..12 {
            let middle = found.y + found.h / 2.0;
            let (top, bottom) = (8.0, f64::from(self.height) - 8.0);
            if (top..bottom).contains(&middle) && !hidden {
                // A swipe leaves the page gliding on for a moment: tapped only once it is
                // where it was a frame or two ago, or the finger lands on what glides in.
                // (Gone by then, the table moved on: not tapped.)
                std::thread::sleep(Duration::from_millis(80));
                let now = self.wait_for(wait.min(Duration::from_secs(1)), pick)?;
                let still = (now.0.y - found.y).abs() < 0.5 && !now.1;
                (found, hidden) = now;
                if still {
                    break;
                }
                continue;
            }
            // Up to a third of a screen at a time, towards the upper part of the screen
            // (what is hidden is under something pinned at the bottom).
            let third = f64::from(self.height) / 3.0;
            let by = (middle - third).clamp(-third, third);
            self.swipe(by)?;
            (found, hidden) = self.wait_for(wait, pick)?;
        }
        self.tap_at(found.x + found.w / 2.0, found.y + found.h / 2.0)?;
        // A frame for the app to take the tap.
        std::thread::sleep(Duration::from_millis(60));
        Ok(())
    }

    /// Waits up to `wait` for `what` to find something in what the page shows.
    pub fn wait_for<T>(
        &mut self,
        wait: Duration,
        mut what: impl FnMut(&[Shown]) -> Option<T>,
    ) -> Result<T, String> {
        let deadline = Instant::now() + wait;
        loop {
            let shown = self.shown();
            if let Some(t) = what(&shown) {
                return Ok(t);
            }
            if Instant::now() >= deadline {
                let words: Vec<&str> = shown.iter().map(|s| s.words.as_str()).collect();
                return Err(format!("not shown in time; the page shows {words:?}"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Whether something the page shows has words containing `part`.
    pub fn shows(&mut self, part: &str) -> bool {
        self.shown().iter().any(|s| s.words.contains(part))
    }

    /// Reloads the page, as a player pulling down or a phone bringing a killed tab back.
    pub fn reload(&mut self) -> Result<(), String> {
        self.call("Page.reload", json!({}))?;
        Ok(())
    }

    /// A PNG of the page as it looks now.
    pub fn screenshot(&mut self) -> Result<Vec<u8>, String> {
        use base64::Engine;
        let r = self.call("Page.captureScreenshot", json!({ "format": "png" }))?;
        let data = r["data"].as_str().ok_or("no screenshot")?;
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| e.to_string())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a player does on the page, as the tests and the page's bench play it.
impl Browser {
    /// Types `text` on the app's own keypad, as the kittest helper does: a letter of the
    /// case the keypad is not showing changes its case first (the keypad changes case by
    /// itself after a first capital, a frame later, so what it shows is looked at again
    /// before each change).
    pub fn type_on_keys(&mut self, text: &str) -> Result<(), String> {
        for c in text.chars() {
            let key = c.to_string();
            let shown = |s: &[Shown]| s.iter().any(|x| x.tap && x.words == key).then_some(());
            for _ in 0..4 {
                if self.wait_for(Duration::from_millis(700), shown).is_ok() {
                    break;
                }
                let case = ["abc", "ABC"]
                    .into_iter()
                    .find(|k| self.shown().iter().any(|s| s.tap && s.words == *k))
                    .ok_or("no key to change case")?;
                self.tap(case, TAP)?;
            }
            self.tap(&key, TAP)?;
        }
        Ok(())
    }

    /// A first run: the name typed on the keypad, a colour, "Let's play".
    pub fn first_run(&mut self, name: &str, colour: &str) {
        self.wait_for(Duration::from_secs(60), |s| {
            s.iter()
                .any(|x| x.words == "Welcome to Hoard")
                .then_some(())
        })
        .expect("the welcome screen");
        self.type_on_keys(name).expect("typed on the keypad");
        self.tap(colour, TAP).expect("a colour");
        self.tap("Let's play", TAP).expect("Let's play");
    }

    /// From the home screen, a table of the page's own with `bots` bots, for Counter with
    /// one second to counter, started.
    pub fn host_counter_with_bots(&mut self, bots: usize) {
        self.tap("Host a table", TAP).expect("Host a table");
        for n in 1..=bots {
            let seated =
                |s: &[Shown]| (s.iter().filter(|x| x.words == "Remove").count() >= n).then_some(());
            // A tap read from the frame before may miss as the seats above move: tap again.
            for _ in 0..5 {
                self.tap("Add a bot", TAP).expect("Add a bot");
                if self.wait_for(Duration::from_secs(3), seated).is_ok() {
                    break;
                }
            }
            self.wait_for(TAP, seated).expect("the bot sits down");
        }
        self.tap("Counter", TAP).expect("Counter");
        self.tap("1 s", TAP).expect("one second to counter");
        self.tap("Start the game", TAP).expect("start");
    }

    /// One thing Counter asks of the player, if it asks anything (as `counter_play.rs`
    /// plays): lets a card stand, or plays the highest card, or draws, or waits. Returns
    /// whether it tapped anything.
    pub fn play_counter_once(&mut self) -> Result<bool, String> {
        let buttons = buttons(&self.shown());
        if buttons.iter().any(|x| x == "Let it stand") {
            // A window closes by itself: tapped only if still there.
            let _ = self.tap("Let it stand", Duration::from_millis(500));
            return Ok(true);
        }
        let number = |label: &str| -> Option<u8> {
            label
                .strip_prefix("Counter with your ")
                .or(label.strip_prefix("Your "))?
                .parse()
                .ok()
        };
        let mut cards: Vec<(u8, String)> = buttons
            .iter()
            .filter(|x| x.starts_with("Your "))
            .filter_map(|x| Some((number(x)?, x.clone())))
            .collect();
        cards.sort();
        if let Some((_, highest)) = cards.last() {
            // Gone before the finger came down (the game moved on): nothing tapped.
            if self.tap(highest, Duration::from_secs(2)).is_err() {
                return Ok(false);
            }
            // A card dealt a moment ago may still be sliding in under the finger: a tap that
            // picked nothing is tapped again, as a player would.
            return Ok(self.tap("Play it", Duration::from_secs(3)).is_ok());
        }
        for mv in ["Draw", "Wait"] {
            if buttons.iter().any(|x| x == mv) {
                return Ok(self.tap(mv, Duration::from_secs(2)).is_ok());
            }
        }
        Ok(false)
    }
}
