import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Callout, Card, Elevation, H1, HTMLSelect, Intent, OverlayToaster, Radio, RadioGroup, Spinner } from '@blueprintjs/core';
import type { Toaster } from '@blueprintjs/core';
import { ApiError } from '../api/client';
import { SupportHours, useSaveSupportHours, useSupportHours, WhenClosed } from '../api/hours';
import { hoursStatus, scheduleProblem } from '../../../core/shared/support-hours';
import { Heading } from '../components/a11y';
import { useLanguage, useT } from '../i18n';
import './support-hours.css';

/** Monday first, as most stores think of their week; `day` stays 0 = Sunday … 6 = Saturday (the API's). */
const WEEK = [1, 2, 3, 4, 5, 6, 0];
const WHEN_CLOSED: Array<{ value: WhenClosed; label: 'hours.whenClosedOfflineForm' | 'hours.whenClosedAiOnly' | 'hours.whenClosedHide' }> = [
    { value: 'offline_form', label: 'hours.whenClosedOfflineForm' },
    { value: 'ai_only', label: 'hours.whenClosedAiOnly' },
    { value: 'hide', label: 'hours.whenClosedHide' }
];

interface Range { key: number; day: number; open: string; close: string }
interface DateRow { key: number; date: string; closed: boolean; open: string; close: string }
interface Draft { weekly: Range[]; exceptions: DateRow[]; whenClosed: WhenClosed }

let nextKey = 1;

function draftOf(hours: SupportHours): Draft {
    return {
        weekly: hours.weekly.map((r) => ({ key: nextKey++, ...r, close: r.close === '24:00' ? '00:00' : r.close })),
        exceptions: hours.exceptions.map((e) => ('closed' in e
            ? { key: nextKey++, date: e.date, closed: true, open: '09:00', close: '17:00' }
            : { key: nextKey++, date: e.date, closed: false, open: e.open, close: e.close })),
        whenClosed: hours.whenClosed
    };
}

/** The draft as the API takes it (a close of 00:00 is midnight: the range runs to the end of the day). */
function bodyOf(draft: Draft): SupportHours {
    return {
        weekly: draft.weekly.map(({ day, open, close }) => ({ day, open, close })),
        exceptions: draft.exceptions.map((e) => (e.closed ? { date: e.date, closed: true as const } : { date: e.date, open: e.open, close: e.close })),
        whenClosed: draft.whenClosed
    };
}

