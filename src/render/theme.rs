//! Themes: the colours of a board and its pieces. Every colour a picture can contain is named here,
//! so a picture is an indexed image over a small palette.

use crate::rules::{Family, Piece, Role, Side, Terrain, Variant};

pub type Rgb = [u8; 3];

/// A board style.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Theme {
    /// Wood and ivory.
    Classic,
    /// Black, white and strong signal colours, for small screens and weak eyes.
    Contrast,
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
        Theme::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name.trim()))
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
    pub const ALL: [Theme; 2] = [Theme::Classic, Theme::Contrast];

    pub fn name(self) -> &'static str {
        match self {
            Theme::Classic => "classic",
            Theme::Contrast => "contrast",
        }
    }

    pub fn colours(self) -> &'static Colours {
        match self {
            Theme::Classic => &CLASSIC,
            Theme::Contrast => &CONTRAST,
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
    pub moved: Rgb,
    pub captured: Rgb,
    /// Tafl sides: attackers (lower case), defenders (upper case).
    pub attacker: Rgb,
    pub attacker_edge: Rgb,
    pub defender: Rgb,
    pub defender_edge: Rgb,
    pub crown: Rgb,
    pub ship: Rgb,
    /// Commander stars and V-man marks, on attackers' and on defenders' pieces.
    pub star: [Rgb; 2],
    pub vee: [Rgb; 2],
    /// Save the Standard: Red's and Gold's bodies and edges, the Standard's flag and Cavalry's
    /// mark on Red's and on Gold's pieces.
    pub red: Rgb,
    pub red_edge: Rgb,
    pub gold: Rgb,
    pub gold_edge: Rgb,
    pub flag: [Rgb; 2],
    pub horse: [Rgb; 2],
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
    moved: [70, 150, 70],
    captured: [200, 40, 40],
    attacker: [40, 36, 34],
    attacker_edge: [10, 10, 10],
    defender: [250, 246, 232],
    defender_edge: [70, 60, 50],
    crown: [214, 160, 20],
    ship: [40, 110, 180],
    star: [[230, 200, 90], [150, 40, 40]],
    vee: [[120, 200, 230], [30, 90, 150]],
    red: [150, 30, 36],
    red_edge: [70, 10, 14],
    gold: [246, 204, 70],
    gold_edge: [120, 90, 10],
    flag: [[250, 240, 230], [40, 30, 10]],
    horse: [[255, 170, 150], [140, 80, 0]],
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
    water: [0, 90, 255],
    wave: [140, 200, 255],
    bridge: [150, 100, 40],
    plank: [60, 40, 10],
    moved: [0, 200, 0],
    captured: [255, 0, 255],
    attacker: [0, 0, 0],
    attacker_edge: [255, 255, 255],
    defender: [255, 255, 255],
    defender_edge: [0, 0, 0],
    crown: [255, 200, 0],
    ship: [0, 160, 255],
    star: [[255, 255, 0], [220, 0, 0]],
    vee: [[0, 255, 255], [0, 0, 200]],
    red: [200, 0, 0],
    red_edge: [255, 255, 255],
    gold: [255, 230, 0],
    gold_edge: [0, 0, 0],
    flag: [[255, 255, 255], [0, 0, 0]],
    horse: [[255, 160, 255], [120, 0, 160]],
};

impl Colours {
    /// The colour at the centre of a square that holds `piece`: tests read pictures by it.
    pub fn piece_centre(&self, variant: &Variant, piece: Piece) -> Rgb {
        let s = piece.side.index();
        match piece.role {
            Role::Man => self.body(piece.side, false),
            Role::King if variant.family == Family::SeaBattle => self.ship,
            Role::King => self.crown,
            Role::Commander => self.star[s],
            Role::VMan => self.vee[s],
            Role::Standard => self.flag[s],
            Role::Infantry => self.body(piece.side, true),
            Role::Cavalry => self.horse[s],
        }
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
