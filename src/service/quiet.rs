//! A player's hours, in their own time zone: quiet hours (no ping and no direct message then),
//! and the hour of their daily digest. Plain arithmetic on times, read with the IANA time-zone
//! database (`chrono-tz`), so that a summer-time change moves nothing by an hour.

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, TimeZone, Timelike};
use chrono_tz::Tz;

/// Quiet hours: from the hour `from` to the hour `to` (not included) in `zone`, each day; over
/// midnight when `from` is after `to` (22 to 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quiet {
    pub from: u8,
    pub to: u8,
    pub zone: Tz,
}

/// A time zone by its IANA name (`Europe/Oslo`), or none.
pub fn zone(name: &str) -> Option<Tz> {
    name.trim().parse().ok()
}

/// The zone of a stored name; UTC where none is kept or the name no longer reads.
pub fn zone_or_utc(name: Option<&str>) -> Tz {
    name.and_then(zone).unwrap_or(Tz::UTC)
}

/// Quiet hours written `HH-HH` (`22-07`), each hour from 0 to 23 and the two different.
pub fn read_hours(text: &str) -> Option<(u8, u8)> {
    let (a, b) = text.trim().split_once('-')?;
    let hour = |t: &str| t.trim().parse::<u8>().ok().filter(|h| *h < 24);
    let (a, b) = (hour(a)?, hour(b)?);
    (a != b).then_some((a, b))
}

/// The moment `t` (Unix seconds) in `zone`.
fn local(zone: Tz, t: i64) -> DateTime<Tz> {
    zone.timestamp_opt(t, 0)
        .single()
        .unwrap_or_else(|| zone.timestamp_opt(0, 0).unwrap())
}

/// The first moment of `date` at `hour` o'clock in `zone` (the hour after, where a summer-time
/// change skips it).
fn at_hour(zone: Tz, date: NaiveDate, hour: u8) -> i64 {
    for h in hour..=23 {
        let time = NaiveTime::from_hms_opt(u32::from(h), 0, 0).unwrap_or_default();
        if let Some(t) = zone.from_local_datetime(&date.and_time(time)).earliest() {
            return t.timestamp();
        }
    }
    let next = date.succ_opt().unwrap_or(date);
    zone.from_local_datetime(&next.and_time(NaiveTime::MIN))
        .earliest()
        .map_or(0, |t| t.timestamp())
}

impl Quiet {
    /// Quiet hours as a player's row keeps them (a zone name, from and to), if they keep some.
    pub fn stored(zone: Option<&str>, from: Option<i64>, to: Option<i64>) -> Option<Quiet> {
        Some(Quiet {
            from: u8::try_from(from?).ok()?,
            to: u8::try_from(to?).ok()?,
            zone: zone_or_utc(zone),
        })
    }

    /// Whether the moment `t` falls in the quiet hours.
    pub fn contains(&self, t: i64) -> bool {
        let hour = local(self.zone, t).hour() as u8;
        if self.from < self.to {
            (self.from..self.to).contains(&hour)
        } else {
            hour >= self.from || hour < self.to
        }
    }

    /// The start of the quiet hours that hold `t` (`t` itself when they do not).
    pub fn start_of(&self, t: i64) -> i64 {
        if !self.contains(t) {
            return t;
        }
        let here = local(self.zone, t);
        let date = here.date_naive();
        // Before midnight's end of an overnight stretch, it began the day before.
        let began_yesterday = self.from > self.to && (here.hour() as u8) < self.to;
        let date = if began_yesterday {
            date.pred_opt().unwrap_or(date)
        } else {
            date
        };
        at_hour(self.zone, date, self.from).min(t)
    }

    /// The end of the quiet hours that hold `t` (`t` itself when they do not).
    pub fn end_of(&self, t: i64) -> i64 {
        if !self.contains(t) {
            return t;
        }
        let here = local(self.zone, t);
        let date = here.date_naive();
        let ends_tomorrow = self.from > self.to && (here.hour() as u8) >= self.from;
        let date = if ends_tomorrow {
            date.succ_opt().unwrap_or(date)
        } else {
            date
        };
        at_hour(self.zone, date, self.to).max(t)
    }

