import { FormEvent, ReactNode, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
    Alert, Button, Callout, Card, DialogBody, DialogFooter, Elevation, FormGroup, HTMLSelect, HTMLTable, Icon,
    InputGroup, Spinner, Switch, Tab, TabPanel, Tabs, Tag, TextArea
} from '@blueprintjs/core';
import { ApiError } from '../api/client';
import {
    BotInstance, Organization, PLANS, Resource, useBotInstances, useOrganizations, User, useSuperAdminMutation, useUsers
} from '../api/tenants';
import { AppHeader, ROLE_LABELS } from '../components/AppHeader';
import { CopyButton } from '../components/CopyButton';
import { AppDialog, EmptyState, Heading } from '../components/a11y';
import { LoyaltyProviderDialog } from '../components/LoyaltyProviderDialog';
import { useStaffSession } from '../auth/session';
import { Translate, useLanguage, useT } from '../i18n';
import { formatStaffTime } from '../time';

function errorText(error: unknown, t: Translate): string {
    return error instanceof ApiError ? error.serverMessage : t('login.networkError');
}

function ActiveTag({ active }: { active: boolean }) {
    const t = useT();
    return <Tag round minimal intent={active ? 'success' : 'none'}>{active ? t('common.active') : t('common.inactive')}</Tag>;
}

function CountCard({ label, total, active, icon }: { label: string; total?: number; active?: number; icon: ReactNode }) {
    const t = useT();
    return (
        <Card elevation={Elevation.ONE} className="lc-stat lc-count">
            <div className="lc-count-icon">{icon}</div>
            <div>
                <div className="lc-stat-value">{total === undefined ? '—' : t('common.number', { value: total })}</div>
                <div className="lc-stat-label">{label}</div>
                <div className="lc-stat-sub">{active === undefined ? '—' : t('sa.activeCount', { count: active })}</div>
            </div>
        </Card>
    );
}

/** A dialog with a form: Save runs the mutation; the server's message shows on failure. */
function FormDialog({ title, isOpen, onClose, onSubmit, pending, error, canSave, children }: {
    title: string; isOpen: boolean; onClose: () => void; onSubmit: () => void; pending: boolean; error: unknown; canSave: boolean; children: ReactNode;
}) {
    const t = useT();
    const submit = (event: FormEvent) => {
        event.preventDefault();
        if (canSave && !pending) {
            onSubmit();
        }
    };
    return (
        <AppDialog title={title} isOpen={isOpen} onClose={onClose} className="lc-dialog">
            <form onSubmit={submit}>
                <DialogBody>
                    {error ? <Callout intent="danger" icon="error" className="lc-form-error">{errorText(error, t)}</Callout> : null}
                    {children}
                </DialogBody>
                <DialogFooter actions={(
                    <>
                        <Button text={t('common.cancel')} onClick={onClose} />
                        <Button type="submit" intent="primary" text={pending ? t('common.saving') : t('common.save')} disabled={!canSave || pending} />
                    </>
                )} />
            </form>
        </AppDialog>
    );
}

type Editing<T> = { mode: 'create' } | { mode: 'edit'; item: T } | null;

function OrganizationDialog({ editing, onClose }: { editing: Editing<Organization>; onClose: () => void }) {
    const t = useT();
    const mutation = useSuperAdminMutation('organizations');
    const item = editing?.mode === 'edit' ? editing.item : null;
    const [form, setForm] = useState({ name: '', domain: '', subdomain: '', subscriptionPlan: 'free', isActive: true });
    useEffect(() => {
        mutation.reset();
        setForm(item ? { name: item.name, domain: item.domain, subdomain: item.subdomain, subscriptionPlan: item.subscriptionPlan, isActive: item.isActive }
            : { name: '', domain: '', subdomain: '', subscriptionPlan: 'free', isActive: true });
    }, [editing]);
    const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value });
    const save = () => {
        const { isActive, ...fields } = form;
        mutation.mutate(item ? { id: item.id, body: { ...fields, isActive } } : { body: fields }, { onSuccess: onClose });
    };
    return (
        <FormDialog title={item ? t('sa.editTitle', { name: item.name }) : t('sa.newOrg')} isOpen={!!editing} onClose={onClose} onSubmit={save}
            pending={mutation.isPending} error={mutation.error} canSave={!!(form.name.trim() && form.domain.trim() && form.subdomain.trim())}>
            <FormGroup label={t('common.name')} labelFor="org-name" labelInfo={t('common.required')}>
                <InputGroup id="org-name" value={form.name} onChange={set('name')} autoFocus />
            </FormGroup>
            <FormGroup label={t('org.domain')} labelFor="org-domain" labelInfo={t('common.required')} helperText={t('sa.domainHelp')}>
                <InputGroup id="org-domain" value={form.domain} onChange={set('domain')} placeholder="shop.example.com" />
            </FormGroup>
            <FormGroup label={t('org.subdomain')} labelFor="org-subdomain" labelInfo={t('common.required')} helperText={t('sa.subdomainHelp', { path: '/widget-{subdomain}.js' })}>
                <InputGroup id="org-subdomain" value={form.subdomain} onChange={set('subdomain')} placeholder="myshop" />
            </FormGroup>
            <FormGroup label={t('sa.plan')} labelFor="org-plan">
                <HTMLSelect id="org-plan" value={form.subscriptionPlan} onChange={set('subscriptionPlan')} options={[...PLANS]} fill />
            </FormGroup>
            {item && <Switch label={t('common.active')} checked={form.isActive} onChange={(e) => setForm({ ...form, isActive: e.currentTarget.checked })} />}
        </FormDialog>
    );
}

