import Boom from '@hapi/boom';
import type { ReqRef, Request } from '@hapi/hapi';
import type { Caller, CustomerCaller, StaffCaller, WidgetCaller } from '../types/auth';

/**
 * The verified caller of a request, narrowed to what a handler needs. The route's declared access (see
 * access.ts) already admitted only these kinds; these checks make the narrowing sound at run time too. They take
 * the request of a route typed with its validated input too (`server.route<{ Payload: T }>(...)`).
 */
export function callerOf<Refs extends ReqRef>(request: Request<Refs>): Caller {
    const caller = request.auth.credentials?.caller;
    if (!caller) {
        throw Boom.unauthorized('Authentication required');
    }
    return caller;
}

export function staffOf<Refs extends ReqRef>(request: Request<Refs>): StaffCaller {
    const caller = callerOf(request);
    if (caller.kind !== 'staff') {
        throw Boom.forbidden('Staff only');
    }
    return caller;
}

/** Staff of one organization (admin or org_user): the organization id is always set. */
export function memberOf<Refs extends ReqRef>(request: Request<Refs>): StaffCaller & { organizationId: number } {
    const staff = staffOf(request);
    if (staff.organizationId === null) {
        throw Boom.forbidden('This needs a user of an organization');
    }
    return { ...staff, organizationId: staff.organizationId };
}

/** An admin (agent) of one organization. */
export function adminOf<Refs extends ReqRef>(request: Request<Refs>): StaffCaller & { organizationId: number } {
    const member = memberOf(request);
    if (member.role !== 'admin') {
        throw Boom.forbidden('Only admins can do this');
    }
    return member;
}

export function widgetOf<Refs extends ReqRef>(request: Request<Refs>): WidgetCaller {
    const caller = callerOf(request);
    if (caller.kind !== 'widget') {
        throw Boom.forbidden('Widget only');
    }
    return caller;
}

export function customerOf<Refs extends ReqRef>(request: Request<Refs>): CustomerCaller {
    const caller = callerOf(request);
    if (caller.kind !== 'customer') {
        throw Boom.forbidden('Customer only');
    }
    return caller;
}
