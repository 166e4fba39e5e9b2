//! Headless subcommands of the `hoard` binary: host or join a table and let bots play it
//! through the same handle (and so the same protocol) as the screens, then print the
//! result as one parseable line. A killed process restarted with the same `--data-dir`
//! resumes its unfinished game.
//!
//! ```text
//! hoard host --game greedquest [--bots N] [--seats N] [--variant V] [--name NAME]
//!            [--table NAME] [--data-dir DIR] [--loopback | --offline | --relay | --relay-url URL] [--timeout S]
//! hoard join <ticket> --bot [--name NAME] [--data-dir DIR] [--loopback | --relay | --relay-url URL] [--timeout S]
//! hoard tables [--wait S]          list the open tables on this network
//! hoard page [--dir DIR] [--port N] [--loopback]   serve the browser seats' page and relay
//! ```
//!
//! Standard output carries machine-readable lines only:
//! `TICKET <code>`, `SESSION <id>`, `STEP <n>` and `LOG <line>` as the game moves, and finally
//! `RESULT session=<hex> step=<n> state=<hex> audit=verified winners=<seats>` (or
//! `audit=verified-except winners=<seats> unchecked=<words>` when seats removed before they
//! revealed left what they hid unchecked, `audit=fault seat=<s> step=<n> what=<words>`, or
//! `audit=halted what=<words>`); `page` prints `PAGE <address>` once it serves.
//! Exit status: 0 verified (with or without exceptions), 2 a fault or a halted game, 1
//! anything else (with a message on standard error).

use hoard_net::games;
use hoard_net::handle::{
    AuditVerdict, Command, DeviceConfig, DeviceHandle, GameSetup, GameView, LobbyView, Network,
    Relays, Update, unchecked_words,
};
use hoard_rules::Seat;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Runs a headless subcommand; `args` excludes the program name.
pub fn run<I, S>(args: I) -> ExitCode
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let args: Vec<String> = args.into_iter().map(Into::into).collect();
    match parse(&args).and_then(execute) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("hoard: {message}");
            ExitCode::from(1)
        }
    }
}

/// The usage text, with every game Hoard plays and its variants.
fn help() -> String {
    let mut text = format!(
        "\
hoard host --game {} [--bots N] [--seats N] [--variant V] [--name NAME]
           [--table NAME] [--data-dir DIR] [--loopback|--offline|--relay|--relay-url URL] [--timeout SECS]
           [--page DIR]
    Open a table, print its join code (TICKET ...), wait for --seats players (default:
    you and the bots), start, let bots play every seat of this device, print RESULT.
    With --page, also serve the browser seats' page from DIR (--page embedded: the page
    this hoard carries, when its release build made one) and the table's relay
    (PAGE <address>: a phone opens <address>#join=<code> to sit down).
",
        games::names().join("|")
    );
    for setup in games::all() {
        if !setup.variants().is_empty() {
            text += &format!(
                "    {} variants (comma-separated): {}.\n",
                setup.title(),
                setup.variants().join(", ")
            );
        }
    }
    text += "\
hoard join <ticket> --bot [--name NAME] [--data-dir DIR] [--loopback|--relay|--relay-url URL] [--timeout SECS]
    Sit at a table by its join code and let a bot play the seat; print RESULT.
hoard tables [--wait SECS]
    List the open tables on this network.
hoard page [--dir DIR] [--port N] [--loopback]
    Serve the page for browser seats (built by web/build.sh into DIR; by default the page
    this hoard carries, or web/dist when it carries none)
    and the table's relay on one port (default: any free one), on this machine's LAN
    address (with --loopback: 127.0.0.1 only); print PAGE <address> and serve until stopped.
--relay plays over the internet through iroh's public relays; --relay-url URL through the
players' own relay (an iroh-relay server) instead.
With --data-dir holding an unfinished game, host and join resume it instead.";
    text
}