    /// When a reminder due at `t` is sent: at `t`, or, when that falls in the quiet hours, just
    /// before they begin. A deadline never moves for quiet hours; its reminder comes earlier.
    pub fn reminder(&self, t: i64) -> i64 {
        self.start_of(t)
    }
}

/// The first moment after `after` at `hour` o'clock in `zone`: when a daily digest is next due.
pub fn next_at_hour(zone: Tz, hour: u8, after: i64) -> i64 {
    let date = local(zone, after).date_naive();
    let today = at_hour(zone, date, hour);
    if today > after {
        return today;
    }
    at_hour(zone, date + Duration::days(1), hour)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(text: &str) -> i64 {
        DateTime::parse_from_rfc3339(text).unwrap().timestamp()
    }

    #[test]
    fn overnight_hours_hold_late_evening_and_early_morning_in_the_players_zone() {
        let q = Quiet {
            from: 22,
            to: 7,
            zone: zone("Europe/Oslo").unwrap(),
        };
        // Oslo is UTC+1 in winter: 21:30 UTC is 22:30 there.
        assert!(q.contains(utc("2026-12-01T21:30:00Z")));
        assert!(q.contains(utc("2026-12-02T05:59:00Z")));
        assert!(!q.contains(utc("2026-12-02T06:00:00Z")));
        assert!(!q.contains(utc("2026-12-01T20:59:00Z")));
        assert_eq!(
            q.start_of(utc("2026-12-02T03:00:00Z")),
            utc("2026-12-01T21:00:00Z")
        );
        assert_eq!(
            q.end_of(utc("2026-12-01T22:00:00Z")),
            utc("2026-12-02T06:00:00Z")
        );
        // In summer Oslo is UTC+2: the same hours are an hour earlier in UTC.
        assert_eq!(
            q.start_of(utc("2026-07-01T01:00:00Z")),
            utc("2026-06-30T20:00:00Z")
        );
        // Outside them, nothing moves.
        let noon = utc("2026-12-01T12:00:00Z");
        assert_eq!(
            (q.start_of(noon), q.end_of(noon), q.reminder(noon)),
            (noon, noon, noon)
        );
    }

    #[test]
    fn daytime_hours_and_the_next_digest() {
        let q = Quiet {
            from: 9,
            to: 17,
            zone: Tz::UTC,
        };
        assert!(q.contains(utc("2026-12-01T09:00:00Z")));
        assert!(!q.contains(utc("2026-12-01T17:00:00Z")));
        assert_eq!(
            q.reminder(utc("2026-12-01T12:00:00Z")),
            utc("2026-12-01T09:00:00Z")
        );
        let tokyo = zone("Asia/Tokyo").unwrap();
        // 8 o'clock in Tokyo is 23:00 UTC the day before.
        assert_eq!(
            next_at_hour(tokyo, 8, utc("2026-12-01T12:00:00Z")),
            utc("2026-12-01T23:00:00Z")
        );
        assert_eq!(
            next_at_hour(tokyo, 8, utc("2026-12-01T23:00:00Z")),
            utc("2026-12-02T23:00:00Z")
        );
    }

    #[test]
    fn hours_and_zones_are_read_or_refused() {
        assert_eq!(read_hours("22-07"), Some((22, 7)));
        assert_eq!(read_hours(" 9 - 17 "), Some((9, 17)));
        assert_eq!(read_hours("22-22"), None);
        assert_eq!(read_hours("24-07"), None);
        assert_eq!(read_hours("late"), None);
        assert!(zone("America/New_York").is_some());
        assert!(zone("Mars/Olympus").is_none());
        assert_eq!(zone_or_utc(Some("nowhere")), Tz::UTC);
    }
}
