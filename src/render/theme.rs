//! Themes: the colours of a board and its pieces. Every colour a picture can contain is named here,
//! so a picture is an indexed image over a small palette.

use crate::rules::{Family, Piece, Role, Side, Terrain, Variant};

pub type Rgb = [u8; 3];

/// A board style.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Theme {
    /// Wood and ivory.
    Classic,
    /// Black, white and strong signal colours, for small screens and weak eyes: every mark at
    /// least 3:1 against the square it is on.
    Contrast,
    /// Colours from a palette that the three common colour-vision deficiencies tell apart
    /// (Okabe and Ito's): blue for the last move, vermilion for captures, orange for the king.
    ColourBlind,
}

impl std::fmt::Display for Theme {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads a theme's name, case-insensitive; the refusal names the themes.
impl std::str::FromStr for Theme {
    type Err = String;

    fn from_str(name: &str) -> Result<Theme, String> {
        let wanted: String = name
            .trim()
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
            .to_lowercase()
            .replace("color", "colour");
        Theme::ALL
            .into_iter()
            .find(|t| t.name().replace('-', "") == wanted)
            .ok_or_else(|| {
                let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
                format!(
                    "unknown theme \"{name}\"; the themes are {}",
                    names.join(", ")
                )
            })
    }
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Classic, Theme::Contrast, Theme::ColourBlind];

    /// The name a player writes and the store keeps.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Classic => "classic",
            Theme::Contrast => "contrast",
            Theme::ColourBlind => "colour-blind",
        }
    }

    /// What the theme is for, in a player's words.
    pub fn about(self) -> &'static str {
        match self {
            Theme::Classic => "wood and ivory",
            Theme::Contrast => "black, white and strong colours, for small screens",
            Theme::ColourBlind => "colours that every common kind of colour blindness tells apart",
        }
    }

    pub fn colours(self) -> &'static Colours {
        match self {
            Theme::Classic => &CLASSIC,
            Theme::Contrast => &CONTRAST,
            Theme::ColourBlind => &COLOUR_BLIND,
        }
    }
}

/// Every colour of a theme.
pub struct Colours {
    pub frame: Rgb,
    pub text: Rgb,
    pub grid: Rgb,
    pub square: Rgb,
    pub throne: Rgb,
    pub corner: Rgb,
    pub special_edge: Rgb,
    /// Hills and Havens, in the colour of the field's owner: Gold's, then Red's.
    pub hill: [Rgb; 2],
    pub haven: [Rgb; 2],
    pub water: Rgb,
    pub wave: Rgb,
    pub bridge: Rgb,
    pub plank: Rgb,
    /// The fill of the squares the last turn's moves went from and to, and the line that joins
    /// each move's squares in a turn of more than one move.
    pub moved: Rgb,
    pub path: Rgb,
    /// The corner marks of a square where a piece was captured.
    pub captured: Rgb,
    /// Tafl sides: attackers (lower case), defenders (upper case).
    pub attacker: Rgb,
    pub attacker_edge: Rgb,
    pub defender: Rgb,
    pub defender_edge: Rgb,
    /// The king's body and its crown.
    pub king: Rgb,
    pub crown: Rgb,
    /// Sea Battle's ship: its hull (the body) and its sail.
    pub ship: Rgb,
    pub sail: Rgb,
    /// Commander stars and V-man marks (and the ring around the piece), on attackers' and on
    /// defenders' pieces.
    pub star: [Rgb; 2],
    pub vee: [Rgb; 2],
    /// Save the Standard: Red's and Gold's bodies and edges, the Standard's flag and Cavalry's
    /// mark (and ring) on Red's and on Gold's pieces.
    pub red: Rgb,
    pub red_edge: Rgb,
    pub gold: Rgb,
    pub gold_edge: Rgb,
    pub flag: [Rgb; 2],
    pub horse: [Rgb; 2],
    /// A review's marks, as players know them: an inaccuracy yellow, a mistake orange, a blunder
    /// red.
    pub marks: [Rgb; 3],
}

const CLASSIC: Colours = Colours {
    frame: [58, 42, 30],
    text: [240, 226, 200],
    grid: [120, 86, 52],
    square: [222, 184, 135],
    throne: [176, 120, 70],
    corner: [150, 96, 56],
    special_edge: [96, 62, 34],
    hill: [[214, 190, 98], [198, 120, 108]],
    haven: [[236, 214, 120], [222, 150, 136]],
    water: [92, 140, 190],
    wave: [150, 190, 226],
    bridge: [150, 110, 70],
    plank: [110, 78, 46],
    moved: [60, 150, 210],
    path: [20, 80, 130],
    captured: [120, 0, 60],
    attacker: [40, 36, 34],
    attacker_edge: [10, 10, 10],
    defender: [250, 246, 232],
    defender_edge: [70, 60, 50],
    king: [226, 170, 24],
    crown: [90, 50, 10],
    ship: [30, 90, 170],
    sail: [245, 245, 250],
    star: [[230, 200, 90], [150, 40, 40]],
    vee: [[120, 200, 230], [30, 90, 150]],
    red: [150, 30, 36],
    red_edge: [70, 10, 14],
    gold: [246, 204, 70],
    gold_edge: [120, 90, 10],
    flag: [[250, 240, 230], [40, 30, 10]],
    horse: [[255, 230, 120], [140, 80, 0]],
    marks: [[240, 204, 40], [240, 130, 20], [210, 30, 30]],
};

