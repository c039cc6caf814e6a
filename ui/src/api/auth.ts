import { useMutation, useQuery } from '@tanstack/react-query';
import { ADMIN_TOKEN_KEY, apiRequest, ApiError, ORG_TOKEN_KEY, ORG_USER_KEY, SUPER_ADMIN_TOKEN_KEY } from './client';

import type { Role } from '../../../core/types/api';
import type { Translate } from '../i18n';

export type { Role };

/** The verified user of a staff token (GET /api/{admin,super-admin,org}/verify). */
export interface AuthUser {
    id: number;
    email: string;
    role: Role;
    organizationId: number | null;
}

export interface LoginRequest {
    email: string;
    password: string;
}

export interface LoginResponse {
    token: string;
    message: string;
}

export interface OrgSessionUser {
    id: number;
    email: string;
    name?: string | null;
    role: Role;
    organizationId: number;
    organization: { id: number; name: string; domain: string; subdomain: string; subscriptionPlan?: string; isActive?: boolean } | null;
}

export interface OrgLoginResponse extends LoginResponse {
    user: OrgSessionUser;
}

export const LOGIN_PATHS = {
    admin: '/api/admin/login',
    superAdmin: '/api/super-admin/login',
    org: '/api/org/login'
} as const;

export const VERIFY_PATHS = {
    admin: '/api/admin/verify',
    superAdmin: '/api/super-admin/verify',
    org: '/api/org/verify'
} as const;

/** A wait as the login texts say it: minutes, or seconds under a minute; rounded up, so never shorter than the wait. */
export function wait(seconds: number): { unit: 'second' | 'minute'; count: number } {
    const s = Math.max(1, Math.ceil(seconds));
    return s < 60 ? { unit: 'second', count: s } : { unit: 'minute', count: Math.ceil(s / 60) };
}

/**
 * SPEC §8: a login failure shows the server's message, else 'Login failed'; a failure to reach the server
 * shows the screen's network message. A throttled login (429) says how long to wait, from Retry-After.
 */
export function loginErrorMessage(error: unknown, networkMessage: string, t: Translate): string {
    if (error instanceof ApiError && error.status === 429 && error.retryAfterSeconds !== null) {
        return t('login.throttled', wait(error.retryAfterSeconds));
    }
    if (error instanceof ApiError) {
        return error.serverMessage || t('login.failed');
    }
    if (error instanceof TypeError) {
        return networkMessage;
    }
    return t('login.failed');
}

export function useLogin<T extends LoginResponse = LoginResponse>(path: string) {
    return useMutation({
        mutationFn: (body: LoginRequest) => apiRequest<T>(path, { method: 'POST', body, tokenKey: null })
    });
}

interface VerifyResponse {
    valid: boolean;
    user: AuthUser;
}

/** Verifies the stored token under tokenKey once per token value (the query key holds the token). */
export function useVerify(path: string, tokenKey: string, token: string | null) {
    return useQuery({
        queryKey: ['verify', path, token],
        queryFn: () => apiRequest<VerifyResponse>(path, { tokenKey }).then((r) => r.user),
        enabled: !!token
    });
}

export function useDemoCredentials() {
    return useQuery({
        queryKey: ['super-admin-demo-credentials'],
        queryFn: () => apiRequest<LoginRequest>('/api/super-admin/demo-credentials', { tokenKey: null })
    });
}

/** The stored organization session (SPEC §6): token plus user record; null when missing or malformed. */
export function readOrgSession(): { token: string; user: OrgSessionUser } | null {
    const token = localStorage.getItem(ORG_TOKEN_KEY);
    const raw = localStorage.getItem(ORG_USER_KEY);
    if (!token || !raw) {
        return null;
    }
    try {
        const user = JSON.parse(raw) as OrgSessionUser;
        if (!user || typeof user.email !== 'string' || typeof user.organizationId !== 'number') {
            return null;
        }
        return { token, user };
    }
    catch {
        return null;
    }
}

export function clearOrgSession(): void {
    localStorage.removeItem(ORG_TOKEN_KEY);
    localStorage.removeItem(ORG_USER_KEY);
}

export { ADMIN_TOKEN_KEY, SUPER_ADMIN_TOKEN_KEY, ORG_TOKEN_KEY, ORG_USER_KEY };
