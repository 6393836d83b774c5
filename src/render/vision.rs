//! How a colour looks to other eyes, so that the themes can be checked in code: the three
//! dichromacies simulated by Machado, Oliveira and Fernandes's matrices (2009, severity 1), the
//! WCAG contrast ratio, and the CIE 1976 colour difference (ΔE) in L*a*b*.

use super::theme::Rgb;

/// A way of seeing colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Vision {
    Normal,
    /// No long-wavelength (red) cones.
    Protanopia,
    /// No medium-wavelength (green) cones: the most common.
    Deuteranopia,
    /// No short-wavelength (blue) cones.
    Tritanopia,
    /// No colour at all: only lightness.
    Achromatopsia,
}

impl Vision {
    pub const ALL: [Vision; 5] = [
        Vision::Normal,
        Vision::Protanopia,
        Vision::Deuteranopia,
        Vision::Tritanopia,
        Vision::Achromatopsia,
    ];

    /// How `rgb` looks to this eye.
    pub fn see(self, rgb: Rgb) -> Rgb {
        let l = rgb.map(linear);
        let m = match self {
            Vision::Normal => return rgb,
            Vision::Achromatopsia => {
                let y = luminance_linear(l);
                return [encoded(y); 3];
            }
            Vision::Protanopia => [
                [0.152286, 1.052583, -0.204868],
                [0.114503, 0.786281, 0.099216],
                [-0.003882, -0.048116, 1.051998],
            ],
            Vision::Deuteranopia => [
                [0.367322, 0.860646, -0.227968],
                [0.280085, 0.672501, 0.047413],
                [-0.011820, 0.042940, 0.968881],
            ],
            Vision::Tritanopia => [
                [1.255528, -0.076749, -0.178779],
                [-0.078411, 0.930809, 0.147602],
                [0.004733, 0.691367, 0.303900],
            ],
        };
        m.map(|row| encoded(row[0] * l[0] + row[1] * l[1] + row[2] * l[2]))
    }
}

fn linear(c: u8) -> f64 {
    let c = f64::from(c) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn encoded(c: f64) -> u8 {
    let c = c.clamp(0.0, 1.0);
    let e = if c <= 0.003_130_8 {
        12.92 * c
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    (e * 255.0).round() as u8
}

fn luminance_linear(l: [f64; 3]) -> f64 {
    0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]
}

/// WCAG's relative luminance, 0 (black) to 1 (white).
pub fn luminance(rgb: Rgb) -> f64 {
    luminance_linear(rgb.map(linear))
}

/// WCAG's contrast ratio, 1 to 21.
pub fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

fn lab(rgb: Rgb) -> [f64; 3] {
    let l = rgb.map(linear);
    let x = (0.4124 * l[0] + 0.3576 * l[1] + 0.1805 * l[2]) / 0.95047;
    let y = 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
    let z = (0.0193 * l[0] + 0.1192 * l[1] + 0.9505 * l[2]) / 1.08883;
    let f = |t: f64| {
        if t > 0.008856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    [
        116.0 * f(y) - 16.0,
        500.0 * (f(x) - f(y)),
        200.0 * (f(y) - f(z)),
    ]
}

/// The CIE 1976 colour difference: about 2 is the least an eye notices side by side, 10 is
/// plain, 30 and more is a different colour.
pub fn delta_e(a: Rgb, b: Rgb) -> f64 {
    let (p, q) = (lab(a), lab(b));
    ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt()
}

/// The least difference between two colours over every way of seeing them except
/// [`Vision::Achromatopsia`] (which sees lightness only and is checked by [`contrast`]).
pub fn least_difference(a: Rgb, b: Rgb) -> f64 {
    Vision::ALL
        .into_iter()
        .filter(|v| *v != Vision::Achromatopsia)
        .map(|v| delta_e(v.see(a), v.see(b)))
        .fold(f64::INFINITY, f64::min)
}

/// The mean colour of RGB pixels, averaged in linear light as a scaled-down picture averages
/// them.
pub fn mean(pixels: impl Iterator<Item = Rgb>) -> Rgb {
    let mut sum = [0.0f64; 3];
    let mut n = 0usize;
    for p in pixels {
        for (s, c) in sum.iter_mut().zip(p) {
            *s += linear(c);
        }
        n += 1;
    }
    sum.map(|s| encoded(s / n.max(1) as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_simulations_keep_grey_and_lose_what_each_eye_lacks() {
        for v in Vision::ALL {
            for grey in [0u8, 128, 255] {
                let seen = v.see([grey; 3]);
                assert!(seen.iter().all(|c| c.abs_diff(grey) <= 2), "{v:?} {seen:?}");
            }
        }
        // Red and green, far apart to a normal eye, come close for a deuteranope.
        let (red, green) = ([200, 60, 40], [60, 150, 40]);
        assert!(delta_e(red, green) > 60.0);
        let d = Vision::Deuteranopia;
        assert!(delta_e(d.see(red), d.see(green)) < delta_e(red, green) / 2.0);
        assert!((contrast([0, 0, 0], [255, 255, 255]) - 21.0).abs() < 0.01);
        assert_eq!(contrast([9, 9, 9], [9, 9, 9]), 1.0);
    }
}
