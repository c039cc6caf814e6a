import { ReactNode, useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { Callout, Card, Elevation, FormGroup, HTMLSelect, Icon, Spinner, Tab, TabPanel, Tabs, Tag } from '@blueprintjs/core';
import { ApiError } from '../api/client';
import { BotInstance, useOrgAnalytics, useOrgBotInstances } from '../api/tenants';
import { AppHeader } from '../components/AppHeader';
import { CopyButton } from '../components/CopyButton';
import { EmptyState, Heading } from '../components/a11y';
import { StaffUser, useStaffSession } from '../auth/session';
import { BarChart, COLORS } from './analytics/charts';
import { useLanguage, useT } from '../i18n';
import { formatDay } from './analytics/common';

function Stat({ label, value, icon }: { label: string; value: ReactNode; icon: ReactNode }) {
    return (
        <Card elevation={Elevation.ONE} className="lc-stat lc-count">
            <div className="lc-count-icon">{icon}</div>
            <div>
                <div className="lc-stat-value">{value}</div>
                <div className="lc-stat-label">{label}</div>
            </div>
        </Card>
    );
}

function BotCard({ bot }: { bot: BotInstance }) {
    const t = useT();
    // The sentence around the <code>&lt;/body&gt;</code> tag, in the reader's language (the tag goes where {tag} is).
    const [beforeTag, afterTag = ''] = t('org.embedCode', { tag: '\u0000' }).split('\u0000');
    return (
        <Card elevation={Elevation.ONE} className="lc-bot-card" data-bot-id={bot.id}>
            <div className="lc-bot-head">
                <div>
                    <Heading level={3} look={5} className="lc-bot-name">{bot.name}</Heading>
                    <p className="bp5-text-muted">{bot.description || t('org.noDescription')}</p>
                </div>
                <Tag round minimal intent={bot.isActive ? 'success' : 'none'}>{bot.isActive ? t('common.active') : t('common.inactive')}</Tag>
            </div>
            <div className="lc-snippet-label">{beforeTag}<code>&lt;/body&gt;</code>{afterTag}</div>
            <pre className="lc-snippet" aria-label={t('org.embedFor', { name: bot.name })}>{bot.embedSnippet}</pre>
            <div className="lc-bot-foot">
                <span className="bp5-text-muted bp5-text-small">{t('org.publicKey')} <code>{bot.publicKey}</code></span>
                <CopyButton text={bot.embedSnippet} />
            </div>
        </Card>
    );
}

/**
 * /org-dashboard (SPEC §2 'Organization'): the organization user's own bot instances (embed snippet with
 * a Copy button) and totals. Missing or invalid stored session data, or a token the verify call rejects
 * (useStaffSession), go to /org-login; so does a token the data calls reject later.
 */
export default function OrgDashboard() {
    const navigate = useNavigate();
    const session = useStaffSession('org');
    if (session.state === 'loading') {
        return <div className="lc-center"><Spinner size={40} /></div>;
    }
    if (session.state === 'signed-out') {
        return <Navigate to="/org-login" replace />;
    }
    const logout = () => {
        session.signOut();
        navigate('/org-login', { replace: true });
    };
    return <Dashboard user={session.user} onLogout={logout} onRejected={session.signOut} />;
}

function Dashboard({ user, onLogout, onRejected }: { user: StaffUser; onLogout: () => void; onRejected: () => void }) {
    const organizationId = user.organizationId;
    const bots = useOrgBotInstances(organizationId);
    const analytics = useOrgAnalytics(organizationId);
    const [days, setDays] = useState(30);
    const period = useOrgAnalytics(organizationId, days);
    const [tab, setTab] = useState<string>('overview');
    const rejected = [bots.error, analytics.error, period.error].some((e) => e instanceof ApiError && (e.status === 401 || e.status === 404));

    useEffect(() => {
        if (rejected) {
            onRejected();       // signed out: the page above goes to /org-login
        }
    }, [rejected, onRejected]);

    const t = useT();
    const lang = useLanguage();
    const data = analytics.data;
    const number = (n: number | undefined) => (n === undefined ? '—' : t('common.number', { value: n }));
    const rate = (r: number) => t('common.percent', { value: Math.round(r * 10) / 1000 });
    const organizationName = user.organization?.name ?? data?.name ?? t('org.yourOrganization');

    return (
        <>
            <AppHeader title={organizationName} icon="office" user={user} onLogout={onLogout} />
            <main className="lc-page">
                <div className="lc-page-head">
                    <div>
                        <Heading level={2} look={4} className="lc-page-title">{organizationName}</Heading>
                        <p className="bp5-text-muted">{t('org.signedInAs', { email: user.email, role: user.role })}</p>
                    </div>
                </div>
                <Card elevation={Elevation.ONE} className="lc-tabs-card">
                    <Tabs id="org-tabs" className="lc-wrap-tabs" selectedTabId={tab} onChange={(id) => setTab(String(id))} large>
                        <Tab id="overview" title={t('org.tabOverview')} />
                        <Tab id="bots" title={t('org.tabBots', { count: bots.data?.length ?? 0 })} />
                        <Tab id="analytics" title={t('section.analytics')} />
                    </Tabs>
                    <div className="lc-tab-panel">
                        <TabPanel id="overview" parentId="org-tabs" selectedTabId={tab} panel={(
                            <>
                                {analytics.isPending ? <Spinner size={24} /> : analytics.isError ? <Callout intent="danger">{String(analytics.error.message)}</Callout> : (
                                    <>
                                        <div className="lc-stats">
                                            <Stat label={t('stats.totalInteractions')} value={number(data?.totalInteractions)} icon={<Icon icon="chat" size={20} />} />
                                            <Stat label={t('stats.loyaltyChecks')} value={number(data?.loyaltyChecks)} icon={<Icon icon="star" size={20} />} />
                                            <Stat label={t('stats.liveChatSessions')} value={number(data?.liveChatSessions)} icon={<Icon icon="headset" size={20} />} />
                                            <Stat label={t('stats.successRate')} value={data ? rate(data.successRate) : '—'} icon={<Icon icon="tick-circle" size={20} />} />
                                        </div>
                                        <dl className="lc-status-list lc-org-facts">
                                            <div className="lc-status-row"><dt>{t('org.domain')}</dt><dd>{data?.domain}</dd></div>
                                            <div className="lc-status-row"><dt>{t('org.subdomain')}</dt><dd><code>{data?.subdomain}</code></dd></div>
                                            <div className="lc-status-row"><dt>{t('org.period')}</dt><dd>{t('org.lastDays', { count: 30 })}</dd></div>
                                        </dl>
                                    </>
                                )}
                            </>
                        )} />
                        <TabPanel id="bots" parentId="org-tabs" selectedTabId={tab} panel={(
                            bots.isPending ? <Spinner size={24} /> : bots.isError ? <Callout intent="danger">{bots.error.message}</Callout>
                                : !bots.data.length ? <EmptyState icon="chat" title={t('org.noBots')} level={3} description={t('org.noBotsText')} />
                                    : <div className="lc-bot-list">{bots.data.map((bot) => <BotCard key={bot.id} bot={bot} />)}</div>
                        )} />
                        <TabPanel id="analytics" parentId="org-tabs" selectedTabId={tab} panel={(
                            <>
                                <FormGroup label={t('org.period')} labelFor="org-period" inline className="lc-period">
                                    <HTMLSelect id="org-period" value={days} onChange={(e) => setDays(Number(e.target.value))}
                                        options={[7, 30, 90].map((count) => ({ value: count, label: t('org.lastDays', { count }) })).concat({ value: 365, label: t('org.last12Months') })} />
                                </FormGroup>
                                {period.isPending ? <Spinner size={24} /> : period.isError ? <Callout intent="danger">{period.error.message}</Callout> : (
                                    <>
                                    <div className="lc-stats">
                                        <Stat label={t('stats.totalInteractions')} value={number(period.data.totalInteractions)} icon={<Icon icon="chat" size={20} />} />
                                        <Stat label={t('stats.loyaltyChecks')} value={number(period.data.loyaltyChecks)} icon={<Icon icon="star" size={20} />} />
                                        <Stat label={t('stats.liveChatSessions')} value={number(period.data.liveChatSessions)} icon={<Icon icon="headset" size={20} />} />
                                        <Stat label={t('stats.successRate')} value={rate(period.data.successRate)} icon={<Icon icon="tick-circle" size={20} />} />
                                    </div>
                                    <Card elevation={Elevation.ZERO} className="lc-org-daily" data-testid="org-daily-chart">
                                        <Heading level={3} look={5}>{t('org.daily', { zone: period.data.timeZone })}</Heading>
                                        <BarChart stacked width={1000} title={t('org.dailyChart')} rows={period.data.daily.map((r) => ({ label: formatDay(r.date, lang), values: [r.widget_opened, r.verified, r.points_viewed, r.live_chat_requested] }))}
                                            series={[{ name: t('org.series.opened'), color: COLORS.other }, { name: t('org.series.verified'), color: COLORS.successful }, { name: t('org.series.points'), color: COLORS.points }, { name: t('org.series.liveChat'), color: COLORS.failed }]} />
                                    </Card>
                                    </>
                                )}
                                <Callout intent="primary" icon="info-sign" className="lc-note">
                                    {t('org.contactAdmin')}
                                </Callout>
                            </>
                        )} />
                    </div>
                </Card>
            </main>
        </>
    );
}
