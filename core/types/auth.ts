import type { Role } from './api';

/**
 * Who is calling, as every auth strategy sets it on `request.auth.credentials.caller` (hapi's AuthCredentials,
 * extended once below): staff with a role, the widget of a bot instance (its public key), or the customer of
 * one live chat (a customer token). Handlers read it without casts.
 */
export interface StaffCaller {
    kind: 'staff';
    userId: number;
    email: string;
    role: Role;
    organizationId: number | null;
}

export interface WidgetCaller {
    kind: 'widget';
    botInstanceId: number;
    organizationId: number;
}

export interface CustomerCaller {
    kind: 'customer';
    organizationId: number;
    sessionId: string;
}

export type Caller = StaffCaller | WidgetCaller | CustomerCaller;

/** The caller kinds a route may admit (DESIGN §5); also the names of the auth strategies and of the scopes. */
export type CallerKind = Role | 'widget' | 'customer';

declare module '@hapi/hapi' {
    interface AuthCredentials {
        caller: Caller;
    }
}

/**
 * The hapi scopes of a caller: its kind, plus what binds it to objects. A customer is bound to its chat
 * (`session:{id}`), an admin to its organization's agent feed (`agent:{organizationId}`).
 */
export function scopesOf(caller: Caller): string[] {
    switch (caller.kind) {
        case 'staff':
            return caller.role === 'admin' && caller.organizationId ? ['admin', `agent:${caller.organizationId}`] : [caller.role];
        case 'widget':
            return ['widget'];
        case 'customer':
            return ['customer', `session:${caller.sessionId}`];
    }
}
