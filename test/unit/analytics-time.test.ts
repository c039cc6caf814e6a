import { expect } from 'chai';
import { addDays, dayKey, dayRange, daysBetween, hourKey, startOfDay } from '../../plugins/analytics/lib/time';
import { RollupBatch, isFailure, isSuccess } from '../../plugins/analytics/lib/rollup';
import { failureTypeOf } from '../../plugins/analytics/services/reports';
import { csvCell } from '../../plugins/analytics/routes/export';

describe('analytics time buckets and rollup arithmetic', () => {
    it('buckets an instant into the local hour and day of the organization\'s zone', () => {
        const t = Date.UTC(2026, 0, 10, 3, 30);          // 03:30 UTC = 22:30 the day before in New York (UTC-5)
        expect(hourKey(t, 'America/New_York')).to.equal('2026-01-09T22');
        expect(dayKey(t, 'America/New_York')).to.equal('2026-01-09');
        expect(hourKey(t, 'UTC')).to.equal('2026-01-10T03');
        expect(hourKey(t, 'Asia/Kolkata')).to.equal('2026-01-10T09');   // +05:30
        expect(hourKey(Date.UTC(2026, 6, 10, 3, 30), 'America/New_York')).to.equal('2026-07-09T23');   // summer: UTC-4
    });

    it('finds where a local day begins, across daylight saving changes', () => {
        expect(startOfDay('2026-01-09', 'America/New_York')).to.equal(Date.UTC(2026, 0, 9, 5));
        expect(startOfDay('2026-07-09', 'America/New_York')).to.equal(Date.UTC(2026, 6, 9, 4));
        // 8 March 2026: clocks go forward at 02:00; the day begins at 05:00 UTC and lasts 23 hours.
        const spring = startOfDay('2026-03-08', 'America/New_York');
        expect(spring).to.equal(Date.UTC(2026, 2, 8, 5));
        expect(startOfDay('2026-03-09', 'America/New_York') - spring).to.equal(23 * 3600 * 1000);
        // 1 November 2026: clocks go back; 25 hours, and both 01:00 hours share one bucket.
        const fall = startOfDay('2026-11-01', 'America/New_York');
        expect(startOfDay('2026-11-02', 'America/New_York') - fall).to.equal(25 * 3600 * 1000);
        expect(hourKey(Date.UTC(2026, 10, 1, 5, 30), 'America/New_York')).to.equal(hourKey(Date.UTC(2026, 10, 1, 6, 30), 'America/New_York'));
        // A zone whose day begins in a gap (Santiago springs forward at midnight).
        const santiago = startOfDay('2026-09-06', 'America/Santiago');
        expect(dayKey(santiago, 'America/Santiago')).to.equal('2026-09-06');
        expect(dayKey(santiago - 60000, 'America/Santiago')).to.equal('2026-09-05');
    });

    it('turns `days` and startDate/endDate into whole local days (end defaults to start)', () => {
        const now = Date.UTC(2026, 0, 10, 3, 0);          // still 9 January in New York
        const last7 = dayRange({ days: 7 }, 'America/New_York', now);
        expect(last7).to.include({ fromDay: '2026-01-03', toDay: '2026-01-09' });
        expect(last7.from).to.equal(Date.UTC(2026, 0, 3, 5));
        expect(last7.to).to.equal(Date.UTC(2026, 0, 10, 5) - 1);
        expect(dayRange({ startDate: '2026-01-05' }, 'UTC', now)).to.deep.equal({ fromDay: '2026-01-05', toDay: '2026-01-05', from: Date.UTC(2026, 0, 5), to: Date.UTC(2026, 0, 6) - 1 });
        expect(daysBetween('2026-02-27', '2026-03-01')).to.deep.equal(['2026-02-27', '2026-02-28', '2026-03-01']);
        expect(addDays('2026-01-01', -1)).to.equal('2025-12-31');
    });

    it('adds a batch of events into hourly, daily, per-phone and per-question rows', () => {
        const batch = new RollupBatch();
        const base = { organization_id: 1, domain: 'shop.test', phone_number: '+15555550100', points_retrieved: null, question_id: null };
        const at = Date.UTC(2026, 0, 10, 15, 30);
        batch.add({ ...base, created_at: at, action: 'points_retrieved', success: true, points_retrieved: 100 }, 'UTC');
        batch.add({ ...base, created_at: at + 60000, action: 'points_retrieved', success: 1, points_retrieved: 120 }, 'UTC');
        batch.add({ ...base, created_at: at - 60000, action: 'points_retrieved', success: true, points_retrieved: 90 }, 'UTC');
        batch.add({ ...base, created_at: at, action: 'code_verification_failed', success: false }, 'UTC');
        batch.add({ ...base, created_at: at, action: 'verification_failed', success: false, phone_number: '12', phone_valid: false }, 'UTC');
        batch.add({ ...base, created_at: at, action: 'question_clicked', success: null, question_id: 3, phone_number: null }, 'UTC');
        expect(batch.hourly.get(JSON.stringify([1, '2026-01-10T15', 'shop.test', 'points_retrieved']))).to.deep.equal({ events: 3, successes: 3, failures: 0 });
        expect(batch.daily.get(JSON.stringify([1, '2026-01-10', 'shop.test', 'code_verification_failed']))).to.deep.equal({ events: 1, successes: 0, failures: 1 });
        expect(batch.phoneDaily.get(JSON.stringify([1, '2026-01-10', '+15555550100']))).to.deep.equal({
            events: 4, successes: 3, failures: 1, last_points: 120, last_points_at: at + 60000, last_activity: at + 60000
        });
        expect(batch.phoneDaily.size, 'a malformed number has no phone row').to.equal(1);
        expect(batch.questions.get(JSON.stringify([1, '2026-01-10', 3]))).to.equal(1);
    });

    it('names success, failure and failure types as SPEC §4 does', () => {
        expect(isSuccess({ action: 'points_retrieved', success: null })).to.equal(true);
        expect(isSuccess({ action: 'points_retrieved', success: false })).to.equal(false);
        expect(isFailure({ action: 'points_retrieved', success: false })).to.equal(true);
        expect(isFailure({ action: 'widget_opened', success: false })).to.equal(false);
        expect(failureTypeOf('verification_failed', false)).to.equal('verify_failed');
        expect(failureTypeOf('code_verification_failed', false)).to.equal('verification_failed');
        expect(failureTypeOf('points_retrieved', false)).to.equal('code_failed');
        expect(failureTypeOf('loyalty_verify_attempt', null)).to.equal('loyalty_verify_attempt');
    });

    it('writes CSV cells quoted and defused', () => {
        expect(csvCell('a,b')).to.equal('"a,b"');
        expect(csvCell('say "hi"')).to.equal('"say ""hi"""');
        expect(csvCell('=HYPERLINK("x")')).to.equal('"\'=HYPERLINK(""x"")"');
        // Text starting with a sign is defused whatever follows (issue 25): a spreadsheet evaluates +1555… and -1+cmd|… alike.
        expect(csvCell('+15555550100')).to.equal('\'+15555550100');
        expect(csvCell('-cmd')).to.equal('\'-cmd');
        expect(csvCell("-1+cmd|'/C calc'!A0")).to.equal("'-1+cmd|'/C calc'!A0");
        expect(csvCell('-5')).to.equal('\'-5');
        expect(csvCell('@SUM(1)')).to.equal('\'@SUM(1)');
        expect(csvCell('\t=1')).to.equal('\'\t=1');
        expect(csvCell('\r=1')).to.equal('"\'\r=1"');
        // Only genuine numbers stay as they are.
        expect(csvCell(-5)).to.equal('-5');
        expect(csvCell(12.5)).to.equal('12.5');
        expect(csvCell(null)).to.equal('');
    });
});