function BotDialog({ editing, onClose, organizations }: { editing: Editing<BotInstance>; onClose: () => void; organizations: Organization[] }) {
    const t = useT();
    const mutation = useSuperAdminMutation('bot-instances');
    const item = editing?.mode === 'edit' ? editing.item : null;
    const [form, setForm] = useState({ organizationId: '', name: '', description: '', isActive: true });
    useEffect(() => {
        mutation.reset();
        setForm(item ? { organizationId: String(item.organizationId), name: item.name, description: item.description ?? '', isActive: item.isActive }
            : { organizationId: organizations[0] ? String(organizations[0].id) : '', name: '', description: '', isActive: true });
    }, [editing]);
    const save = () => {
        const body = item
            ? { name: form.name, description: form.description, isActive: form.isActive }
            : { organizationId: Number(form.organizationId), name: form.name, description: form.description };
        mutation.mutate(item ? { id: item.id, body } : { body }, { onSuccess: onClose });
    };
    return (
        <FormDialog title={item ? t('sa.editTitle', { name: item.name }) : t('sa.newBot')} isOpen={!!editing} onClose={onClose} onSubmit={save}
            pending={mutation.isPending} error={mutation.error} canSave={!!(form.name.trim() && form.organizationId)}>
            <FormGroup label={t('sa.organization')} labelFor="bot-org">
                <HTMLSelect id="bot-org" fill disabled={!!item} value={form.organizationId}
                    onChange={(e) => setForm({ ...form, organizationId: e.target.value })}
                    options={organizations.map((o) => ({ value: String(o.id), label: `${o.name} (${o.subdomain})` }))} />
            </FormGroup>
            <FormGroup label={t('common.name')} labelFor="bot-name" labelInfo={t('common.required')}>
                <InputGroup id="bot-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} autoFocus />
            </FormGroup>
            <FormGroup label={t('sa.description')} labelFor="bot-description">
                <TextArea id="bot-description" fill value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
            </FormGroup>
            {item && <Switch label={t('common.active')} checked={form.isActive} onChange={(e) => setForm({ ...form, isActive: e.currentTarget.checked })} />}
        </FormDialog>
    );
}