function today(timeZone: string): string {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

/** "Open now, until 5:00 PM" / "Closed now. Opens Tuesday 9:00 AM" of the unsaved form, in the store's zone, named. */
function Preview({ draft, timeZone }: { draft: Draft; timeZone: string }) {
    const t = useT();
    const lang = useLanguage();
    const [now, setNow] = useState(Date.now());
    useEffect(() => {
        const timer = setInterval(() => setNow(Date.now()), 30_000);
        return () => clearInterval(timer);
    }, []);
    const body = bodyOf(draft);
    const problem = scheduleProblem(body);
    if (problem) {
        return <Callout intent={Intent.WARNING} role="status"><strong>{t('hours.preview')}</strong><br />{problem}</Callout>;
    }
    const status = hoursStatus(body, timeZone, now);
    const when = (iso: string, withDay: boolean) => {
        const at = Date.parse(iso);
        const far = at - now > 6 * 86_400_000;
        return new Intl.DateTimeFormat(lang, {
            timeZone, hour: 'numeric', minute: '2-digit', ...(withDay ? { weekday: 'long' } : {}), ...(far ? { month: 'short', day: 'numeric' } : {})
        }).format(at);
    };
    const configured = body.weekly.length > 0 || body.exceptions.length > 0;
    const text = !configured ? t('hours.previewAlways')
        : status.open ? (status.closesAt ? t('hours.previewOpen', { when: when(status.closesAt, Date.parse(status.closesAt) - now > 86_400_000), zone: timeZone }) : t('hours.previewOpenNoEnd', { zone: timeZone }))
            : status.opensAt ? t('hours.previewClosed', { when: when(status.opensAt, true), zone: timeZone }) : t('hours.previewNever');
    return (
        <Callout intent={status.open ? Intent.SUCCESS : Intent.PRIMARY} role="status" data-testid="hours-preview">
            <strong>{t('hours.preview')}</strong><br />{text}
        </Callout>
    );
}

function TimeInput({ label, value, onChange }: { label: string; value: string; onChange(value: string): void }) {
    return <input type="time" className="bp5-input lc-hours-time" aria-label={label} value={value} required step={60} onChange={(e) => onChange(e.target.value)} />;
}

/** Support hours (issue 26): the weekly ranges, holidays and special hours, and what the widget does when closed. */
export default function SupportHoursPage() {
    const t = useT();
    const lang = useLanguage();
    const hours = useSupportHours();
    const save = useSaveSupportHours();
    const [draft, setDraft] = useState<Draft | null>(null);
    const [error, setError] = useState<string | null>(null);
    const [toaster, setToaster] = useState<Toaster | null>(null);

    useEffect(() => {
        if (hours.data && !draft) {
            setDraft(draftOf(hours.data));
        }
    }, [hours.data, draft]);

    const dayName = useMemo(() => {
        const f = new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' });
        return (day: number) => f.format(Date.UTC(2026, 0, 4 + day));     // 4 January 2026 was a Sunday
    }, [lang]);

    if (hours.isError) {
        return <div className="lc-page"><H1 className="lc-page-title lc-h1">{t('hours.title')}</H1><Callout intent={Intent.DANGER}>{t('hours.loadFailed')}</Callout></div>;
    }
    if (!hours.data || !draft) {
        return <div className="lc-page"><H1 className="lc-page-title lc-h1">{t('hours.title')}</H1><Spinner /></div>;
    }
    const timeZone = hours.data.timeZone;
    const change = (next: Partial<Draft>) => {
        setDraft({ ...draft, ...next });
        setError(null);
    };
    const setRange = (key: number, patch: Partial<Range>) => change({ weekly: draft.weekly.map((r) => (r.key === key ? { ...r, ...patch } : r)) });
    const setDate = (key: number, patch: Partial<DateRow>) => change({ exceptions: draft.exceptions.map((e) => (e.key === key ? { ...e, ...patch } : e)) });
    const addRange = (day: number) => {
        const last = draft.weekly.filter((r) => r.day === day).pop();
        change({ weekly: [...draft.weekly, last ? { key: nextKey++, day, open: last.close, close: '20:00' } : { key: nextKey++, day, open: '09:00', close: '17:00' }] });
    };
    const submit = () => {
        save.mutate(bodyOf(draft), {
            onSuccess: (data) => {
                setDraft(draftOf(data));
                toaster?.show({ message: t('hours.saved'), intent: Intent.SUCCESS, timeout: 3000 });
            },
            onError: (err) => setError(err instanceof ApiError ? err.serverMessage : (err as Error).message)
        });
    };

    return (
        <div className="lc-page lc-hours">
            <OverlayToaster ref={setToaster} position="top-right" className="lc-below-header" />
            <div className="lc-page-head">
                <div>
                    <H1 className="lc-page-title lc-h1">{t('hours.title')}</H1>
                    <p className="bp5-text-muted">{t('hours.intro', { zone: timeZone })}</p>
                    <p><Link to="/admin-chat">{t('hours.back')}</Link></p>
                </div>
            </div>
            <Preview draft={draft} timeZone={timeZone} />
            <form className="lc-hours-form" onSubmit={(e) => {
                e.preventDefault();
                submit();
            }}>
                <Card elevation={Elevation.ONE}>
                    <Heading level={2} look={4}>{t('hours.weekly')}</Heading>
                    <p className="bp5-text-muted">{t('hours.weeklyHelp')}</p>
                    <ul className="lc-hours-week">
                        {WEEK.map((day) => {
                            const ranges = draft.weekly.filter((r) => r.day === day);
                            const name = dayName(day);
                            return (
                                <li key={day} className="lc-hours-day">
                                    <span className="lc-hours-dayname">{name}</span>
                                    <div className="lc-hours-ranges">
                                        {!ranges.length && <span className="bp5-text-muted">{t('hours.closedDay')}</span>}
                                        {ranges.map((r) => (
                                            <span key={r.key} className="lc-hours-range">
                                                <TimeInput label={t('hours.opens', { day: name })} value={r.open} onChange={(open) => setRange(r.key, { open })} />
                                                <span aria-hidden="true">–</span>
                                                <TimeInput label={t('hours.closes', { day: name })} value={r.close} onChange={(close) => setRange(r.key, { close })} />
                                                <Button minimal small icon="cross" aria-label={t('hours.removeRange', { day: name, open: r.open, close: r.close })}
                                                    onClick={() => change({ weekly: draft.weekly.filter((x) => x.key !== r.key) })} />
                                            </span>
                                        ))}
                                    </div>
                                    <Button small icon="plus" aria-label={t('hours.addRangeFor', { day: name })} onClick={() => addRange(day)}>{t('hours.addRange')}</Button>
                                </li>
                            );
                        })}
                    </ul>
                </Card>
                <Card elevation={Elevation.ONE}>
                    <Heading level={2} look={4}>{t('hours.exceptions')}</Heading>
                    <p className="bp5-text-muted">{t('hours.exceptionsHelp')}</p>
                    {!draft.exceptions.length && <p>{t('hours.noExceptions')}</p>}
                    <ul className="lc-hours-dates">
                        {draft.exceptions.map((e) => (
                            <li key={e.key} className="lc-hours-date">
                                <input type="date" className="bp5-input" aria-label={t('hours.date')} value={e.date} required onChange={(ev) => setDate(e.key, { date: ev.target.value })} />
                                <HTMLSelect aria-label={t('hours.kind')} value={e.closed ? 'closed' : 'special'} onChange={(ev) => setDate(e.key, { closed: ev.target.value === 'closed' })}
                                    options={[{ value: 'closed', label: t('hours.kindClosed') }, { value: 'special', label: t('hours.kindSpecial') }]} />
                                {!e.closed && (
                                    <span className="lc-hours-range">
                                        <TimeInput label={t('hours.opens', { day: e.date })} value={e.open} onChange={(open) => setDate(e.key, { open })} />
                                        <span aria-hidden="true">–</span>
                                        <TimeInput label={t('hours.closes', { day: e.date })} value={e.close} onChange={(close) => setDate(e.key, { close })} />
                                    </span>
                                )}
                                <Button minimal small icon="cross" aria-label={t('hours.removeDate', { date: e.date })}
                                    onClick={() => change({ exceptions: draft.exceptions.filter((x) => x.key !== e.key) })} />
                            </li>
                        ))}
                    </ul>
                    <Button small icon="plus" onClick={() => change({ exceptions: [...draft.exceptions, { key: nextKey++, date: today(timeZone), closed: true, open: '09:00', close: '17:00' }] })}>
                        {t('hours.addDate')}
                    </Button>
                </Card>
                <Card elevation={Elevation.ONE}>
                    <RadioGroup label={<Heading level={2} look={4}>{t('hours.whenClosed')}</Heading>} selectedValue={draft.whenClosed}
                        onChange={(e) => change({ whenClosed: e.currentTarget.value as WhenClosed })}>
                        {WHEN_CLOSED.map((w) => <Radio key={w.value} value={w.value} label={t(w.label)} />)}
                    </RadioGroup>
                </Card>
                {error && <Callout intent={Intent.DANGER} role="alert"><strong>{t('hours.saveFailed')}</strong><br />{error}</Callout>}
                <div>
                    <Button type="submit" intent={Intent.PRIMARY} loading={save.isPending}>{t('hours.save')}</Button>
                </div>
            </form>
        </div>
    );
}