/// The games as a reader would list them: "greedquest or sprawl".
fn game_list() -> String {
    let names = games::names();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Mode {
    Host {
        setup: GameSetup,
        bots: u8,
        seats: Option<u8>,
        table: String,
    },
    Join {
        ticket: String,
    },
    Tables {
        wait: Duration,
    },
    Page {
        dir: PathBuf,
        port: u16,
    },
    Help,
}

#[derive(Debug, Clone, PartialEq)]
struct Options {
    mode: Mode,
    name: Option<String>,
    data_dir: Option<PathBuf>,
    network: Network,
    timeout: Duration,
    /// After the result, keep serving peers this long so they can finish their audit.
    linger: Duration,
    /// Host: also serve the browser seats' page from this folder (and the table's relay).
    page: Option<PathBuf>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let Some(sub) = args.first() else {
        return Err(format!("which subcommand?\n{}", help()));
    };
    let mut game = None;
    let mut variants = Vec::new();
    let mut bots = 0u8;
    let mut seats = None;
    let mut table = None;
    let mut ticket = None;
    let mut bot = false;
    let mut wait = Duration::from_secs(3);
    let mut page_dir = None;
    let mut port = 0u16;
    let mut opts = Options {
        mode: Mode::Help,
        name: None,
        data_dir: None,
        network: Network::Lan,
        timeout: Duration::from_secs(600),
        linger: Duration::from_millis(1500),
        page: None,
    };
    let mut it = args[1..].iter();
    let number = |flag: &str, v: Option<&String>| -> Result<u64, String> {
        v.ok_or(format!("{flag} needs a number"))?
            .parse::<u64>()
            .map_err(|_| format!("{flag} needs a number"))
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--game" => game = Some(it.next().ok_or("--game needs a name")?.clone()),
            "--variant" => variants.extend(
                it.next()
                    .ok_or("--variant needs a name")?
                    .split(',')
                    .map(|v| v.trim().to_lowercase()),
            ),
            "--bots" => {
                bots = u8::try_from(number("--bots", it.next())?).map_err(|_| "too many bots")?
            }
            "--seats" => {
                seats = Some(
                    u8::try_from(number("--seats", it.next())?).map_err(|_| "too many seats")?,
                )
            }
            "--table" => table = Some(it.next().ok_or("--table needs a name")?.clone()),
            "--name" => opts.name = Some(it.next().ok_or("--name needs a name")?.clone()),
            "--data-dir" => {
                opts.data_dir = Some(PathBuf::from(it.next().ok_or("--data-dir needs a folder")?))
            }
            "--loopback" => opts.network = Network::Loopback,
            "--offline" => opts.network = Network::Offline,
            "--relay" => opts.network = Network::Relay(Relays::Public),
            "--relay-url" => {
                let url = it.next().ok_or("--relay-url needs a relay's address")?;
                opts.network = Network::Relay(Relays::own(url)?);
            }
            "--lan" => opts.network = Network::Lan,
            "--timeout" => opts.timeout = Duration::from_secs(number("--timeout", it.next())?),
            "--linger-ms" => opts.linger = Duration::from_millis(number("--linger-ms", it.next())?),
            "--wait" => wait = Duration::from_secs(number("--wait", it.next())?),
            "--bot" => bot = true,
            "--dir" => page_dir = Some(PathBuf::from(it.next().ok_or("--dir needs a folder")?)),
            "--page" => {
                opts.page = Some(PathBuf::from(it.next().ok_or("--page needs a folder")?));
            }
            "--port" => {
                let n = number("--port", it.next())?;
                port = u16::try_from(n).map_err(|_| format!("--port {n} is no port"))?;
            }
            "-h" | "--help" => {
                return Ok(Options {
                    mode: Mode::Help,
                    ..opts
                });
            }
            other if !other.starts_with('-') && sub == "join" && ticket.is_none() => {
                ticket = Some(other.to_string())
            }
            other => return Err(format!("unknown option {other:?}\n{}", help())),
        }
    }
    opts.mode = match sub.as_str() {
        "host" => {
            let game = game.ok_or_else(|| format!("host needs --game ({})", game_list()))?;
            let players = u16::from(bots) + 1;
            let setup = setup_for(&game, &variants, u8::try_from(players).unwrap_or(u8::MAX))?;
            let (least, most) = (*setup.seat_range().start(), *setup.seat_range().end());
            let sitting = seats.map_or(players, u16::from);
            if sitting < u16::from(least) {
                // Such a table would wait for ever for a start it can never make.
                return Err(format!(
                    "{} needs at least {least} players, not {sitting}: add --bots or --seats",
                    setup.title()
                ));
            }
            if players > u16::from(most) {
                return Err(format!(
                    "{} seats at most {most} players: --bots {bots} leaves no seat for you",
                    setup.title()
                ));
            }
            if let Some(n) = seats {
                if u16::from(n) < players {
                    return Err(format!(
                        "--seats {n} leaves no room for you and {bots} bots"
                    ));
                }
                if n > most {
                    return Err(format!(
                        "{} seats at most {most} players, not --seats {n}",
                        setup.title()
                    ));
                }
            }
            Mode::Host {
                setup,
                bots,
                seats,
                table: table.unwrap_or_default(),
            }
        }
        "join" => {
            if !bot {
                return Err("headless join plays by bot: add --bot".into());
            }
            Mode::Join {
                ticket: ticket.ok_or("join needs the table's join code")?,
            }
        }
        "tables" => Mode::Tables { wait },
        "page" => Mode::Page {
            dir: page_dir.unwrap_or_else(|| {
                PathBuf::from(if crate::page::embedded().is_empty() {
                    "web/dist"
                } else {
                    EMBEDDED
                })
            }),
            port,
        },
        "help" | "-h" | "--help" => Mode::Help,
        other => return Err(format!("unknown subcommand {other:?}\n{}", help())),
    };
    Ok(opts)
}