function UserDialog({ editing, onClose, organizations }: { editing: Editing<User>; onClose: () => void; organizations: Organization[] }) {
    const t = useT();
    const mutation = useSuperAdminMutation('users');
    const item = editing?.mode === 'edit' ? editing.item : null;
    const [form, setForm] = useState({ email: '', name: '', password: '', role: 'admin', organizationId: '', isActive: true });
    useEffect(() => {
        mutation.reset();
        setForm(item ? { email: item.email, name: item.name ?? '', password: '', role: item.role, organizationId: String(item.organizationId ?? ''), isActive: item.isActive }
            : { email: '', name: '', password: '', role: 'admin', organizationId: organizations[0] ? String(organizations[0].id) : '', isActive: true });
    }, [editing]);
    const needsOrg = form.role !== 'super_admin';
    const save = () => {
        if (item) {
            const body: Record<string, unknown> = { name: form.name, isActive: form.isActive };
            if (form.password) {
                body.password = form.password;
            }
            mutation.mutate({ id: item.id, body }, { onSuccess: onClose });
        }
        else {
            mutation.mutate({ body: { email: form.email, name: form.name, password: form.password, role: form.role, organizationId: needsOrg ? Number(form.organizationId) : null } }, { onSuccess: onClose });
        }
    };
    const canSave = item ? true : !!(form.email.trim() && form.password && (!needsOrg || form.organizationId));
    return (
        <FormDialog title={item ? t('sa.editTitle', { name: item.email }) : t('sa.newUser')} isOpen={!!editing} onClose={onClose} onSubmit={save}
            pending={mutation.isPending} error={mutation.error} canSave={canSave}>
            <FormGroup label={t('common.email')} labelFor="user-email" labelInfo={item ? undefined : t('common.required')}>
                <InputGroup id="user-email" type="email" value={form.email} disabled={!!item} onChange={(e) => setForm({ ...form, email: e.target.value })} autoFocus={!item} />
            </FormGroup>
            <FormGroup label={t('common.name')} labelFor="user-name">
                <InputGroup id="user-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
            </FormGroup>
            <FormGroup label={item ? t('sa.newPassword') : t('login.password')} labelFor="user-password" labelInfo={item ? t('sa.keepPassword') : t('sa.minPassword')}
                helperText={item ? t('sa.passwordSignsOut') : undefined}>
                <InputGroup id="user-password" type="password" autoComplete="new-password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />
            </FormGroup>
            <FormGroup label={t('sa.role')} labelFor="user-role">
                <HTMLSelect id="user-role" fill disabled={!!item} value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value })}
                    options={Object.entries(ROLE_LABELS).map(([value, label]) => ({ value, label: t(label) }))} />
            </FormGroup>
            {needsOrg && (
                <FormGroup label={t('sa.organization')} labelFor="user-org">
                    <HTMLSelect id="user-org" fill disabled={!!item} value={form.organizationId} onChange={(e) => setForm({ ...form, organizationId: e.target.value })}
                        options={organizations.map((o) => ({ value: String(o.id), label: o.name }))} />
                </FormGroup>
            )}
            {item && <Switch label={t('common.active')} checked={form.isActive} onChange={(e) => setForm({ ...form, isActive: e.currentTarget.checked })} />}
        </FormDialog>
    );
}

/** Asks before deactivating; deactivated rows stay and can be re-activated from Edit. */
function DeactivateAlert({ target, onClose }: { target: { resource: Resource; id: number; label: string } | null; onClose: () => void }) {
    const organizations = useSuperAdminMutation('organizations');
    const bots = useSuperAdminMutation('bot-instances');
    const users = useSuperAdminMutation('users');
    const mutation = target?.resource === 'bot-instances' ? bots : target?.resource === 'users' ? users : organizations;
    const t = useT();
    const consequence = t(`sa.consequence.${target?.resource ?? 'organizations'}`);
    // The bold name inside the translated question (it goes where {label} is).
    const [beforeLabel, afterLabel = ''] = t('sa.deactivateQuestion', { label: '\u0000' }).split('\u0000');
    return (
        <Alert isOpen={!!target} intent="danger" icon="disable" confirmButtonText={t('sa.deactivate')} cancelButtonText={t('common.cancel')}
            loading={mutation.isPending} onCancel={onClose} aria-labelledby="lc-deactivate-question"
            onConfirm={() => target && mutation.mutate({ id: target.id, deactivate: true }, { onSettled: onClose })}>
            <p id="lc-deactivate-question">{beforeLabel}<strong>{target?.label}</strong>{afterLabel} {consequence}</p>
        </Alert>
    );
}

function RowActions({ active, onEdit, onDeactivate }: { active: boolean; onEdit: () => void; onDeactivate: () => void }) {
    const t = useT();
    return (
        <span className="lc-row-actions">
            <Button small minimal icon="edit" text={t('common.edit')} onClick={onEdit} />
            {active && <Button small minimal icon="disable" intent="danger" text={t('sa.deactivate')} onClick={onDeactivate} />}
        </span>
    );
}

/** A table that may scroll sideways on a phone: the scroll box is a labelled region reachable by keyboard. */
function TableBox({ label, children, loading, error, empty }: { label: string; children: ReactNode; loading: boolean; error: unknown; empty: boolean }) {
    const t = useT();
    if (loading) {
        return <div className="lc-pad"><Spinner size={24} /></div>;
    }
    if (error) {
        return <Callout intent="danger">{errorText(error, t)}</Callout>;
    }
    if (empty) {
        return <EmptyState icon="inbox" title={t('sa.nothing')} level={3} />;
    }
    return <div className="lc-table-scroll" role="region" aria-label={label} tabIndex={0}>{children}</div>;
}

