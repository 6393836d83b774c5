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

/// Checks every square's centre against the position (the `moved` squares, empty, show the last
/// move's fill).
fn check_squares(
    renderer: &Renderer,
    pic: &Picture,
    pos: &Position,
    theme: Theme,
    flip: bool,
    moved: &[&str],
) {
    let v = pos.variant();
    let prepared = renderer.prepared(v, theme);
    let colours = theme.colours();
    let half = prepared.square / 2;
    for sq in v.squares() {
        let (x, y) = prepared.origin(sq, flip);
        let got = pic.at(x + half, y + half);
        let want = match pos.piece_at(sq) {
            Some(piece) => colours.piece_centre(v, piece),
            None if moved.contains(&sq.to_string().as_str()) => colours.moved_centre(),
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
            check_squares(&renderer, &pic, &pos, theme, false, &[]);
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
                    "{} {theme:?}: an empty {sq} looks like a piece ({empty:?})",
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
    check_squares(&renderer, &pic, &pos, Theme::Classic, true, &[]);
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
        pic.at(x + 3, y + p.square / 2)
    };
    let corner = |name: &str| {
        let (x, y) = p.origin(name.parse().unwrap(), false);
        pic.at(x + 3, y + 3)
    };
    // Both squares of the move are filled, not framed: the from square to its centre.
    assert_eq!(edge("c1"), c.moved);
    assert_eq!(edge("c6"), c.moved);
    let (x, y) = p.origin("c1".parse().unwrap(), false);
    assert_eq!(pic.at(x + p.square / 2, y + p.square / 2), c.moved);
    assert_eq!(corner("d6"), c.captured);
    assert_eq!(edge("e5"), c.square, "untouched squares are not marked");
    check_squares(
        &renderer,
        &pic,
        game.position(),
        Theme::Classic,
        false,
        &["c1"],
    );
}

/// The last move's fill and the capture marks are told apart from every square they can lie on,
/// by a normal eye and under the simulations of protanopia, deuteranopia and tritanopia (ΔE),
/// and by lightness alone (contrast); the contrast theme keeps WCAG's 3:1 for both marks.
#[test]
fn the_last_move_and_captures_are_seen_by_every_eye_in_every_theme() {
    use taflbot::render::vision::{contrast, least_difference};
    for theme in Theme::ALL {
        let c = theme.colours();
        let floors = [
            ("square", c.square),
            ("throne", c.throne),
            ("corner", c.corner),
            ("Gold's hill", c.hill[0]),
            ("Red's hill", c.hill[1]),
            ("Gold's haven", c.haven[0]),
            ("Red's haven", c.haven[1]),
            ("bridge", c.bridge),
        ];
        let least = if theme == Theme::ColourBlind {
            40.0
        } else {
            25.0
        };
        let lightness = if theme == Theme::Contrast { 3.0 } else { 1.5 };
        for (name, floor) in floors {
            let (moved, captured) = (
                least_difference(c.moved, floor),
                least_difference(c.captured, floor),
            );
            let bar = if name == "square" { least } else { 15.0 };
            assert!(
                moved >= bar,
                "{theme:?}: the last move on a {name}: ΔE {moved:.1}"
            );
            assert!(
                captured >= bar,
                "{theme:?}: a capture on a {name}: ΔE {captured:.1}"
            );
        }
        for (name, mark) in [("last move", c.moved), ("capture", c.captured)] {
            let k = contrast(mark, c.square);
            assert!(
                k >= lightness,
                "{theme:?}: the {name}'s contrast is {k:.2}:1"
            );
        }
        let apart = least_difference(c.moved, c.captured);
        assert!(
            apart >= least,
            "{theme:?}: last move and capture ΔE {apart:.1}"
        );
    }
}

/// At a phone's width (380 px) the coordinates keep 9 px of capital height on every board, the
/// 17x17 ones and Save the Standard's 13x27 included: measured on the picture, as the ink of the
/// rank numbers in the left margin.
#[test]
fn coordinates_stay_legible_at_a_phones_width_on_every_board() {
    use taflbot::render::PHONE_WIDTH;
    let renderer = Renderer::new();
    for v in Variant::all() {
        for theme in Theme::ALL {
            let pic = Picture::decode(&renderer.png(&Scene::position(&Position::start(v)), theme));
            let p = renderer.prepared(v, theme);
            let frame = theme.colours().frame;
            // The ink of rank 1's number, in the left margin beside the first rank.
            let (_, top) = p.origin("a1".parse().unwrap(), false);
            let rows: Vec<u32> = (top..top + p.square)
                .filter(|&y| (0..p.margin).any(|x| pic.at(x, y) != frame))
                .collect();
            let ink = rows.last().unwrap() - rows.first().unwrap() + 1;
            let at_phone = ink as f32 * PHONE_WIDTH as f32 / pic.width as f32;
            assert!(
                at_phone >= 9.0,
                "{} {theme:?}: the rank numbers are {at_phone:.1} px high at {PHONE_WIDTH} px wide",
                v.id
            );
        }
    }
}

/// A piece with a role of its own differs from a plain man of its side by its body, at any size:
/// the mean colour of its square (which is what is left of it when the picture is scaled down to
/// a phone) differs from the man's by a plain ΔE for every eye.
#[test]
fn special_pieces_are_told_by_their_body_at_phone_size() {
    use taflbot::render::vision::{least_difference, mean};
    use taflbot::render::Mark;
    use taflbot::rules::{Role, Side};
    let mut weak = Vec::new();
    for theme in Theme::ALL {
        for v in Variant::all() {
            let renderer = Renderer::new();
            let p = renderer.prepared(v, theme);
            let key = p.tiles.keys().find(|k| k.1.is_none()).unwrap().0;
            let plain = |side: Side, role: Role| {
                let tile = &p.tiles[&(key, Some((side, role)), Mark::None)];
                mean(tile.iter().map(|&i| p.palette.colours()[i as usize]))
            };
            for role in v.roles() {
                if matches!(role, Role::Man | Role::Infantry) {
                    continue;
                }
                for side in Side::BOTH {
                    if !p
                        .tiles
                        .contains_key(&(key, Some((side, *role)), Mark::None))
                    {
                        continue;
                    }
                    let man = if v.rules.armies {
                        Role::Infantry
                    } else {
                        Role::Man
                    };
                    let d = least_difference(plain(side, *role), plain(side, man));
                    if d < 8.0 {
                        weak.push(format!("{} {theme:?} {side:?} {role:?}: ΔE {d:.1}", v.id));
                    }
                }
            }
        }
    }
    assert!(
        weak.is_empty(),
        "pieces told from a man by too little: {weak:#?}"
    );
}

/// Save the Standard's two moves of a turn are both filled and each joined by its own line, so
/// the four squares read as two moves of one turn; a one-move turn draws no line.
#[test]
fn the_two_moves_of_a_save_the_standard_turn_are_joined() {
    let renderer = Renderer::new();
    let v = Variant::by_id("standard-13").unwrap();
    // A random game up to its first turn of two moves.
    let mut first = Game::new(v);
    let mut rng = Rng::new(3);
    while first
        .turns()
        .last()
        .is_none_or(|t| !t.complete || t.moves.len() < 2)
    {
        assert!(
            first.turns().len() < 40 && first.outcome().is_none(),
            "a two-move turn"
        );
        taflbot::rules::random::play_random(&mut first, &mut rng, 1);
    }
    let turn = first.turns().last().unwrap().clone();
    let scene = Scene::game(&first);
    assert_eq!(scene.paths.len(), turn.moves.len());
    let pic = Picture::decode(&renderer.png(&scene, Theme::Classic));
    let p = renderer.prepared(v, Theme::Classic);
    let c = Theme::Classic.colours();
    {
        for m in &turn.moves {
            // Halfway along the move's line, on the floor of the squares it passed.
            let (fx, fy) = p.origin(m.mv.from, false);
            let (tx, ty) = p.origin(m.mv.to, false);
            let half = p.square / 2;
            let (mx, my) = ((fx + tx) / 2 + half, (fy + ty) / 2 + half);
            let near = (0..3).any(|d| pic.at(mx + d, my) == c.path || pic.at(mx, my + d) == c.path);
            assert!(near, "the line of {:?}", m.mv);
            assert_eq!(pic.at(fx + 3, fy + 3), c.moved);
        }
    }
    let mut one = Game::new(Variant::by_id("tyr-11").unwrap());
    play_turn(&mut one, "d1-d3", TurnEnd::Whole).unwrap();
    assert!(Scene::game(&one).paths.is_empty());
}

/// The header and the alt text number the last turn as the record does and name its captures.
#[test]
fn the_header_and_the_alt_text_number_the_turn_as_the_record_does() {
    let v = Variant::by_id("tyr-11").unwrap();
    let mut game =
        Game::from_position(parse_position(v, "11/11/11/11/11/3Tt6/11/11/7K3/11/2t8 a").unwrap());
    play_turn(&mut game, "c1-c6", TurnEnd::Whole).unwrap();
    let scene = Scene::game(&game);
    assert_eq!(
        taflbot::render::header(&scene).0,
        "TYR 11x11 (Simple Tyr)  ·  1. c1-c6xd6"
    );
    let record = taflbot::notation::write_record(&game, &[]);
    assert!(record.contains("\n1. c1-c6xd6\n"), "{record}");
    play_turn(&mut game, "h3-h4", TurnEnd::Whole).unwrap();
    let scene = Scene::game(&game).named(Some(["Ann".into(), "Bo".into()]));
    assert_eq!(
        taflbot::render::header(&scene).0,
        "TYR 11x11 (Simple Tyr)  ·  1... h3-h4"
    );
    let alt = taflbot::render::describe(&scene);
    assert_eq!(
        alt,
        "TYR 11x11 (Simple Tyr) board after 1... h3-h4. Ann (attackers) to move. \
         Pieces: attackers 2, defenders 0 and the king."
    );
    play_turn(&mut game, "c6-c7", TurnEnd::Whole).unwrap();
    let alt =
        taflbot::render::describe(&Scene::game(&Game::from_position(game.position().clone())));
    assert!(
        alt.starts_with("TYR 11x11 (Simple Tyr) board. Defenders to move."),
        "{alt}"
    );
}

#[test]
fn themes_are_read_by_the_names_players_write() {
    for (name, theme) in [
        ("classic", Theme::Classic),
        ("Contrast", Theme::Contrast),
        ("colour-blind", Theme::ColourBlind),
        ("colorblind", Theme::ColourBlind),
        ("Color blind", Theme::ColourBlind),
    ] {
        assert_eq!(name.parse::<Theme>(), Ok(theme), "{name}");
    }
    let refused = "dark".parse::<Theme>().unwrap_err();
    assert_eq!(
        refused,
        "unknown theme \"dark\"; the themes are classic, contrast, colour-blind"
    );
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
    let header_rows = (renderer.prepared(v, Theme::Classic).header * after.width) as usize;
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