fn setup_for(game: &str, variants: &[String], seats: u8) -> Result<GameSetup, String> {
    let mut setup = games::basic(game, seats)
        .ok_or_else(|| format!("unknown game {game:?} ({})", game_list()))?;
    for v in variants {
        setup.set_variant(v)?;
    }
    Ok(setup)
}

fn data_dir(opts: &Options) -> Result<PathBuf, String> {
    match &opts.data_dir {
        Some(d) => Ok(d.clone()),
        None => crate::default_data_dir().map_err(|e| e.to_string()),
    }
}

fn execute(opts: Options) -> Result<ExitCode, String> {
    match &opts.mode {
        Mode::Help => {
            println!("{}", help());
            Ok(ExitCode::SUCCESS)
        }
        Mode::Tables { wait } => tables(&opts, *wait),
        Mode::Page { dir, port } => page(dir, *port, opts.network == Network::Loopback),
        Mode::Host { .. } | Mode::Join { .. } => play(&opts),
    }
}

/// Serves the page and the relay until the process is stopped.
fn page(dir: &std::path::Path, port: u16, loopback: bool) -> Result<ExitCode, String> {
    serve_page(dir, port, loopback)?.serve_until_stopped();
    Ok(ExitCode::SUCCESS)
}

/// Starts serving the browser seats' page from `dir` (or, with `dir` "embedded", the page
/// this binary carries) and the table's relay on one port, and prints `PAGE <address>`.
fn serve_page(
    dir: &std::path::Path,
    port: u16,
    loopback: bool,
) -> Result<crate::page::PageServer, String> {
    use hoard_net::transport::table_web::PageFiles;
    let files = if dir == std::path::Path::new(EMBEDDED) {
        PageFiles::from_static(crate::page::embedded())
            .map_err(|_| "this hoard was built without the page (see README)".to_string())?
    } else {
        PageFiles::from_dir(dir).map_err(|e| {
            format!(
                "{e} (in {}; build the page with web/build.sh)",
                dir.display()
            )
        })?
    };
    let web = crate::page::PageServer::start(files, port, loopback)?;
    println!("PAGE {}", web.url());
    if dir == std::path::Path::new(EMBEDDED)
        && let Some(fingerprint) = crate::screens::settings::fingerprint(crate::page::embedded())
    {
        // What the table compares with the fingerprint in every Hoard's settings.
        println!("FINGERPRINT {fingerprint}");
    }
    Ok(web)
}

/// The folder name that stands for the page carried in the binary.
const EMBEDDED: &str = "embedded";

fn start(opts: &Options) -> Result<DeviceHandle, String> {
    let dir = data_dir(opts)?;
    DeviceHandle::start(DeviceConfig::new(dir, opts.network.clone())).map_err(|e| e.to_string())
}

fn tables(opts: &Options, wait: Duration) -> Result<ExitCode, String> {
    let handle = start(opts)?;
    let until = Instant::now() + wait;
    let mut last = Vec::new();
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        if let Some(Update::Tables(list)) = handle.recv_timeout(left) {
            last = list;
        }
    }
    for t in &last {
        println!(
            "TABLE id={} game={} seats={}/{} version={} host={:?} name={:?}",
            t.id.0, t.game, t.seats_taken, t.seats_total, t.version, t.host_name, t.name
        );
    }
    handle.shutdown();
    Ok(ExitCode::SUCCESS)
}

/// Where a headless player is in the life of a table.
enum Phase {
    Lobby,
    Playing,
}

