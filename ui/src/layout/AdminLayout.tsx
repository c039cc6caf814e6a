import { Suspense, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { Button, Icon, Spinner } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useAdminAuth } from '../auth/AdminGuard';
import { useAdminOrganization } from '../api/console';
import { SettingsDrawer } from './SettingsDrawer';
import { ProfileDialog } from './ProfileDialog';
import { AgentPresenceProvider } from './agent-presence';
import { AwayNotice, HeaderPresence } from './HeaderPresence';
import { apiRequest } from '../api/client';
import { AdminTextKey, useSetLanguage, useT } from '../i18n';
import { useProfile } from '../api/profile';
import './admin-layout.css';

/** The sections of the staff side, in the header of every admin page. */
export const ADMIN_SECTIONS: Array<{ to: string; label: AdminTextKey; icon: IconName; also?: string[] }> = [
    { to: '/admin-dashboard', label: 'section.dashboard', icon: 'dashboard' },
    { to: '/admin-chat', label: 'section.liveChat', icon: 'chat' },
    { to: '/admin-questions', label: 'section.questions', icon: 'help' },
    { to: '/ai-management', label: 'section.ai', icon: 'predictive-analysis' },
    { to: '/analytics', label: 'section.analytics', icon: 'timeline-bar-chart' },
    { to: '/test', label: 'section.test', icon: 'lab-test', also: ['/test-dashboard'] }
];

function SectionLinks({ onNavigate }: { onNavigate?: () => void }) {
    const { pathname } = useLocation();
    const t = useT();
    return (
        <ul className="lc-shell-nav-list">
            {ADMIN_SECTIONS.map((s) => {
                const current = pathname === s.to || pathname.startsWith(`${s.to}/`) || !!s.also?.includes(pathname);
                return (
                    <li key={s.to}>
                        <NavLink to={s.to} className={`lc-shell-link${current ? ' is-current' : ''}`} aria-current={current ? 'page' : undefined} onClick={onNavigate}>
                            <Icon icon={s.icon} size={14} />
                            <span>{t(s.label)}</span>
                        </NavLink>
                    </li>
                );
            })}
        </ul>
    );
}

/** How long Logout waits for the server to set the agent Away before it forgets the token anyway. */
const LOGOUT_WAIT_MS = 3000;

/**
 * The one shell of every staff page (issue 14): the organization, the sections, the agent's presence (issue 23: the
 * socket, the Available switch and the waiting count on every page, with the new-chat alerts), the signed-in user
 * (their profile: the name customers see), Settings (a drawer: email transcripts, notifications) and Logout
 * (→ /admin-access-2024, after telling the server the agent is Away). Below 900 px the sections fold into a menu
 * button. Each page brings its own h1; the shell holds the page in the one main landmark.
 */
export default function AdminLayout() {
    return (
        <AgentPresenceProvider>
            <Shell />
        </AgentPresenceProvider>
    );
}

function Shell() {
    const { user, logout: forget } = useAdminAuth();
    const [profileOpen, setProfileOpen] = useState(false);
    const [leaving, setLeaving] = useState(false);
    // The agent is Away before the token is dropped (a failure or a slow server never keeps them signed in).
    const logout = () => {
        setLeaving(true);
        const timeout = new Promise((resolve) => setTimeout(resolve, LOGOUT_WAIT_MS));
        void Promise.race([apiRequest('/api/chat/agent/logout', { method: 'POST', body: {} }).catch(() => undefined), timeout]).then(forget);
    };
    const organization = useAdminOrganization();
    const [menuOpen, setMenuOpen] = useState(false);
    const [settingsOpen, setSettingsOpen] = useState(false);
    const { pathname } = useLocation();
    const t = useT();

    useEffect(() => setMenuOpen(false), [pathname]);

    // The agent's language is a profile setting (issue 27): once the profile is known, the app speaks it (none set:
    // what this browser remembers, else its languages).
    const profile = useProfile();
    const setLanguage = useSetLanguage();
    const profileLanguage = profile.data ? profile.data.language : undefined;
    useEffect(() => {
        if (profileLanguage) {
            setLanguage(profileLanguage);
        }
    }, [profileLanguage, setLanguage]);

    const storeName = organization.data?.storeName || organization.data?.name || '';
    return (
        <div className="lc-shell">
            <a className="lc-skip" href="#main">{t('shell.skipToContent')}</a>
            <header className="lc-shell-header">
                <div className="lc-shell-bar">
                    <Button className="lc-shell-menu" minimal icon={menuOpen ? 'cross' : 'menu'} aria-label={t(menuOpen ? 'shell.closeMenu' : 'shell.menu')}
                        aria-expanded={menuOpen} aria-controls="lc-shell-menu-panel" onClick={() => setMenuOpen((o) => !o)} data-testid="menu-button" />
                    <span className="lc-shell-brand">
                        <Icon icon="chat" className="lc-brand-icon" />
                        <span className="lc-shell-org" data-testid="shell-organization" title={storeName}>{storeName || 'loyalty-chat'}</span>
                    </span>
                    <nav className="lc-shell-nav" aria-label={t('shell.sections')}>
                        <SectionLinks />
                    </nav>
                    <HeaderPresence />
                    <Button minimal icon="user" className="lc-shell-profile" title={t('profile.open')} aria-label={user.email}
                        onClick={() => setProfileOpen(true)} data-testid="open-profile">
                        <span className="lc-shell-user" data-testid="shell-user">{user.email}</span>
                    </Button>
                    <Button minimal icon="cog" aria-label={t('shell.settings')} className="lc-shell-settings" onClick={() => setSettingsOpen(true)} data-testid="open-settings">
                        <span className="lc-shell-xwide">{t('shell.settings')}</span>
                    </Button>
                    <Button minimal icon="log-out" aria-label={t('shell.logout')} onClick={logout} disabled={leaving} data-testid="logout">
                        <span className="lc-shell-xwide">{t('shell.logout')}</span>
                    </Button>
                </div>
                <AwayNotice />
                {menuOpen && (
                    <nav id="lc-shell-menu-panel" className="lc-shell-menu-panel" aria-label={t('shell.sectionsMenu')}>
                        <SectionLinks onNavigate={() => setMenuOpen(false)} />
                        <div className="lc-shell-menu-user">{t('shell.signedInAs', { email: user.email })}</div>
                        <div className="lc-shell-menu-actions">
                            <Button icon="user" text={t('profile.open')} onClick={() => { setMenuOpen(false); setProfileOpen(true); }} />
                            <Button icon="cog" text={t('shell.settings')} onClick={() => { setMenuOpen(false); setSettingsOpen(true); }} />
                        </div>
                    </nav>
                )}
            </header>
            <main id="main" className="lc-shell-main" tabIndex={-1}>
                <Suspense fallback={<div className="lc-center"><Spinner /></div>}>
                    <Outlet />
                </Suspense>
            </main>
            <SettingsDrawer isOpen={settingsOpen} onClose={() => setSettingsOpen(false)} />
            <ProfileDialog isOpen={profileOpen} onClose={() => setProfileOpen(false)} />
        </div>
    );
}
