//! The electoral quotient (cuociente electoral, C.Co Art. 197, R15).
//!
//! `V = Σ list votes + blank`; list `i` takes `q_i = ⌊v_i·N / V⌋` seats and
//! keeps the scaled remainder `r_i = v_i·N − q_i·V` (the remainder times
//! `V`, so no division is ever rounded). Seats left over go one each to the
//! largest remainders among lists with votes; blank votes only make the
//! quotient bigger. Equal remainders that straddle the last seat are not
//! broken here: the meeting draws lots and records the draw.

use crate::shares::Shares;

/// The seats the quotient gives, and what is left for a lot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Apportionment {
    /// Seats per list, in ballot order.
    pub seats: Vec<u32>,
    /// Lists (ballot order) tied on the remainder at the cutoff; empty when
    /// no lot is needed.
    pub lot_between: Vec<usize>,
    /// Seats the lot must still give (fewer than `lot_between.len()`).
    pub seats_to_draw: u32,
    /// Seats no list could take (every list with votes already has its
    /// remainder seat: OQ6); they stay vacant and are flagged.
    pub vacant: u32,
}

/// Apportions `seats` among lists with `votes` (ballot order) and `blank`
/// votes. `None` when there are no valid votes at all (`V = 0`).
pub fn apportion(votes: &[Shares], blank: Shares, seats: u32) -> Option<Apportionment> {
    let valid: u128 = votes.iter().map(|v| v.wide()).sum::<u128>() + blank.wide();
    if valid == 0 {
        return None;
    }
    let n = u128::from(seats);
    let mut won = Vec::with_capacity(votes.len());
    let mut remainders = Vec::with_capacity(votes.len());
    for v in votes {
        let scaled = v.wide() * n;
        let quotient = scaled / valid;
        won.push(u32::try_from(quotient).expect("a list's quotient seats never exceed the seats on offer"));
        remainders.push(scaled - quotient * valid);
    }
    let by_quotient: u32 = won.iter().sum();
    let left = seats - by_quotient;

    // Lists with votes compete for one remainder seat each, largest first;
    // the sort is stable, so equal remainders keep ballot order.
    let mut competitors: Vec<usize> = (0..votes.len()).filter(|&i| !votes[i].is_zero()).collect();
    competitors.sort_by(|&a, &b| remainders[b].cmp(&remainders[a]));

    let mut result = Apportionment { seats: won, lot_between: Vec::new(), seats_to_draw: 0, vacant: 0 };
    let left_usize = left as usize;
    if left_usize >= competitors.len() {
        for &i in &competitors {
            result.seats[i] += 1;
        }
        result.vacant = left - competitors.len() as u32;
        return Some(result);
    }
    if left == 0 {
        return Some(result);
    }
    let cutoff = remainders[competitors[left_usize - 1]];
    if remainders[competitors[left_usize]] != cutoff {
        for &i in &competitors[..left_usize] {
            result.seats[i] += 1;
        }
        return Some(result);
    }
    let mut given = 0;
    for &i in &competitors {
        if remainders[i] > cutoff {
            result.seats[i] += 1;
            given += 1;
        }
    }
    let mut tied: Vec<usize> = competitors.into_iter().filter(|&i| remainders[i] == cutoff).collect();
    tied.sort_unstable();
    result.lot_between = tied;
    result.seats_to_draw = left - given;
    Some(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(votes: &[u64], blank: u64, seats: u32, expected: Option<(&[u32], &[usize], u32, u32)>) {
        let votes: Vec<Shares> = votes.iter().copied().map(Shares::new).collect();
        let got = apportion(&votes, Shares::new(blank), seats);
        let got = got.as_ref().map(|a| (&a.seats[..], &a.lot_between[..], a.seats_to_draw, a.vacant));
        assert_eq!(got, expected);
    }

    #[test]
    fn blank_votes_count_for_the_quotient_only() {
        // V = 100.000, quotient 33.333⅓: A 45.000 takes 1 and the largest
        // remainder; B and C one each on remainders.
        check(&[45_000, 25_000, 20_000], 10_000, 3, Some((&[1, 1, 1], &[], 0, 0)));
    }

    #[test]
    fn equal_remainders_across_the_cutoff_need_a_lot() {
        check(&[300, 300, 400], 0, 2, Some((&[0, 0, 1], &[0, 1], 1, 0)));
    }

    #[test]
    fn equal_remainders_inside_the_seats_need_no_lot() {
        check(&[300, 300, 400], 0, 3, Some((&[1, 1, 1], &[], 0, 0)));
    }

    #[test]
    fn lists_without_votes_never_take_a_remainder_seat() {
        // All blank but a few: one list with votes, two seats left, one vacant.
        check(&[10, 0], 990, 2, Some((&[1, 0], &[], 0, 1)));
    }

    #[test]
    fn no_valid_votes_is_no_apportionment() {
        check(&[0, 0], 0, 3, None);
    }

    #[test]
    fn counts_above_two_to_the_thirty_two_do_not_overflow() {
        let big = 1u64 << 40;
        check(&[3 * big, big], 0, 4, Some((&[3, 1], &[], 0, 0)));
    }
}