function Dashboard({ email, onLogout }: { email: string; onLogout: () => void }) {
    const t = useT();
    const lang = useLanguage();
    const organizations = useOrganizations();
    const bots = useBotInstances();
    const users = useUsers();
    const [tab, setTab] = useState<string>('organizations');
    const [orgEditing, setOrgEditing] = useState<Editing<Organization>>(null);
    const [botEditing, setBotEditing] = useState<Editing<BotInstance>>(null);
    const [userEditing, setUserEditing] = useState<Editing<User>>(null);
    const [deactivating, setDeactivating] = useState<{ resource: Resource; id: number; label: string } | null>(null);
    const [loyaltyOf, setLoyaltyOf] = useState<Organization | null>(null);
    const orgs = organizations.data ?? [];
    const orgName = new Map(orgs.map((o) => [o.id, o.name]));
    const count = <T extends { isActive: boolean }>(rows?: T[]) => ({ total: rows?.length, active: rows?.filter((r) => r.isActive).length });

    const addButton = tab === 'organizations'
        ? <Button intent="primary" icon="add" text={t('sa.newOrg')} onClick={() => setOrgEditing({ mode: 'create' })} />
        : tab === 'bots'
            ? <Button intent="primary" icon="add" text={t('sa.newBot')} disabled={!orgs.length} onClick={() => setBotEditing({ mode: 'create' })} />
            : <Button intent="primary" icon="add" text={t('sa.newUser')} onClick={() => setUserEditing({ mode: 'create' })} />;

    return (
        <>
            <AppHeader title={t('sa.title')} icon="crown" user={{ email, role: 'super_admin' }} onLogout={onLogout} />
            <main className="lc-page">
                <div className="lc-page-head">
                    <div>
                        <Heading level={2} look={4} className="lc-page-title">{t('sa.tenants')}</Heading>
                        <p className="bp5-text-muted">{t('sa.intro')}</p>
                    </div>
                </div>
                <div className="lc-stats">
                    <CountCard label={t('sa.organizations')} icon={<Icon icon="office" size={20} />} {...count(organizations.data)} />
                    <CountCard label={t('sa.bots')} icon={<Icon icon="chat" size={20} />} {...count(bots.data)} />
                    <CountCard label={t('sa.users')} icon={<Icon icon="people" size={20} />} {...count(users.data)} />
                </div>
                <Card elevation={Elevation.ONE} className="lc-tabs-card">
                    <div className="lc-tabs-bar">
                        <Tabs id="super-admin-tabs" className="lc-wrap-tabs" selectedTabId={tab} onChange={(id) => setTab(String(id))} large>
                            <Tab id="organizations" title={t('sa.organizations')} />
                            <Tab id="bots" title={t('sa.botsTab')} />
                            <Tab id="users" title={t('sa.users')} />
                        </Tabs>
                        {addButton}
                    </div>
                    <TabPanel id="organizations" parentId="super-admin-tabs" selectedTabId={tab} panel={(
                        <TableBox label={t('sa.organizations')} loading={organizations.isPending} error={organizations.error} empty={!orgs.length}>
                            <HTMLTable striped className="lc-table" aria-label={t('sa.organizations')}>
                                <thead><tr><th>{t('common.name')}</th><th>{t('org.domain')}</th><th>{t('org.subdomain')}</th><th>{t('sa.plan')}</th><th>{t('sa.status')}</th><th><span className="lc-sr-only">{t('sa.actions')}</span></th></tr></thead>
                                <tbody>
                                    {orgs.map((o) => (
                                        <tr key={o.id}>
                                            <td><strong>{o.name}</strong></td>
                                            <td>{o.domain}</td>
                                            <td><code>{o.subdomain}</code></td>
                                            <td><Tag minimal>{o.subscriptionPlan}</Tag></td>
                                            <td><ActiveTag active={o.isActive} /></td>
                                            <td><RowActions active={o.isActive} onEdit={() => setOrgEditing({ mode: 'edit', item: o })}
                                                onDeactivate={() => setDeactivating({ resource: 'organizations', id: o.id, label: o.name })} />
                                            <Button small minimal icon="bank-account" text={t('sa.loyalty')} aria-label={t('sa.loyaltyOf', { name: o.name })} onClick={() => setLoyaltyOf(o)} /></td>
                                        </tr>
                                    ))}
                                </tbody>
                            </HTMLTable>
                        </TableBox>
                    )} />
                    <TabPanel id="bots" parentId="super-admin-tabs" selectedTabId={tab} panel={(
                        <TableBox label={t('sa.bots')} loading={bots.isPending} error={bots.error} empty={!bots.data?.length}>
                            <HTMLTable striped className="lc-table" aria-label={t('sa.bots')}>
                                <thead><tr><th>{t('common.name')}</th><th>{t('sa.organization')}</th><th>{t('sa.description')}</th><th>{t('sa.embed')}</th><th>{t('sa.status')}</th><th><span className="lc-sr-only">{t('sa.actions')}</span></th></tr></thead>
                                <tbody>
                                    {(bots.data ?? []).map((b) => (
                                        <tr key={b.id}>
                                            <td><strong>{b.name}</strong></td>
                                            <td>{b.organizationName ?? orgName.get(b.organizationId)}</td>
                                            <td className="lc-muted-cell">{b.description || '—'}</td>
                                            <td><span className="lc-embed-cell"><code className="lc-code-inline">/widget-{b.subdomain}.js</code>
                                                <CopyButton small text={b.embedSnippet} label={t('sa.copySnippet')} ariaLabel={t('sa.copySnippetOf', { name: b.name })} /></span></td>
                                            <td><ActiveTag active={b.isActive} /></td>
                                            <td><RowActions active={b.isActive} onEdit={() => setBotEditing({ mode: 'edit', item: b })}
                                                onDeactivate={() => setDeactivating({ resource: 'bot-instances', id: b.id, label: b.name })} /></td>
                                        </tr>
                                    ))}
                                </tbody>
                            </HTMLTable>
                        </TableBox>
                    )} />
                    <TabPanel id="users" parentId="super-admin-tabs" selectedTabId={tab} panel={(
                        <TableBox label={t('sa.users')} loading={users.isPending} error={users.error} empty={!users.data?.length}>
                            <HTMLTable striped className="lc-table" aria-label={t('sa.users')}>
                                <thead><tr><th>{t('common.email')}</th><th>{t('sa.role')}</th><th>{t('sa.organization')}</th><th title={t('sa.timesIn', { zone: 'UTC' })}>{t('sa.lastLogin')}</th><th>{t('sa.status')}</th><th><span className="lc-sr-only">{t('sa.actions')}</span></th></tr></thead>
                                <tbody>
                                    {(users.data ?? []).map((u) => (
                                        <tr key={u.id}>
                                            <td><strong>{u.email}</strong>{u.name && <div className="bp5-text-muted bp5-text-small">{u.name}</div>}</td>
                                            <td><Tag minimal round>{ROLE_LABELS[u.role] ? t(ROLE_LABELS[u.role]) : u.role}</Tag></td>
                                            <td>{u.organizationId ? orgName.get(u.organizationId) ?? `#${u.organizationId}` : '—'}</td>
                                            <td className="lc-muted-cell">{u.lastLoginAt ? formatStaffTime(u.lastLoginAt, 'UTC', lang) : t('sa.never')}</td>
                                            <td><ActiveTag active={u.isActive} /></td>
                                            <td><RowActions active={u.isActive && u.email !== email} onEdit={() => setUserEditing({ mode: 'edit', item: u })}
                                                onDeactivate={() => setDeactivating({ resource: 'users', id: u.id, label: u.email })} /></td>
                                        </tr>
                                    ))}
                                </tbody>
                            </HTMLTable>
                        </TableBox>
                    )} />
                </Card>
            </main>
            <OrganizationDialog editing={orgEditing} onClose={() => setOrgEditing(null)} />
            <BotDialog editing={botEditing} onClose={() => setBotEditing(null)} organizations={orgs} />
            <UserDialog editing={userEditing} onClose={() => setUserEditing(null)} organizations={orgs} />
            <DeactivateAlert target={deactivating} onClose={() => setDeactivating(null)} />
            <LoyaltyProviderDialog organization={loyaltyOf} onClose={() => setLoyaltyOf(null)} />
        </>
    );
}

/**
 * /super-admin (SPEC §2, §4): the stored super-admin token is verified on load (useStaffSession); on failure it
 * is removed and Access Denied shows with a Go to Login button.
 */
export default function SuperAdmin() {
    const navigate = useNavigate();
    const session = useStaffSession('superAdmin');
    const t = useT();

    if (session.state === 'loading') {
        return <div className="lc-center"><Spinner size={40} /></div>;
    }
    if (session.state === 'signed-out') {
        return (
            <main className="lc-center">
                <EmptyState icon="lock" title={t('sa.accessDenied')} level={1} description={t('sa.accessDeniedText')}
                    action={<Button intent="primary" icon="log-in" text={t('sa.goToLogin')} onClick={() => navigate('/super-admin-login')} />} />
            </main>
        );
    }
    const logout = () => {
        session.signOut();
        navigate('/super-admin-login', { replace: true });
    };
    return <Dashboard email={session.user.email} onLogout={logout} />;
}
