import { expect } from 'chai';
import { hoursStatus, instantOf, isLocalDate, isoWithOffset, scheduleProblem, SupportHours, WeeklyRange } from '../../core/shared/support-hours';

const at = (iso: string) => Date.parse(iso);
const weekdays = (open: string, close: string, days = [1, 2, 3, 4, 5]): WeeklyRange[] => days.map((day) => ({ day, open, close }));
const hours = (weekly: WeeklyRange[], exceptions: SupportHours['exceptions'] = []) => ({ weekly, exceptions });

describe('support hours: the schedule in the store\'s zone', () => {
    it('is always open without a schedule (today\'s behaviour)', () => {
        expect(hoursStatus(null, 'America/New_York', at('2026-11-27T12:00:00Z'))).to.deep.equal({ open: true, opensAt: null, closesAt: null });
        expect(hoursStatus(hours([]), 'Asia/Dubai', at('2026-11-27T12:00:00Z')).open).to.equal(true);
    });

    it('opens on weekdays only and names the next opening after the weekend, with the store\'s offset', () => {
        const nine = hours(weekdays('09:00', '17:00'));
        // Friday 27 November 2026, 18:00 in New York (UTC-5): back on Monday at 9.
        expect(hoursStatus(nine, 'America/New_York', at('2026-11-27T23:00:00Z'))).to.deep.equal({ open: false, opensAt: '2026-11-30T09:00:00-05:00', closesAt: null });
        // Wednesday noon: open until 5 PM.
        expect(hoursStatus(nine, 'America/New_York', at('2026-11-25T17:00:00Z'))).to.deep.equal({ open: true, opensAt: null, closesAt: '2026-11-25T17:00:00-05:00' });
        // The closing minute itself is closed; the opening minute open.
        expect(hoursStatus(nine, 'America/New_York', at('2026-11-25T22:00:00Z')).open).to.equal(false);
        expect(hoursStatus(nine, 'America/New_York', at('2026-11-25T14:00:00Z')).open).to.equal(true);
        expect(hoursStatus(nine, 'America/New_York', at('2026-11-25T13:59:00Z')).opensAt).to.equal('2026-11-25T09:00:00-05:00');
    });

    it('keeps several ranges a day apart, and joins ranges that touch', () => {
        const split = hours([{ day: 3, open: '09:00', close: '12:00' }, { day: 3, open: '13:00', close: '17:00' }]);
        // Wednesday 12:30 in Madrid (UTC+1): closed for lunch, back at 13:00 the same day.
        expect(hoursStatus(split, 'Europe/Madrid', at('2026-11-25T11:30:00Z'))).to.deep.equal({ open: false, opensAt: '2026-11-25T13:00:00+01:00', closesAt: null });
        const touching = hours([{ day: 3, open: '09:00', close: '12:00' }, { day: 3, open: '12:00', close: '17:00' }]);
        expect(hoursStatus(touching, 'Europe/Madrid', at('2026-11-25T09:00:00Z')).closesAt).to.equal('2026-11-25T17:00:00+01:00');
    });

    it('runs a range across midnight into the next day (Los Angeles, west of UTC)', () => {
        const late = hours([{ day: 5, open: '22:00', close: '02:00' }]);
        // Saturday 28 November, 01:00 in Los Angeles (UTC-8): Friday's range is still open until 2.
        expect(hoursStatus(late, 'America/Los_Angeles', at('2026-11-28T09:00:00Z'))).to.deep.equal({ open: true, opensAt: null, closesAt: '2026-11-28T02:00:00-08:00' });
        // Saturday 03:00: closed until next Friday 22:00.
        expect(hoursStatus(late, 'America/Los_Angeles', at('2026-11-28T11:00:00Z'))).to.deep.equal({ open: false, opensAt: '2026-12-04T22:00:00-08:00', closesAt: null });
        // "24:00" closes at midnight.
        const toMidnight = hours([{ day: 5, open: '18:00', close: '24:00' }]);
        expect(hoursStatus(toMidnight, 'America/Los_Angeles', at('2026-11-28T07:30:00Z')).closesAt).to.equal('2026-11-28T00:00:00-08:00');
    });

    it('follows zones east of UTC, whole and half hours (Dubai, Kolkata)', () => {
        // Dubai (UTC+4, no DST): Saturday to Thursday, Friday closed.
        const dubai = hours(weekdays('09:00', '18:00', [6, 0, 1, 2, 3, 4]));
        expect(hoursStatus(dubai, 'Asia/Dubai', at('2026-11-27T06:00:00Z'))).to.deep.equal({ open: false, opensAt: '2026-11-28T09:00:00+04:00', closesAt: null });
        // Kolkata (UTC+5:30): Friday 18:30 open until 19:00; 19:30 closed until Saturday 10:00.
        const kolkata = hours(weekdays('10:00', '19:00', [1, 2, 3, 4, 5, 6]));
        expect(hoursStatus(kolkata, 'Asia/Kolkata', at('2026-11-27T13:00:00Z'))).to.deep.equal({ open: true, opensAt: null, closesAt: '2026-11-27T19:00:00+05:30' });
        expect(hoursStatus(kolkata, 'Asia/Kolkata', at('2026-11-27T14:00:00Z'))).to.deep.equal({ open: false, opensAt: '2026-11-28T10:00:00+05:30', closesAt: null });
        // The same instant is Friday evening in Kolkata but Friday morning in Los Angeles: the zone decides.
        expect(hoursStatus(kolkata, 'America/Los_Angeles', at('2026-11-27T14:00:00Z')).open).to.equal(false);
        expect(hoursStatus(kolkata, 'America/Los_Angeles', at('2026-11-27T18:00:00Z')).open).to.equal(true);
    });

    it('opens at the same local time across the spring-forward change (New York, Madrid)', () => {
        const daily = hours(weekdays('09:00', '17:00', [0, 1, 2, 3, 4, 5, 6]));
        // Saturday 7 March 2026, 18:00 EST; clocks go forward on Sunday the 8th: 9 AM is now UTC-4.
        expect(hoursStatus(daily, 'America/New_York', at('2026-03-07T23:00:00Z')).opensAt).to.equal('2026-03-08T09:00:00-04:00');
        // Madrid goes forward on Sunday 29 March (CET → CEST).
        expect(hoursStatus(daily, 'Europe/Madrid', at('2026-03-28T19:00:00Z')).opensAt).to.equal('2026-03-29T09:00:00+02:00');
        // 09:00 CEST is 07:00 UTC: open at 07:00Z, not at 08:00Z.
        expect(hoursStatus(daily, 'Europe/Madrid', at('2026-03-29T07:00:00Z')).open).to.equal(true);
        expect(hoursStatus(daily, 'Europe/Madrid', at('2026-03-29T06:59:00Z')).open).to.equal(false);
    });

    it('opens at the end of the gap when the opening time does not exist that day', () => {
        // 02:30 does not exist in New York on 8 March 2026 (02:00 → 03:00): it opens at 03:00 EDT.
        const early = hours([{ day: 0, open: '02:30', close: '10:00' }]);
        expect(hoursStatus(early, 'America/New_York', at('2026-03-08T01:00:00Z')).opensAt).to.equal('2026-03-08T03:00:00-04:00');
        expect(instantOf('2026-03-08', 150, 'America/New_York')).to.equal(at('2026-03-08T07:00:00Z'));
    });

    it('opens at the first of the two times when the clock falls back', () => {
        // New York, 1 November 2026: 01:00–02:00 happens twice. A range 01:30–03:00 opens at 01:30 EDT and lasts 2.5 h.
        const night = hours([{ day: 0, open: '01:30', close: '03:00' }]);
        expect(hoursStatus(night, 'America/New_York', at('2026-11-01T05:00:00Z')).opensAt).to.equal('2026-11-01T01:30:00-04:00');
        // 01:45 EST (the second 01:45) is inside it; it closes at 03:00 EST.
        expect(hoursStatus(night, 'America/New_York', at('2026-11-01T06:45:00Z'))).to.deep.equal({ open: true, opensAt: null, closesAt: '2026-11-01T03:00:00-05:00' });
        // Madrid falls back on 25 October 2026: Monday's 9 AM is UTC+1 again.
        const daily = hours(weekdays('09:00', '17:00'));
        expect(hoursStatus(daily, 'Europe/Madrid', at('2026-10-24T12:00:00Z')).opensAt).to.equal('2026-10-26T09:00:00+01:00');
    });

    it('closes on a holiday and opens special hours on a dated exception', () => {
        const nine = hours(weekdays('09:00', '17:00'), [
            { date: '2026-12-25', closed: true },
            { date: '2026-12-24', open: '10:00', close: '14:00' }
        ]);
        // Thursday 24 December, 17:30 EST: Friday the 25th is closed, back on Monday the 28th.
        expect(hoursStatus(nine, 'America/New_York', at('2026-12-24T22:30:00Z')).opensAt).to.equal('2026-12-28T09:00:00-05:00');
        // The 24th opens at 10, not 9, and closes at 14, not 17.
        expect(hoursStatus(nine, 'America/New_York', at('2026-12-24T14:30:00Z')).opensAt).to.equal('2026-12-24T10:00:00-05:00');
        expect(hoursStatus(nine, 'America/New_York', at('2026-12-24T18:00:00Z')).closesAt).to.equal('2026-12-24T14:00:00-05:00');
        expect(hoursStatus(nine, 'America/New_York', at('2026-12-24T20:00:00Z')).open).to.equal(false);
        // A special opening on a Sunday, a day the week keeps closed.
        const sunday = hours(weekdays('09:00', '17:00'), [{ date: '2026-12-20', open: '12:00', close: '16:00' }]);
        expect(hoursStatus(sunday, 'America/New_York', at('2026-12-19T20:00:00Z')).opensAt).to.equal('2026-12-20T12:00:00-05:00');
    });

    it('lets a range that started the day before run into a holiday, and closes a holiday without weekly hours', () => {
        const late = hours([{ day: 4, open: '22:00', close: '02:00' }], [{ date: '2026-12-25', closed: true }]);
        // Thursday 24 December 22:00 – Friday 02:00 belongs to Thursday.
        expect(hoursStatus(late, 'America/New_York', at('2026-12-25T06:00:00Z')).open).to.equal(true);
        // No weekly hours: open around the clock, except on the holiday, which ends at midnight.
        const holidayOnly = hours([], [{ date: '2026-12-25', closed: true }]);
        expect(hoursStatus(holidayOnly, 'Europe/Madrid', at('2026-12-25T12:00:00Z'))).to.deep.equal({ open: false, opensAt: '2026-12-26T00:00:00+01:00', closesAt: null });
        expect(hoursStatus(holidayOnly, 'Europe/Madrid', at('2026-12-26T12:00:00Z')).open).to.equal(true);
    });

    it('says when nothing opens within a year', () => {
        const onlyPast = hours([], []);
        expect(hoursStatus(onlyPast, 'UTC', at('2026-01-01T00:00:00Z')).open).to.equal(true);
        const closedForever = hours([{ day: 1, open: '09:00', close: '10:00' }],
            Array.from({ length: 80 }, (_, i) => ({ date: new Date(Date.UTC(2026, 0, 5 + 7 * i)).toISOString().slice(0, 10), closed: true as const })));
        expect(hoursStatus(closedForever, 'UTC', at('2026-01-01T00:00:00Z'))).to.deep.equal({ open: false, opensAt: null, closesAt: null });
    });

    it('writes instants as ISO 8601 with the zone\'s offset at that instant', () => {
        expect(isoWithOffset(at('2026-07-01T13:00:00Z'), 'America/New_York')).to.equal('2026-07-01T09:00:00-04:00');
        expect(isoWithOffset(at('2026-01-01T04:30:00Z'), 'Asia/Kolkata')).to.equal('2026-01-01T10:00:00+05:30');
        expect(isoWithOffset(at('2026-01-01T04:30:00Z'), 'UTC')).to.equal('2026-01-01T04:30:00+00:00');
        expect(Date.parse('2026-07-01T09:00:00-04:00')).to.equal(at('2026-07-01T13:00:00Z'));
    });

    it('names what is wrong with a schedule: overlaps, empty ranges, a date twice closed or closed with hours', () => {
        expect(scheduleProblem(hours(weekdays('09:00', '17:00')))).to.equal(null);
        expect(scheduleProblem(hours([{ day: 1, open: '09:00', close: '12:00' }, { day: 1, open: '11:00', close: '14:00' }])))
            .to.equal('Monday: the ranges 09:00–12:00 and 11:00–14:00 overlap');
        expect(scheduleProblem(hours([{ day: 2, open: '09:00', close: '09:00' }]))).to.match(/Tuesday.*same time/);
        expect(scheduleProblem(hours([{ day: 5, open: '22:00', close: '02:00' }, { day: 5, open: '23:00', close: '23:30' }]))).to.match(/Friday.*overlap/);
        expect(scheduleProblem(hours([], [{ date: '2026-12-25', closed: true }, { date: '2026-12-25', open: '10:00', close: '12:00' }]))).to.match(/2026-12-25/);
        expect(scheduleProblem(hours([], [{ date: '2026-12-24', open: '10:00', close: '12:00' }, { date: '2026-12-24', open: '13:00', close: '15:00' }]))).to.equal(null);
        expect(isLocalDate('2026-02-29')).to.equal(false);
        expect(isLocalDate('2028-02-29')).to.equal(true);
    });
});