fn play(opts: &Options) -> Result<ExitCode, String> {
    // Served for as long as the game is played.
    let page = match &opts.page {
        Some(dir) => Some(serve_page(dir, 0, opts.network == Network::Loopback)?),
        None => None,
    };
    let lan_relay = page.as_ref().and_then(|web| web.relay_url());
    let dir = data_dir(opts)?;
    let mut config = DeviceConfig::new(dir, opts.network.clone());
    config.lan_relay = lan_relay;
    let handle = DeviceHandle::start(config).map_err(|e| e.to_string())?;
    let deadline = Instant::now() + opts.timeout;
    // The first event tells whether an unfinished game waits on disk.
    let unfinished = loop {
        match next(&handle, deadline)? {
            Update::Games(list) => break list.into_iter().filter(|g| g.result.is_none()),
            other => report(&other),
        }
    };
    handle.send(Command::Autoplay { on: true });
    if let Some(name) = &opts.name {
        handle.send(Command::SetProfile {
            name: name.clone(),
            colour: [0x80, 0x80, 0x80],
        });
    }
    let mut phase = Phase::Lobby;
    let mut want_seats = 0u8;
    if let Some(saved) = unfinished.into_iter().next() {
        eprintln!("resuming the unfinished game {}", saved.session);
        handle.send(Command::Resume {
            session: saved.session,
        });
        phase = Phase::Playing;
    } else {
        match &opts.mode {
            Mode::Host {
                setup,
                bots,
                seats,
                table,
            } => {
                want_seats = seats.unwrap_or(1 + bots);
                handle.send(Command::HostTable {
                    name: table.clone(),
                    seats: Some(want_seats),
                });
                handle.send(Command::ChooseGame {
                    setup: setup.clone(),
                });
                for _ in 0..*bots {
                    handle.send(Command::AddBot);
                }
            }
            Mode::Join { ticket } => {
                handle.send(Command::JoinTicket {
                    ticket: ticket.clone(),
                });
            }
            _ => {}
        }
    }
    let mut announced = None;
    // Lines of the game's log already printed.
    let mut logged = 0usize;
    let mut last_step = None;
    let mut started = false;
    let mut readied = false;
    loop {
        let event = next(&handle, deadline)?;
        match event {
            Update::Ticket { ticket } => println!("TICKET {ticket}"),
            Update::Lobby(lobby) => {
                if lobby.host {
                    if !started && ready_to_start(&lobby, want_seats) {
                        started = true;
                        handle.send(Command::Start);
                    }
                } else if !readied && lobby.seats.iter().any(|s| s.me) {
                    readied = true;
                    handle.send(Command::Ready { ready: true });
                }
            }
            Update::Game(view) => {
                if matches!(phase, Phase::Lobby) {
                    phase = Phase::Playing;
                }
                if announced != Some(view.session) {
                    announced = Some(view.session);
                    println!("SESSION {}", view.session.to_hex());
                }
                if last_step != Some(view.step) {
                    last_step = Some(view.step);
                    println!("STEP {}", view.step);
                }
                // The story so far, a line each (told again from the start if the table
                // went back to an earlier step).
                if view.log.len() < logged {
                    logged = 0;
                }
                for line in view.log.iter().skip(logged).filter(|l| !l.is_empty()) {
                    println!("LOG {line}");
                }
                logged = view.log.len();
                if let Some(code) = finished(&view) {
                    linger(&handle, opts.linger);
                    handle.shutdown();
                    return Ok(code);
                }
            }
            Update::Error(e) if matches!(phase, Phase::Lobby) && !started => {
                // Errors before the game are fatal for a headless player (bad ticket,
                // table full); the host retries Start when the lobby changes.
                if matches!(opts.mode, Mode::Join { .. }) {
                    handle.shutdown();
                    return Err(e);
                }
                eprintln!("error: {e}");
            }
            other => report(&other),
        }
    }
}

fn ready_to_start(lobby: &LobbyView, want: u8) -> bool {
    lobby.can_start && lobby.seats.len() >= usize::from(want.max(1))
}

/// The result line once the game is over on this device, with its exit status.
fn finished(view: &GameView) -> Option<ExitCode> {
    let hex: String = view.state_hash.iter().map(|b| format!("{b:02x}")).collect();
    let head = format!(
        "RESULT session={} step={} state={hex}",
        view.session.to_hex(),
        view.step
    );
    if let Some(why) = &view.halted {
        println!("{head} audit=halted what={why:?}");
        return Some(ExitCode::from(2));
    }
    let winners: Vec<String> = view
        .outcome
        .iter()
        .flat_map(|o| o.winners.iter().map(|w| w.to_string()))
        .collect();
    match view.audit.as_ref()? {
        AuditVerdict::Verified => {
            println!("{head} audit=verified winners={}", winners.join(","));
            Some(ExitCode::SUCCESS)
        }
        AuditVerdict::VerifiedExcept { unchecked } => {
            let name = |s: Seat| {
                view.seats
                    .get(usize::from(s))
                    .map_or_else(|| format!("seat {s}"), |seat| seat.name.clone())
            };
            println!(
                "{head} audit=verified-except winners={} unchecked={:?}",
                winners.join(","),
                unchecked_words(unchecked, &name)
            );
            Some(ExitCode::SUCCESS)
        }
        AuditVerdict::Fault { seat, step, what } => {
            let seat = seat.map_or("-".into(), |s| s.to_string());
            let step = step.map_or("-".into(), |s| s.to_string());
            println!("{head} audit=fault seat={seat} step={step} what={what:?}");
            Some(ExitCode::from(2))
        }
    }
}

