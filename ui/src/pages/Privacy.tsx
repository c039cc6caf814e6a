import { FormEvent, useEffect, useState } from 'react';
import { Alert, Button, Callout, Card, FormGroup, HTMLSelect, HTMLTable, InputGroup, Intent, Tab, Tabs, Tag } from '@blueprintjs/core';
import { ApiError } from '../api/client';
import { AuditRow, downloadAuditCsv, downloadExport, ErasureResult, PersonFound, PersonQuery, RETENTION_KINDS, RetentionPolicy, useAuditTrail, useEraseCustomer, useFindCustomer, useRetention, useSaveRetention } from '../api/privacy';
import { AdminTextKey, Translate, useLanguage, useT } from '../i18n';
import { usePhoneFormat } from '../phone';
import { formatStaffTime } from '../time';
import './privacy.css';

function errorText(err: unknown): string {
    return err instanceof ApiError ? err.serverMessage : err instanceof Error ? err.message : String(err);
}

/** A table's name as staff read it (`plugin.table` → "Live chats and left messages"), falling back to the name. */
function tableLabel(t: Translate, key: string): string {
    const id = `privacy.table.${key}` as AdminTextKey;
    try {
        return t(id);
    }
    catch {
        return key;
    }
}

/**
 * /privacy (issue 25), for a store's admins: a customer's data — find by phone and/or email what the store keeps
 * about them, download it (right of access), erase it (right to erasure, after typing what identifies them) — and
 * the audit trail of the store (who did what and when), filterable and downloadable.
 */
export default function Privacy() {
    const t = useT();
    const [tab, setTab] = useState<'customer' | 'retention' | 'audit'>('customer');
    return (
        <div className="lc-page lc-privacy">
            <h1 className="lc-h1">{t('privacy.title')}</h1>
            <p className="bp5-text-muted">{t('privacy.intro')}</p>
            <Tabs id="privacy-tabs" selectedTabId={tab} onChange={(id) => setTab(id as 'customer' | 'retention' | 'audit')} renderActiveTabPanelOnly>
                <Tab id="customer" title={t('privacy.tabCustomer')} panel={<CustomerData />} />
                <Tab id="retention" title={t('privacy.tabRetention')} panel={<Retention />} />
                <Tab id="audit" title={t('privacy.tabAudit')} panel={<AuditTrail />} />
            </Tabs>
        </div>
    );
}

