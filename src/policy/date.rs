//! Civil dates and the injectable clock. Expiries are whole days in UTC, so a
//! date type is all the policy needs; tests pass `--now` / `MTC_NOW` and never
//! depend on today.

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// A proleptic Gregorian date (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: i32,
    month: u32,
    day: u32,
}

fn days_in_month(year: i32, month: u32) -> u32 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Date {
    /// A date when the fields name a real day.
    pub fn new(year: i32, month: u32, day: u32) -> Option<Date> {
        ((1..=12).contains(&month)
            && day >= 1
            && day <= days_in_month(year, month)
            && (1..=9999).contains(&year))
        .then_some(Date { year, month, day })
    }

    /// Strictly `YYYY-MM-DD`.
    pub fn parse(s: &str) -> Option<Date> {
        let b = s.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let num = |r: std::ops::Range<usize>| -> Option<u32> {
            s.get(r)
                .filter(|p| p.bytes().all(|c| c.is_ascii_digit()))?
                .parse()
                .ok()
        };
        Date::new(num(0..4)? as i32, num(5..7)?, num(8..10)?)
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    pub fn days(self) -> i64 {
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The date `days` after 1970-01-01 (civil_from_days).
    pub fn from_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
        Date { year, month, day }
    }

    pub fn add_days(self, n: i64) -> Date {
        Date::from_days(self.days() + n)
    }

    /// Today in UTC, from the system clock.
    pub fn today_utc() -> Date {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        Date::from_days(secs.div_euclid(86_400))
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl std::str::FromStr for Date {
    type Err = String;
    fn from_str(s: &str) -> Result<Date, String> {
        Date::parse(s.trim()).ok_or_else(|| format!("`{s}` is not a date (YYYY-MM-DD)"))
    }
}

impl Serialize for Date {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Accepts a TOML local date (`2027-01-31`) or the same as a string; a time or
/// an offset is refused, since expiries are whole days.
impl<'de> Deserialize<'de> for Date {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Date, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Toml(toml_edit::Datetime),
            Text(String),
        }
        let bad = |what: &dyn fmt::Display| {
            de::Error::custom(format!("expected a date YYYY-MM-DD, found `{what}`"))
        };
        match Raw::deserialize(d).map_err(|_| de::Error::custom("expected a date YYYY-MM-DD"))? {
            Raw::Text(s) => Date::parse(&s).ok_or_else(|| bad(&s)),
            Raw::Toml(dt) => match (dt.date, dt.time, dt.offset) {
                (Some(date), None, None) => Date::new(
                    i32::from(date.year),
                    u32::from(date.month),
                    u32::from(date.day),
                )
                .ok_or_else(|| bad(&dt)),
                _ => Err(bad(&dt)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_days() {
        assert_eq!(Date::parse("1970-01-01").unwrap().days(), 0);
        assert_eq!(Date::parse("2000-03-01").unwrap().days(), 11_017);
        for d in [-800_000i64, -1, 0, 59, 60, 11_016, 20_000, 2_900_000] {
            assert_eq!(Date::from_days(d).days(), d);
        }
        assert_eq!(
            Date::parse("2026-11-29").unwrap().add_days(90).to_string(),
            "2027-02-27"
        );
        assert_eq!(
            Date::parse("2024-02-28").unwrap().add_days(1).to_string(),
            "2024-02-29"
        );
    }

    #[test]
    fn parse_is_strict() {
        for bad in [
            "2026-02-30",
            "2026-13-01",
            "26-01-01",
            "2026-1-01",
            "2026-01-01T00:00:00",
            "",
            "abcd-ef-gh",
            "2026-00-10",
        ] {
            assert!(Date::parse(bad).is_none(), "{bad}");
        }
        assert!(Date::parse("2028-02-29").is_some());
        assert!(Date::parse("2026-01-02") > Date::parse("2026-01-01"));
    }
}
