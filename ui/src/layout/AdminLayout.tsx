import { Suspense, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { Button, Icon, Spinner } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useAdminAuth } from '../auth/AdminGuard';
import { useAdminOrganization } from '../api/console';
import { SettingsDrawer } from './SettingsDrawer';
import { AdminTextKey, useT } from '../i18n';
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

/**
 * The one shell of every staff page (issue 14): the organization, the sections, the signed-in user, Settings
 * (a drawer: email transcripts, notifications) and Logout (→ /admin-access-2024). Below 900 px the sections
 * fold into a menu button. Each page brings its own h1; the shell holds the page in the one main landmark.
 */
export default function AdminLayout() {
    const { user, logout } = useAdminAuth();
    const organization = useAdminOrganization();
    const [menuOpen, setMenuOpen] = useState(false);
    const [settingsOpen, setSettingsOpen] = useState(false);
    const { pathname } = useLocation();
    const t = useT();

    useEffect(() => setMenuOpen(false), [pathname]);

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
                    <span className="lc-shell-user" title={user.email} data-testid="shell-user">{user.email}</span>
                    <Button minimal icon="cog" aria-label={t('shell.settings')} className="lc-shell-settings" onClick={() => setSettingsOpen(true)} data-testid="open-settings">
                        <span className="lc-shell-wide">{t('shell.settings')}</span>
                    </Button>
                    <Button minimal icon="log-out" text={t('shell.logout')} onClick={logout} data-testid="logout" />
                </div>
                {menuOpen && (
                    <nav id="lc-shell-menu-panel" className="lc-shell-menu-panel" aria-label={t('shell.sectionsMenu')}>
                        <SectionLinks onNavigate={() => setMenuOpen(false)} />
                        <div className="lc-shell-menu-user">{t('shell.signedInAs', { email: user.email })}</div>
                    </nav>
                )}
            </header>
            <main id="main" className="lc-shell-main" tabIndex={-1}>
                <Suspense fallback={<div className="lc-center"><Spinner /></div>}>
                    <Outlet />
                </Suspense>
            </main>
            <SettingsDrawer isOpen={settingsOpen} onClose={() => setSettingsOpen(false)} />
        </div>
    );
}