function CustomerData() {
    const t = useT();
    const phoneFormat = usePhoneFormat();
    const find = useFindCustomer();
    const erase = useEraseCustomer();
    const [query, setQuery] = useState<PersonQuery>({ phone: '', email: '' });
    const [found, setFound] = useState<{ query: PersonQuery; result: PersonFound } | null>(null);
    const [erased, setErased] = useState<ErasureResult | null>(null);
    const [confirming, setConfirming] = useState(false);
    const [typed, setTyped] = useState('');
    const [exportError, setExportError] = useState<string | null>(null);

    const submit = (e: FormEvent) => {
        e.preventDefault();
        setErased(null);
        setExportError(null);
        const asked = { ...query };
        find.mutate(asked, { onSuccess: (result) => setFound({ query: asked, result }) });
    };
    const who = found ? [phoneFormat(found.result.phone), found.result.email].filter(Boolean).join(' · ') : '';
    /** What the admin types to confirm: the phone's digits or the email, as found. */
    const expected = found?.result.phone ?? found?.result.email ?? '';
    const confirmed = typed.replace(/[\s()-]/g, '').toLowerCase() === expected.toLowerCase()
        || (!!found?.result.phone && typed.replace(/\D/g, '').endsWith(found.result.phone.replace(/\D/g, '').slice(-10)) && typed.replace(/\D/g, '').length >= 10);

    return (
        <div className="lc-privacy-customer">
            <Card className="lc-privacy-find">
                <form onSubmit={submit} aria-label={t('privacy.findForm')}>
                    <div className="lc-privacy-fields">
                        <FormGroup label={t('privacy.phone')} labelFor="privacy-phone">
                            <InputGroup id="privacy-phone" type="tel" autoComplete="off" value={query.phone} placeholder="(555) 555-0123"
                                onChange={(e) => setQuery((q) => ({ ...q, phone: e.target.value }))} data-testid="privacy-phone" />
                        </FormGroup>
                        <FormGroup label={t('privacy.email')} labelFor="privacy-email">
                            <InputGroup id="privacy-email" type="email" autoComplete="off" value={query.email} placeholder="name@example.com"
                                onChange={(e) => setQuery((q) => ({ ...q, email: e.target.value }))} data-testid="privacy-email" />
                        </FormGroup>
                    </div>
                    <Button type="submit" intent={Intent.PRIMARY} icon="search" text={t('privacy.find')} loading={find.isPending} data-testid="privacy-find" />
                </form>
                {find.isError && <Callout intent={Intent.DANGER} className="lc-privacy-error">{errorText(find.error)}</Callout>}
            </Card>

            {erased && (
                <Callout intent={Intent.SUCCESS} title={t('privacy.erasedTitle')} data-testid="privacy-erased">
                    {t('privacy.erasedText', { count: erased.total })}
                    {erased.external.map((x, i) => <p key={i}><strong>{x.holder}</strong>: {x.what}. {x.action}</p>)}
                </Callout>
            )}

            {found && !erased && (
                <Card className="lc-privacy-result" data-testid="privacy-result">
                    <h2 className="lc-h2">{who}</h2>
                    {found.result.total === 0
                        ? <p data-testid="privacy-nothing">{t('privacy.nothing')}</p>
                        : (
                            <>
                                <p>{t('privacy.summary', { count: found.result.total, sessions: found.result.sessions })}</p>
                                <HTMLTable compact striped className="lc-privacy-counts">
                                    <thead><tr><th>{t('privacy.what')}</th><th>{t('privacy.records')}</th></tr></thead>
                                    <tbody>
                                        {Object.entries(found.result.counts).map(([table, n]) => (
                                            <tr key={table}><td>{tableLabel(t, table)}</td><td>{n}</td></tr>
                                        ))}
                                    </tbody>
                                </HTMLTable>
                            </>
                        )}
                    {found.result.external.map((x, i) => (
                        <Callout key={i} intent={Intent.WARNING} icon="info-sign" className="lc-privacy-external" title={x.holder}>{x.what}. {x.action}</Callout>
                    ))}
                    <div className="lc-privacy-actions">
                        <Button icon="download" text={t('privacy.download')} disabled={!found.result.total} data-testid="privacy-download"
                            onClick={() => downloadExport(found.query).catch((err) => setExportError(errorText(err)))} />
                        <Button icon="trash" intent={Intent.DANGER} text={t('privacy.erase')} disabled={!found.result.total} data-testid="privacy-erase"
                            onClick={() => { setTyped(''); setConfirming(true); }} />
                    </div>
                    {exportError && <Callout intent={Intent.DANGER}>{exportError}</Callout>}
                </Card>
            )}

            <Alert isOpen={confirming} intent={Intent.DANGER} icon="trash" cancelButtonText={t('privacy.cancel')} confirmButtonText={t('privacy.eraseConfirm')}
                loading={erase.isPending}
                onCancel={() => setConfirming(false)}
                onConfirm={() => {
                    if (!found || !confirmed) {
                        return;
                    }
                    erase.mutate(found.query, {
                        onSuccess: (result) => {
                            setConfirming(false);
                            setErased(result);
                            setFound(null);
                        }
                    });
                }}
                className="lc-privacy-confirm">
                <p>{t('privacy.eraseWarning', { count: found?.result.total ?? 0 })}</p>
                <FormGroup label={t('privacy.typeToConfirm', { value: phoneFormat(found?.result.phone) ?? found?.result.email ?? '' })} labelFor="privacy-confirm">
                    <InputGroup id="privacy-confirm" value={typed} autoFocus onChange={(e) => setTyped(e.target.value)} data-testid="privacy-confirm"
                        intent={typed && !confirmed ? Intent.WARNING : Intent.NONE} />
                </FormGroup>
                {typed && !confirmed && <p className="bp5-text-muted">{t('privacy.typeMismatch')}</p>}
                {erase.isError && <Callout intent={Intent.DANGER}>{errorText(erase.error)}</Callout>}
            </Alert>
        </div>
    );
}

const ACTIONS = ['', 'auth', 'customers', 'knowledge', 'settings', 'users', 'questions', 'profile'] as const;

function auditAction(t: Translate, row: AuditRow): string {
    const id = `privacy.action.${row.action}` as AdminTextKey;
    try {
        return t(id);
    }
    catch {
        return row.action;
    }
}

