//! Pictures are decoded and read back: the size, and at each square's centre the colour of the
//! piece (or empty square) that is really there.

use taflbot::notation::{play_turn, TurnEnd};
use taflbot::render::{Renderer, Scene, Theme, MAX_SIDE};
use taflbot::rules::random::{playout, Rng};
use taflbot::rules::{parse_position, Game, Position, Square, Variant};

/// A decoded PNG as RGB rows.
struct Picture {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Picture {
    fn decode(bytes: &[u8]) -> Picture {
        let img = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
            .expect("a PNG")
            .to_rgb8();
        Picture {
            width: img.width(),
            height: img.height(),
            rgb: img.into_raw(),
        }
    }

    fn at(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * self.width + x) * 3) as usize;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

/// Checks every square's centre against the position.
fn check_squares(renderer: &Renderer, pic: &Picture, pos: &Position, theme: Theme, flip: bool) {
    let v = pos.variant();
    let prepared = renderer.prepared(v, theme);
    let colours = theme.colours();
    let half = prepared.square / 2;
    for sq in v.squares() {
        let (x, y) = prepared.origin(sq, flip);
        let got = pic.at(x + half, y + half);
        let want = match pos.piece_at(sq) {
            Some(piece) => colours.piece_centre(v, piece),
            None => colours.empty_centre(v.terrain(sq), v.field_owner(sq)),
        };
        assert_eq!(
            got,
            want,
            "{} {:?} {sq}: {:?}",
            v.id,
            theme,
            pos.piece_at(sq)
        );
    }
}

#[test]
fn every_variant_renders_in_both_themes_with_each_piece_where_it_stands() {
    let renderer = Renderer::new();
    for (i, v) in Variant::all().iter().enumerate() {
        // A position from the middle of a random game, so pieces stand everywhere.
        let mut rng = Rng::new(i as u64 + 5);
        let pos = playout(&Position::start(v), &mut rng, 30, |_, _| {});
        for theme in Theme::ALL {
            let pic = Picture::decode(&renderer.png(&Scene::position(&pos), theme));
            assert!(
                pic.width.max(pic.height) <= MAX_SIDE,
                "{} is {}x{}",
                v.id,
                pic.width,
                pic.height
            );
            let square = renderer.prepared(v, theme).square;
            if v.files.max(v.ranks) <= 11 {
                assert!(square >= 48, "{}: {square} px squares", v.id);
            }
            check_squares(&renderer, &pic, &pos, theme, false);
        }
    }
}

#[test]
fn piece_colours_are_told_apart() {
    use taflbot::rules::{Piece, Role, Side};
    for theme in Theme::ALL {
        let c = theme.colours();
        for v in Variant::all() {
            let mut seen: Vec<[u8; 3]> = Vec::new();
            for role in v.roles() {
                for side in Side::BOTH {
                    if *role == Role::King && side == Side::Attackers {
                        continue;
                    }
                    let rgb = c.piece_centre(v, Piece::new(side, *role));
                    assert!(
                        !seen.contains(&rgb),
                        "{} {theme:?}: {side:?} {role:?}",
                        v.id
                    );
                    seen.push(rgb);
                }
            }
            for sq in v.squares() {
                let empty = c.empty_centre(v.terrain(sq), v.field_owner(sq));
                assert!(
                    !seen.contains(&empty),
                    "{} {theme:?}: an empty {sq} looks like a piece",
                    v.id
                );
            }
        }
    }
}

#[test]
fn a_flipped_board_puts_a1_in_the_top_right() {
    let renderer = Renderer::new();
    let v = Variant::by_id("tyr-11").unwrap();
    let pos = parse_position(v, "11/11/11/11/11/5K5/11/11/11/11/t10 a").unwrap();
    let pic = Picture::decode(&renderer.png(&Scene::position(&pos).flipped(true), Theme::Classic));
    let prepared = renderer.prepared(v, Theme::Classic);
    let a1: Square = "a1".parse().unwrap();
    let (x, y) = prepared.origin(a1, true);
    assert!(
        x > pic.width / 2 && y < pic.height / 2,
        "a1 drawn at {x},{y}"
    );
    // The attacker on a1 is drawn there, and the top-right square of an unflipped board is k11.
    let half = prepared.square / 2;
    assert_eq!(
        pic.at(x + half, y + half),
        Theme::Classic.colours().attacker
    );
    check_squares(&renderer, &pic, &pos, Theme::Classic, true);
    let plain = Picture::decode(&renderer.png(&Scene::position(&pos), Theme::Classic));
    assert_eq!(
        plain.at(x + half, y + half),
        Theme::Classic.colours().square,
        "k11 is empty"
    );
}

#[test]
fn the_last_turn_and_its_captures_are_marked() {
    let renderer = Renderer::new();
    let v = Variant::by_id("tyr-11").unwrap();
    let mut game =
        Game::from_position(parse_position(v, "11/11/11/11/11/3Tt6/11/11/7K3/11/2t8 a").unwrap());
    play_turn(&mut game, "c1-c6", TurnEnd::Whole).unwrap();
    let pic = Picture::decode(&renderer.png(&Scene::game(&game), Theme::Classic));
    let p = renderer.prepared(v, Theme::Classic);
    let c = Theme::Classic.colours();
    let edge = |name: &str| {
        let (x, y) = p.origin(name.parse().unwrap(), false);
        pic.at(x + 2, y + p.square / 2)
    };
    let corner = |name: &str| {
        let (x, y) = p.origin(name.parse().unwrap(), false);
        pic.at(x + 3, y + 3)
    };
    assert_eq!(edge("c1"), c.moved);
    assert_eq!(edge("c6"), c.moved);
    assert_eq!(corner("d6"), c.captured);
    assert_eq!(edge("e5"), c.square, "untouched squares are not marked");
    check_squares(&renderer, &pic, game.position(), Theme::Classic, false);
}

#[test]
fn the_header_tells_the_result() {
    let renderer = Renderer::new();
    let v = Variant::by_id("tyr-11").unwrap();
    let mut game =
        Game::from_position(parse_position(v, "11/11/11/11/11/11/11/11/11/2K8/7t3 d").unwrap());
    let before = renderer.frame(&Scene::game(&game), Theme::Classic);
    play_turn(&mut game, "c2-a2", TurnEnd::Whole).unwrap();
    let scene = Scene::game(&game);
    assert_eq!(
        taflbot::render::header(&scene).1,
        "Defenders won: the king escaped"
    );
    let after = renderer.frame(&scene, Theme::Classic);
    let header_rows = (taflbot::render::HEADER * after.width) as usize;
    assert_ne!(
        before.pixels[..header_rows],
        after.pixels[..header_rows],
        "the header changed"
    );
    let named = Scene::game(&game).named(Some(["Ann".into(), "Bo".into()]));
    assert_eq!(
        taflbot::render::header(&named).1,
        "Bo (defenders) won: the king escaped"
    );
}

#[test]
fn a_gif_replays_the_game_frame_by_frame() {
    let renderer = Renderer::new();
    let v = Variant::by_id("tyr-11").unwrap();
    let mut game = Game::new(v);
    for turn in ["d1-d3", "e5-e2", "h1-h3", "g5-g2"] {
        play_turn(&mut game, turn, TurnEnd::Whole).unwrap();
    }
    let bytes = renderer.gif(&game, Theme::Classic, false, None);
    // Decode, composing each frame onto the canvas as a viewer does.
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes.as_slice()).unwrap();
    let (w, h) = (decoder.width() as usize, decoder.height() as usize);
    let mut canvas = vec![0u8; w * h];
    let mut snapshots = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        for y in 0..frame.height as usize {
            for x in 0..frame.width as usize {
                let i = frame.buffer[y * frame.width as usize + x];
                if Some(i) != frame.transparent {
                    canvas[(frame.top as usize + y) * w + frame.left as usize + x] = i;
                }
            }
        }
        // A turn's picture is complete at the frame that carries its delay.
        if frame.delay > 2 {
            snapshots.push(canvas.clone());
        }
    }
    assert_eq!(
        snapshots.len(),
        game.turns().len() + 1,
        "the start and one picture per turn"
    );
    let last = renderer.frame(&Scene::game(&game), Theme::Classic);
    assert_eq!(
        snapshots.last().unwrap(),
        &last.pixels,
        "the last picture is the game's end"
    );
    let mut replay = Game::new(v);
    play_turn(&mut replay, "d1-d3", TurnEnd::Whole).unwrap();
    let second = renderer.frame(&Scene::game(&replay), Theme::Classic);
    assert_eq!(
        snapshots[1], second.pixels,
        "the picture after the first turn"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_gif_of_800_turns_stays_under_100_mb_of_memory() {
    let turns = crate::common::long_copenhagen_game(800);
    let out = std::env::temp_dir().join(format!("taflbot-long-{}.gif", std::process::id()));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .args(["render", "--variant", "copenhagen", "--gif", "--out"])
        .arg(&out)
        .arg("--replay")
        .args(&turns)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The child's high-water mark of resident memory, read from the kernel while it runs (the
    // figure only grows, so the last reading is the peak up to then).
    let status = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0u64;
    let exit = loop {
        if let Ok(text) = std::fs::read_to_string(&status) {
            if let Some(kb) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak_kb = peak_kb.max(kb);
            }
        }
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    assert!(exit.success(), "{exit}");
    assert!(peak_kb > 0, "the peak was read");
    let peak_mb = peak_kb as f64 / 1024.0;
    let bytes = std::fs::read(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes.as_slice()).unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert!(frames > 800, "{frames} frames");
    assert!(peak_mb <= 100.0, "peak resident memory {peak_mb:.1} MB");
    eprintln!(
        "800 turns: {} KiB of GIF, peak resident memory {peak_mb:.1} MB",
        bytes.len() / 1024
    );
}

/// A crosstable grows a column and a row per player, marks each player's own cell in the grid's
/// colour, and is cut at [`MAX_ROWS`](taflbot::render::MAX_ROWS) rows.
#[test]
fn a_crosstable_has_a_row_and_a_column_per_player() {
    use taflbot::render::{crosstable, CrossRow, MAX_ROWS};
    let rows = |n: usize| -> Vec<CrossRow> {
        (0..n)
            .map(|i| CrossRow {
                name: format!("player {i}"),
                withdrawn: false,
                cells: (0..n).map(|j| (i != j).then(|| "1½".to_string())).collect(),
                points: "3".into(),
                tie_break: "1.25".into(),
            })
            .collect()
    };
    let picture =
        |n: usize| Picture::decode(&crosstable("#1 test", &rows(n), Theme::Classic).unwrap());
    let (four, many) = (picture(4), picture(32));
    // Cells are 34 pixels wide and rows 28 high.
    assert_eq!(many.width - four.width, 28 * 34);
    assert_eq!(many.height - four.height, 28 * 28);
    assert_eq!(picture(MAX_ROWS + 5).height, picture(MAX_ROWS).height);
    // The third player's own cell: after the margin (14), place (34) and name (220) columns,
    // below the margin, the title (40) and the header row.
    let grid = Theme::Classic.colours().grid;
    let (x, y) = (14 + 34 + 220 + 2 * 34 + 17, 14 + 40 + 3 * 28 + 14);
    let seen = many.at(x, y);
    for c in 0..3 {
        assert!(seen[c].abs_diff(grid[c]) <= 16, "{seen:?} against {grid:?}");
    }
    // Another's cell there is not.
    let other = many.at(x + 34, y);
    assert!((0..3).any(|c| other[c].abs_diff(grid[c]) > 16), "{other:?}");
}
