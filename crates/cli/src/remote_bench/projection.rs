//! The straight line through the measured points, by least squares in
//! integers, and its value where nothing was measured: how `bench-remote`
//! projects its curve to 100.000 attendees.

/// The sums a least-squares line is made of.
struct Sums {
    n: i128,
    x: i128,
    y: i128,
    xx: i128,
    xy: i128,
}

impl Sums {
    fn of(points: &[(u64, u64)]) -> Sums {
        let mut sums = Sums { n: 0, x: 0, y: 0, xx: 0, xy: 0 };
        for &(x, y) in points {
            let (x, y) = (i128::from(x), i128::from(y));
            sums.n += 1;
            sums.x += x;
            sums.y += y;
            sums.xx += x * x;
            sums.xy += x * y;
        }
        sums
    }

    /// n·Σx² − (Σx)²: 0 when every point has the same x.
    fn spread(&self) -> i128 {
        self.n * self.xx - self.x * self.x
    }
}

/// The value at `x` of the least-squares line through `points` (x, y); a
/// single point (or points all at one x) is read as proportional to x.
/// `None` without points. Never below 0: a figure the line would take
/// below zero is a fit too poor to read, and 0 says "nothing to read".
pub(super) fn project(points: &[(u64, u64)], x: u64) -> Option<u64> {
    let sums = Sums::of(points);
    if sums.x == 0 {
        return None;
    }
    let spread = sums.spread();
    let x = i128::from(x);
    let value = if spread == 0 {
        // One x: y grows with x from the origin.
        sums.y * x / sums.x
    } else {
        // y = (Σy + slope · (n·x − Σx)) / n, slope = (n·Σxy − Σx·Σy) / spread.
        let slope_numerator = sums.n * sums.xy - sums.x * sums.y;
        (sums.y * spread + slope_numerator * (sums.n * x - sums.x)) / (sums.n * spread)
    };
    Some(u64::try_from(value.max(0)).unwrap_or(u64::MAX))
}

/// The slope of [`project`]'s line, per `per` of x (per attendee: 1; per
/// thousand: 1.000); the proportional ratio for a single x.
pub(super) fn slope(points: &[(u64, u64)], per: u64) -> Option<i128> {
    let sums = Sums::of(points);
    if sums.x == 0 {
        return None;
    }
    let spread = sums.spread();
    if spread == 0 {
        return Some(sums.y * i128::from(per) / sums.x);
    }
    Some((sums.n * sums.xy - sums.x * sums.y) * i128::from(per) / spread)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_line_is_found_exactly_and_extended() {
        // y = 30 + 2x.
        let points = [(5_000, 10_030), (10_000, 20_030), (20_000, 40_030)];
        assert_eq!(project(&points, 100_000), Some(200_030));
        assert_eq!(project(&points, 0), Some(30));
        assert_eq!(slope(&points, 1), Some(2));
        assert_eq!(slope(&points, 1_000), Some(2_000));
    }

    #[test]
    fn scattered_points_give_the_least_squares_line() {
        // Through (0, 1), (1, 3), (2, 2): slope 1/2, intercept 3/2; at 10: 6,5 → 6.
        assert_eq!(project(&[(0, 1), (1, 3), (2, 2)], 10), Some(6));
        assert_eq!(slope(&[(0, 1), (1, 3), (2, 2)], 1_000), Some(500));
    }

    #[test]
    fn one_point_is_read_as_proportional_and_none_gives_nothing() {
        assert_eq!(project(&[(1_000, 250)], 100_000), Some(25_000));
        assert_eq!(project(&[(1_000, 250), (1_000, 350)], 2_000), Some(600));
        assert_eq!(slope(&[(1_000, 250)], 1_000), Some(250));
        assert_eq!(project(&[], 100_000), None);
        assert_eq!(project(&[(0, 5)], 10), None);
    }

    #[test]
    fn a_line_falling_below_zero_projects_zero() {
        assert_eq!(project(&[(1, 100), (2, 50)], 100), Some(0));
    }
}