function AuditTrail() {
    const t = useT();
    const lang = useLanguage();
    const [action, setAction] = useState<string>('');
    const [limit, setLimit] = useState(50);
    const trail = useAuditTrail({ action, limit });
    const [csvError, setCsvError] = useState<string | null>(null);
    const page = trail.data;
    return (
        <div className="lc-privacy-audit">
            <div className="lc-privacy-audit-bar">
                <FormGroup inline label={t('privacy.auditShow')} labelFor="privacy-audit-action">
                    <HTMLSelect id="privacy-audit-action" value={action} onChange={(e) => { setAction(e.target.value); setLimit(50); }} data-testid="privacy-audit-action">
                        {ACTIONS.map((a) => <option key={a} value={a}>{t(`privacy.filter.${a || 'all'}` as AdminTextKey)}</option>)}
                    </HTMLSelect>
                </FormGroup>
                <Button icon="download" text={t('privacy.auditCsv')} onClick={() => downloadAuditCsv(action).catch((err) => setCsvError(errorText(err)))} />
            </div>
            {csvError && <Callout intent={Intent.DANGER}>{csvError}</Callout>}
            {trail.isError && <Callout intent={Intent.DANGER}>{errorText(trail.error)}</Callout>}
            {page && (
                <>
                    <p className="bp5-text-muted">{t('privacy.auditTimes', { zone: page.timeZone })}</p>
                    {!page.rows.length ? <p>{t('privacy.auditEmpty')}</p> : (
                        <div className="lc-privacy-audit-scroll">
                            <HTMLTable compact striped className="lc-privacy-audit-table" data-testid="privacy-audit">
                                <thead><tr><th>{t('privacy.auditWhen')}</th><th>{t('privacy.auditWho')}</th><th>{t('privacy.auditWhat')}</th><th>{t('privacy.auditOn')}</th><th>{t('privacy.auditFrom')}</th></tr></thead>
                                <tbody>
                                    {page.rows.map((r) => (
                                        <tr key={r.id}>
                                            <td className="lc-nowrap">{formatStaffTime(r.createdAt, page.timeZone, lang)}</td>
                                            <td>{r.actorEmail ?? (r.actorRole ? t(`role.${r.actorRole}` as AdminTextKey) : t('privacy.auditSystem'))}</td>
                                            <td>{auditAction(t, r)}</td>
                                            <td>{r.subjectHash ? <Tag minimal title={t('privacy.auditPersonHelp')}>{t('privacy.auditPerson', { hash: r.subjectHash.slice(0, 8) })}</Tag> : r.target ?? '—'}</td>
                                            <td className="lc-nowrap">{r.ip ?? '—'}</td>
                                        </tr>
                                    ))}
                                </tbody>
                            </HTMLTable>
                        </div>
                    )}
                    {page.total > page.rows.length && <Button text={t('privacy.auditMore', { shown: page.rows.length, total: page.total })} onClick={() => setLimit((l) => Math.min(1000, l + 50))} />}
                </>
            )}
        </div>
    );
}

/** How long the store keeps each kind of data: days, or empty for forever; the daily job deletes what is older. */
function Retention() {
    const t = useT();
    const current = useRetention();
    const save = useSaveRetention();
    const [draft, setDraft] = useState<Record<string, string>>({});
    const [saved, setSaved] = useState(false);
    useEffect(() => {
        if (current.data) {
            setDraft(Object.fromEntries(RETENTION_KINDS.map((k) => [k, current.data[k] === null ? '' : String(current.data[k])])));
        }
    }, [current.data]);
    const bad = RETENTION_KINDS.filter((k) => draft[k]?.trim() && !/^\d{1,5}$/.test(draft[k].trim()) || draft[k]?.trim() === '0');
    const submit = (e: FormEvent) => {
        e.preventDefault();
        setSaved(false);
        const policy = Object.fromEntries(RETENTION_KINDS.map((k) => [k, draft[k]?.trim() ? Number(draft[k].trim()) : null])) as RetentionPolicy;
        save.mutate(policy, { onSuccess: () => setSaved(true) });
    };
    if (current.isError) {
        return <Callout intent={Intent.DANGER}>{errorText(current.error)}</Callout>;
    }
    return (
        <Card className="lc-privacy-retention">
            <p>{t('privacy.retentionIntro')}</p>
            <form onSubmit={submit} aria-label={t('privacy.tabRetention')}>
                {RETENTION_KINDS.map((k) => (
                    <FormGroup key={k} inline label={t(`privacy.kind.${k}` as AdminTextKey)} labelFor={`retention-${k}`}
                        helperText={current.data ? t('privacy.retentionDefault', { days: current.data.defaults[k] ?? 0 }) : undefined}
                        intent={bad.includes(k) ? Intent.DANGER : Intent.NONE}>
                        <InputGroup id={`retention-${k}`} inputMode="numeric" value={draft[k] ?? ''} placeholder={t('privacy.forever')} disabled={!current.data}
                            rightElement={<span className="lc-privacy-unit">{t('privacy.days')}</span>} data-testid={`retention-${k}`}
                            intent={bad.includes(k) ? Intent.DANGER : Intent.NONE}
                            onChange={(e) => { setSaved(false); setDraft((d) => ({ ...d, [k]: e.target.value })); }} />
                    </FormGroup>
                ))}
                {bad.length > 0 && <Callout intent={Intent.DANGER}>{t('privacy.retentionBad')}</Callout>}
                <Button type="submit" intent={Intent.PRIMARY} text={t('privacy.save')} loading={save.isPending} disabled={!current.data || bad.length > 0} data-testid="retention-save" />
                {save.isError && <Callout intent={Intent.DANGER}>{errorText(save.error)}</Callout>}
                {saved && <Callout intent={Intent.SUCCESS} role="status">{t('privacy.retentionSaved')}</Callout>}
            </form>
        </Card>
    );
}
