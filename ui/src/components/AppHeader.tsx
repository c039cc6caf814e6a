import type { ReactNode } from 'react';
import { Alignment, Button, Icon, Navbar, NavbarDivider, NavbarGroup, NavbarHeading, Tag } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { AdminTextKey, useT } from '../i18n';

/** The roles and their texts' keys. */
export const ROLE_LABELS: Record<string, AdminTextKey> = {
    super_admin: 'role.super_admin',
    admin: 'role.admin',
    org_user: 'role.org_user'
};

export interface AppHeaderProps {
    title: string;
    icon?: IconName;
    /** Who is signed in: shown with their role at the right. */
    user?: { email: string; role: string } | null;
    onLogout?: () => void;
    /** Extra buttons before the user (e.g. navigation). */
    children?: ReactNode;
}

/**
 * The shared top bar of every signed-in screen, the page's banner landmark: product, the screen title (the
 * page's one h1), who is signed in, Logout.
 */
export function AppHeader({ title, icon = 'chat', user, onLogout, children }: AppHeaderProps) {
    const t = useT();
    return (
        <header>
            <Navbar className="lc-navbar" fixedToTop={false}>
                <div className="lc-navbar-inner">
                    <NavbarGroup align={Alignment.LEFT} className="lc-navbar-left">
                        <NavbarHeading className="lc-brand">
                            <Icon icon={icon} className="lc-brand-icon" />
                            <span className="lc-brand-name">loyalty-chat</span>
                        </NavbarHeading>
                        <NavbarDivider className="lc-hide-phone" />
                        <h1 className="lc-navbar-title">{title}</h1>
                    </NavbarGroup>
                    <NavbarGroup align={Alignment.RIGHT} className="lc-navbar-right">
                        {children}
                        {user && (
                            <span className="lc-user" title={user.email}>
                                <span className="lc-user-email lc-hide-phone">{user.email}</span>
                                <Tag minimal round intent="primary" className="lc-role-tag">{ROLE_LABELS[user.role] ? t(ROLE_LABELS[user.role]) : user.role}</Tag>
                            </span>
                        )}
                        {onLogout && <Button minimal icon="log-out" text={t('shell.logout')} onClick={onLogout} />}
                    </NavbarGroup>
                </div>
            </Navbar>
        </header>
    );
}