const CONTRAST: Colours = Colours {
    frame: [0, 0, 0],
    text: [255, 255, 255],
    grid: [0, 0, 0],
    square: [200, 200, 200],
    throne: [120, 120, 120],
    corner: [90, 90, 90],
    special_edge: [20, 20, 20],
    hill: [[230, 230, 0], [230, 90, 90]],
    haven: [[255, 255, 120], [255, 150, 150]],
    water: [0, 50, 140],
    wave: [100, 170, 255],
    bridge: [170, 140, 90],
    plank: [60, 40, 10],
    moved: [0, 90, 255],
    path: [255, 255, 255],
    captured: [160, 0, 0],
    attacker: [0, 0, 0],
    attacker_edge: [255, 255, 255],
    defender: [255, 255, 255],
    defender_edge: [0, 0, 0],
    king: [255, 200, 0],
    crown: [90, 40, 0],
    ship: [0, 160, 255],
    sail: [255, 255, 150],
    star: [[255, 255, 0], [220, 0, 0]],
    vee: [[0, 255, 255], [0, 0, 200]],
    red: [200, 0, 0],
    red_edge: [255, 255, 255],
    gold: [255, 230, 0],
    gold_edge: [0, 0, 0],
    flag: [[255, 255, 255], [0, 0, 0]],
    horse: [[255, 255, 160], [120, 0, 160]],
    marks: [[255, 230, 0], [255, 140, 0], [255, 0, 0]],
};

/// Okabe and Ito's palette (black, orange, sky blue, bluish green, yellow, blue, vermilion,
/// reddish purple) on a pale board.
const COLOUR_BLIND: Colours = Colours {
    frame: [34, 34, 34],
    text: [250, 250, 250],
    grid: [110, 100, 84],
    square: [232, 222, 196],
    throne: [176, 160, 128],
    corner: [146, 128, 100],
    special_edge: [70, 60, 46],
    hill: [[236, 224, 120], [204, 121, 167]],
    haven: [[248, 242, 190], [230, 170, 200]],
    water: [86, 180, 233],
    wave: [210, 236, 250],
    bridge: [150, 120, 80],
    plank: [90, 70, 40],
    moved: [0, 114, 178],
    path: [240, 228, 66],
    captured: [213, 94, 0],
    attacker: [0, 0, 0],
    attacker_edge: [0, 0, 0],
    defender: [255, 255, 255],
    defender_edge: [40, 40, 40],
    king: [230, 159, 0],
    crown: [70, 35, 0],
    ship: [0, 114, 178],
    sail: [250, 240, 180],
    star: [[240, 228, 66], [213, 94, 0]],
    vee: [[86, 180, 233], [0, 158, 115]],
    red: [213, 94, 0],
    red_edge: [90, 30, 0],
    gold: [240, 228, 66],
    gold_edge: [90, 80, 0],
    flag: [[255, 255, 255], [0, 0, 0]],
    horse: [[170, 215, 245], [0, 114, 178]],
    marks: [[240, 228, 66], [230, 159, 0], [213, 94, 0]],
};

impl Colours {
    /// The colour at the centre of a square that holds `piece`: tests read pictures by it.
    pub fn piece_centre(&self, variant: &Variant, piece: Piece) -> Rgb {
        let s = piece.side.index();
        match piece.role {
            Role::Man => self.body(piece.side, false),
            Role::King if variant.family == Family::SeaBattle => self.sail,
            Role::King => self.crown,
            Role::Commander => self.star[s],
            Role::VMan => self.vee[s],
            Role::Standard => self.flag[s],
            Role::Infantry => self.body(piece.side, true),
            Role::Cavalry => self.horse[s],
        }
    }

    /// The colour at the centre of an empty square the last turn left from (or went through).
    pub fn moved_centre(&self) -> Rgb {
        self.moved
    }

    /// The colour at the centre of an empty square.
    pub fn empty_centre(&self, terrain: Terrain, owner: Option<Side>) -> Rgb {
        let field = usize::from(owner != Some(Side::GOLD));
        match terrain {
            Terrain::Plain | Terrain::OffBoard => self.square,
            Terrain::Throne => self.throne,
            Terrain::Corner => self.corner,
            Terrain::Water => self.water,
            Terrain::Bridge => self.bridge,
            Terrain::Hill => self.hill[field],
            Terrain::Haven => self.haven[field],
        }
    }

    /// A piece's body: tafl or Save-the-Standard colours.
    pub fn body(&self, side: Side, armies: bool) -> Rgb {
        match (armies, side) {
            (false, Side::Attackers) => self.attacker,
            (false, Side::Defenders) => self.defender,
            (true, Side::RED) => self.red,
            (true, _) => self.gold,
        }
    }

    pub fn edge(&self, side: Side, armies: bool) -> Rgb {
        match (armies, side) {
            (false, Side::Attackers) => self.attacker_edge,
            (false, Side::Defenders) => self.defender_edge,
            (true, Side::RED) => self.red_edge,
            (true, _) => self.gold_edge,
        }
    }
}