/// Keeps the device up a little after its own result, so peers still finishing their
/// audit can take what they lack from it.
fn linger(handle: &DeviceHandle, time: Duration) {
    let until = Instant::now() + time;
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        if let Some(event) = handle.recv_timeout(left) {
            report(&event);
        }
    }
}

fn next(handle: &DeviceHandle, deadline: Instant) -> Result<Update, String> {
    loop {
        let left = deadline
            .checked_duration_since(Instant::now())
            .ok_or("gave up: the game did not finish in time (--timeout)")?;
        if let Some(event) = handle.recv_timeout(left.min(Duration::from_millis(500))) {
            return Ok(event);
        }
    }
}

fn report(event: &Update) {
    match event {
        Update::Notice(n) => eprintln!("notice: {n}"),
        Update::Error(e) => eprintln!("error: {e}"),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoard_rules::greedquest::Length;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn host_options_become_a_table_setup() {
        let o = parse(&args(
            "host --game greedquest --bots 2 --seats 4 --variant short,my-room --loopback",
        ))
        .expect("valid");
        assert_eq!(o.network, Network::Loopback);
        let Mode::Host {
            setup, bots, seats, ..
        } = o.mode
        else {
            panic!("not host")
        };
        assert_eq!((bots, seats), (2, Some(4)));
        let GameSetup::GreedQuest(c) = setup else {
            panic!("not greedquest")
        };
        assert_eq!(c.length, Length::Short);
        assert!(c.this_is_my_room);
    }

    #[test]
    fn a_relay_is_iroh_public_ones_or_the_players_own_by_its_address() {
        let public = parse(&args("join abc --bot --relay")).expect("valid");
        assert_eq!(public.network, Network::Relay(Relays::Public));
        let own = parse(&args("join abc --bot --relay-url http://10.0.0.1:3340")).expect("valid");
        let Network::Relay(Relays::Own(url)) = own.network else {
            panic!("not our own relay: {:?}", own.network)
        };
        assert_eq!(url.as_str(), "http://10.0.0.1:3340/");
        let wrong = parse(&args("join abc --bot --relay-url relay")).err();
        assert!(
            wrong.is_some_and(|e| e.contains("is not a relay's address")),
            "an address that is no URL is refused with a reason"
        );
    }

    #[test]
    fn every_game_can_be_hosted_by_name() {
        for name in games::names() {
            let line = format!("host --game {name} --bots 2");
            let o = parse(&args(&line)).expect(&line);
            let Mode::Host { setup, .. } = o.mode else {
                panic!("not host")
            };
            assert_eq!(setup.game_name(), name);
        }
        assert!(help().contains("Sprawl variants"), "{}", help());
    }

    /// Reported: `hoard host --bots 9` on a six-seat game printed its error, then waited
    /// for its timeout.
    #[test]
    fn too_many_bots_for_the_game_stops_at_once_with_an_error() {
        let dir = std::env::temp_dir().join(format!("hoard-cli-bots-{}", std::process::id()));
        let began = Instant::now();
        let code = run(args(&format!(
            "host --game greedquest --bots 9 --offline --timeout 60 --data-dir {}",
            dir.display()
        )));
        assert_eq!(code, ExitCode::from(1));
        assert!(
            began.elapsed() < Duration::from_secs(5),
            "took {:?}",
            began.elapsed()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn mistakes_are_explained() {
        for (line, says) in [
            ("host --bots 2", "--game"),
            ("host --game chess", "unknown game"),
            ("host --game greedquest --bots 2 --seats 2", "no room"),
            ("host --game greedquest --bots 9", "at most 6 players"),
            ("host --game greedquest --bots 255", "at most 6 players"),
            ("host --game greedquest --seats 7", "at most 6 players"),
            // "For 3 to 6 players": a table of two would never start.
            (
                "host --game freeloader --seats 2",
                "at least 3 players, not 2",
            ),
            (
                "host --game freeloader --bots 1",
                "at least 3 players, not 2",
            ),
            ("join abc", "--bot"),
            ("join --bot", "join code"),
            ("dance", "unknown subcommand"),
        ] {
            let err = parse(&args(line)).expect_err(line);
            assert!(err.contains(says), "{line}: {err}");
        }
    }
}
