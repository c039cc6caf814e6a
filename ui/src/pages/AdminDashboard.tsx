import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { AnchorButton, Button, Card, Elevation, H1, Icon, Intent, Spinner, Tag } from '@blueprintjs/core';
import { Heading } from '../components/a11y';
import type { IconName } from '@blueprintjs/icons';
import { apiRequest } from '../api/client';
import { AiAgentPanel } from '../features/ai/AiAgentPanel';
import { WidgetLookCard } from '../features/widget/WidgetLookCard';
import { WidgetLanguagesCard } from '../features/widget/WidgetLanguagesCard';
import { AdminTextKey, useT } from '../i18n';

interface Health {
    status: string;
    database: string;
    redis: string;
    version: string;
}

/** The admin-home variant of the analytics summary (SPEC §3); shown only once the analytics API answers. */
interface Summary {
    totalInteractions?: number;
    successRate?: number;
    activeDomains?: number;
    loyaltyChecks?: number;
    liveChatSessions?: number;
}

const SECTIONS: { to: string; title: AdminTextKey; text: AdminTextKey; icon: IconName; newTab?: boolean }[] = [
    { to: '/admin-chat', title: 'home.liveChat', text: 'home.liveChatText', icon: 'chat' },
    { to: '/analytics', title: 'home.analytics', text: 'home.analyticsText', icon: 'timeline-bar-chart' },
    { to: '/admin-questions', title: 'home.questions', text: 'home.questionsText', icon: 'help' },
    { to: '/ai-management', title: 'home.ai', text: 'home.aiText', icon: 'predictive-analysis' },
    { to: '/test-dashboard', title: 'home.test', text: 'home.testText', icon: 'lab-test' },
    { to: '/demo', title: 'home.demo', text: 'home.demoText', icon: 'shop', newTab: true }
];

function SectionCard({ to, title, text, icon, newTab }: (typeof SECTIONS)[number]) {
    const t = useT();
    const body: ReactNode = (
        <Card interactive elevation={Elevation.ONE} className="lc-section-card">
            <span className="lc-section-icon"><Icon icon={icon} size={22} /></span>
            <div>
                <Heading level={2} look={5} className="lc-section-title">
                    {t(title)}{newTab && <><Icon icon="share" size={12} className="lc-newtab" /><span className="lc-sr-only"> {t('home.newTab')}</span></>}
                </Heading>
                <p className="bp5-text-muted">{t(text)}</p>
            </div>
        </Card>
    );
    return newTab
        ? <a className="lc-card-link" href={to} target="_blank" rel="noopener noreferrer">{body}</a>
        : <Link className="lc-card-link" to={to}>{body}</Link>;
}

function statusIntent(value: string): Intent {
    return value === 'ok' || value === 'sqlite' || value === 'postgres' ? 'success' : value === 'disabled' ? 'none' : 'danger';
}

function SystemStatus() {
    const t = useT();
    const health = useQuery({ queryKey: ['health'], queryFn: () => apiRequest<Health>('/health', { tokenKey: null }) });
    const rows: { label: string; value: ReactNode }[] = health.data
        ? [
            { label: t('home.apiServer'), value: <Tag intent={statusIntent(health.data.status)} round>{health.data.status === 'ok' ? t('home.operational') : health.data.status}</Tag> },
            { label: t('home.database'), value: <Tag intent="success" round minimal>{health.data.database}</Tag> },
            { label: 'Redis', value: <Tag intent={statusIntent(health.data.redis)} round minimal>{health.data.redis === 'disabled' ? t('home.redisUnused') : health.data.redis}</Tag> },
            { label: t('home.version'), value: <code>{health.data.version}</code> }
        ]
        : [];
    return (
        <Card elevation={Elevation.ONE} className="lc-status-card">
            <Heading level={2} look={5}><Icon icon="pulse" /> {t('home.status')}</Heading>
            {health.isPending && <Spinner size={20} />}
            {health.isError && <Tag intent="danger" round>{t('home.unreachable')}</Tag>}
            <dl className="lc-status-list">
                {rows.map((row) => (
                    <div key={row.label} className="lc-status-row"><dt>{row.label}</dt><dd>{row.value}</dd></div>
                ))}
            </dl>
        </Card>
    );
}

function Stat({ label, value }: { label: string; value: ReactNode }) {
    return (
        <Card elevation={Elevation.ZERO} className="lc-stat">
            <div className="lc-stat-value">{value}</div>
            <div className="lc-stat-label">{label}</div>
        </Card>
    );
}

function Overview() {
    const summary = useQuery({ queryKey: ['analytics', 'summary', 30, 'home'], queryFn: () => apiRequest<Summary>('/api/analytics/summary?days=30') });
    const t = useT();
    const show = (n: number | undefined, suffix = '') => (summary.data && typeof n === 'number' ? `${Math.round(n * 10) / 10}${suffix}` : '—');
    return (
        <div className="lc-stats" role="group" aria-label={t('home.last30Days')}>
            <Stat label={t('home.successRate')} value={show(summary.data?.successRate, '%')} />
            <Stat label={t('home.activeDomains')} value={show(summary.data?.activeDomains)} />
            <Stat label={t('home.loyaltyChecks')} value={show(summary.data?.loyaltyChecks)} />
            <Stat label={t('home.liveChatSessions')} value={show(summary.data?.liveChatSessions)} />
        </div>
    );
}

/** /admin-dashboard (SPEC §2 'Admin home'), inside the admin shell (AdminLayout). */
export default function AdminDashboard() {
    const navigate = useNavigate();
    const t = useT();
    return (
        <div className="lc-page">
            <div className="lc-page-head">
                <div>
                    <H1 className="lc-page-title lc-h1">{t('home.title')}</H1>
                    <p className="bp5-text-muted">{t('home.subtitle')}</p>
                </div>
            </div>
            <Overview />
            <div className="lc-home-layout">
                <div className="lc-home-main">
                    <section className="lc-grid" aria-label={t('home.sections')}>
                        {SECTIONS.map((section) => <SectionCard key={section.to} {...section} />)}
                    </section>
                    <AiAgentPanel />
                </div>
                <aside className="lc-home-side">
                    <SystemStatus />
                    <Card elevation={Elevation.ONE}>
                        <Heading level={2} look={5}><Icon icon="flash" /> {t('home.quickActions')}</Heading>
                        <div className="lc-actions">
                            <Button icon="chat" intent="primary" text={t('home.handleChats')} onClick={() => navigate('/admin-chat')} />
                            <Button icon="add" text={t('home.addQuestion')} onClick={() => navigate('/admin-questions?add=1')} />
                            <Button icon="predictive-analysis" text={t('home.aiKnowledge')} onClick={() => navigate('/ai-management')} />
                            <Button icon="lab-test" text={t('home.runTests')} onClick={() => navigate('/test')} />
                            <AnchorButton icon="shop" text={t('home.openDemo')} href="/demo" target="_blank" rel="noopener noreferrer" />
                        </div>
                    </Card>
                    <WidgetLookCard />
                    <WidgetLanguagesCard />
                </aside>
            </div>
        </div>
    );
}
