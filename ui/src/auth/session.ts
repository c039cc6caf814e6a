import { useCallback, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
    ADMIN_TOKEN_KEY, AuthUser, clearOrgSession, ORG_TOKEN_KEY, OrgSessionUser, readOrgSession, SUPER_ADMIN_TOKEN_KEY, VERIFY_PATHS
} from '../api/auth';
import { apiRequest } from '../api/client';

/** The three kinds of staff sign-in (SPEC §2): each has its own stored token and verify call. */
export type StaffKind = 'admin' | 'superAdmin' | 'org';

/** The verified user; for an organization user also the organization of the stored session (its name for the header). */
export type StaffUser = AuthUser & { organization?: OrgSessionUser['organization'] };

export type StaffSession =
    | { state: 'loading' }
    | { state: 'signed-in'; user: StaffUser; token: string }
    | { state: 'signed-out' };

const TOKEN_KEYS: Record<StaffKind, string> = { admin: ADMIN_TOKEN_KEY, superAdmin: SUPER_ADMIN_TOKEN_KEY, org: ORG_TOKEN_KEY };

/** Forgets the stored sign-in of this kind (the organization's user record too). */
export function forgetStaffToken(kind: StaffKind): void {
    if (kind === 'org') {
        clearOrgSession();
    }
    else {
        localStorage.removeItem(TOKEN_KEYS[kind]);
    }
}

/**
 * True once the page is being left (reload, navigation): the browser then aborts the verify call in flight, and
 * that aborted call says nothing about the token, so it must not remove it (the next page verifies it again).
 */
let leavingPage = false;
if (typeof window !== 'undefined') {
    window.addEventListener('beforeunload', () => { leavingPage = true; });
    window.addEventListener('pagehide', () => { leavingPage = true; });
    window.addEventListener('pageshow', () => { leavingPage = false; });
}

/** A verify call that the browser cut off (the page is going away) rather than one the server or network failed. */
function interrupted(err: unknown, signal?: AbortSignal): boolean {
    return leavingPage || signal?.aborted === true || (err instanceof DOMException && err.name === 'AbortError');
}

/**
 * Verifies a stored token once per token value. A token the server rejects, a network error (SPEC §4 'Admin
 * auth'), or for an organization user stored session data that is invalid or of another user, removes what was
 * stored (unless a newer token replaced it meanwhile) and answers null: signed out.
 */
async function verifyStored(kind: StaffKind, token: string, signal?: AbortSignal): Promise<StaffUser | null> {
    try {
        const { user } = await apiRequest<{ valid: boolean; user: AuthUser }>(VERIFY_PATHS[kind], { tokenKey: TOKEN_KEYS[kind], signal });
        if (kind !== 'org') {
            return user;
        }
        const stored = readOrgSession();
        if (stored && stored.token === token && stored.user.organizationId === user.organizationId && stored.user.id === user.id) {
            return { ...user, organization: stored.user.organization };
        }
    }
    catch (err) {
        if (interrupted(err, signal)) {
            // A reload or navigation cut the call off: keep the token for the next page to verify.
            throw err;
        }
        // rejected or unreachable: signed out, below
    }
    if (localStorage.getItem(TOKEN_KEYS[kind]) === token) {
        forgetStaffToken(kind);
    }
    return null;
}

/**
 * The sign-in of one kind of staff screen (admin guard, super admin, organization dashboard): reads the stored
 * token, verifies it (a loading state meanwhile), removes it when rejected, and answers loading, the signed-in
 * user, or signed out. `signedIn` takes the token of a login made on the spot; `signOut` forgets the token and
 * every cached answer (the screen then goes where its SPEC says).
 */
export function useStaffSession(kind: StaffKind): StaffSession & { signedIn(token: string): void; signOut(): void } {
    const client = useQueryClient();
    const [token, setToken] = useState<string | null>(() => localStorage.getItem(TOKEN_KEYS[kind]));
    const verify = useQuery({
        queryKey: ['staff-session', kind, token],
        queryFn: ({ signal }) => verifyStored(kind, token!, signal),
        enabled: token !== null
    });
    const signedIn = useCallback((next: string) => setToken(next), []);
    const signOut = useCallback(() => {
        forgetStaffToken(kind);
        client.clear();
        setToken(null);
    }, [client, kind]);

    const session: StaffSession = token === null
        ? { state: 'signed-out' }
        : verify.isPending
            ? { state: 'loading' }
            : verify.data
                ? { state: 'signed-in', user: verify.data, token }
                : { state: 'signed-out' };
    return { ...session, signedIn, signOut };
}
