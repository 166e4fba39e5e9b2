//! The colours seats wear at a table: the palette players pick from, and how a lobby keeps
//! them apart. Two seats clash when their colours read as the same palette colour (a
//! profile's blue and a slightly different blue are one colour to a player); a bot takes
//! the first free colour, and a newcomer whose colour is taken is given the free one
//! nearest to it.

/// The colours a player can pick, in the order the profile screen offers them: distinct in
/// both themes and for the common kinds of colour blindness when paired with the name shown
/// beside every token. The app names them (Red, Blue, ...).
pub const SEAT_COLOURS: [[u8; 3]; 8] = [
    [220, 60, 50],
    [40, 120, 220],
    [240, 190, 30],
    [40, 160, 80],
    [150, 80, 200],
    [240, 130, 30],
    [30, 180, 190],
    [230, 90, 160],
];

/// The order bots take colours in: the palette's most distinct colours first.
const BOT_ORDER: [usize; 8] = [0, 3, 2, 4, 6, 1, 5, 7];

fn distance(a: [u8; 3], b: [u8; 3]) -> u32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| u32::from(x.abs_diff(y)).pow(2))
        .sum()
}

/// The palette colour `colour` reads as: the nearest one.
pub(crate) fn reads_as(colour: [u8; 3]) -> usize {
    (0..SEAT_COLOURS.len())
        .min_by_key(|i| distance(SEAT_COLOURS[*i], colour))
        .unwrap_or(0)
}

fn is_free(palette_index: usize, taken: &[[u8; 3]]) -> bool {
    taken.iter().all(|t| reads_as(*t) != palette_index)
}

/// `wanted` if no colour in `taken` reads as the same palette colour; otherwise the free
/// palette colour nearest to it. With every colour taken (more seats than colours), `wanted`.
pub fn free_colour(wanted: [u8; 3], taken: &[[u8; 3]]) -> [u8; 3] {
    if is_free(reads_as(wanted), taken) {
        return wanted;
    }
    (0..SEAT_COLOURS.len())
        .filter(|i| is_free(*i, taken))
        .min_by_key(|i| distance(SEAT_COLOURS[*i], wanted))
        .map_or(wanted, |i| SEAT_COLOURS[i])
}

/// A colour for a bot sitting down beside seats wearing `taken`.
pub fn bot_colour(taken: &[[u8; 3]]) -> [u8; 3] {
    BOT_ORDER
        .iter()
        .find(|i| is_free(**i, taken))
        .map_or(SEAT_COLOURS[0], |i| SEAT_COLOURS[*i])
}

#[cfg(test)]
mod tests {
    use super::*;

    const RED: [u8; 3] = SEAT_COLOURS[0];
    const BLUE: [u8; 3] = SEAT_COLOURS[1];
    const TEAL: [u8; 3] = SEAT_COLOURS[6];

    #[test]
    fn a_colour_nobody_wears_is_kept() {
        assert_eq!(free_colour(BLUE, &[RED]), BLUE);
    }

    #[test]
    fn a_taken_colour_gives_way_to_the_nearest_free_one() {
        // Blue taken: teal is the nearest colour left.
        assert_eq!(free_colour(BLUE, &[BLUE]), TEAL);
        // A blue that is not the palette's own still reads as blue.
        assert_eq!(free_colour(BLUE, &[[0x3d, 0x8b, 0xd9]]), TEAL);
    }

    #[test]
    fn bots_never_wear_a_colour_already_at_the_table() {
        let mut taken = vec![BLUE];
        for _ in 0..7 {
            let c = bot_colour(&taken);
            assert!(is_free(reads_as(c), &taken), "{c:?} is taken in {taken:?}");
            taken.push(c);
        }
        let mut read: Vec<usize> = taken.iter().map(|c| reads_as(*c)).collect();
        read.sort();
        read.dedup();
        assert_eq!(read.len(), 8, "eight seats, eight colours");
    }
}
