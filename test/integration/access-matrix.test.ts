import { expect } from 'chai';
import type { RequestRoute, Server } from '@hapi/hapi';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { connect, createSession, NesClient } from '../helpers/livechat-client';
import { EXPECTED, Kind } from '../helpers/access-expectations';
import { signUserToken } from '../../core/auth/tokens';

/**
 * Every route × every kind of caller × HTTP and a nes `request` frame (DESIGN §5): the callers the review
 * table (test/helpers/access-expectations.ts) allows pass the gate (any answer but 401/403); every other
 * caller gets 401 or 403, on both entry paths. Callers that may not open a socket at all are refused at hello.
 */
type Caller = 'none' | 'widget' | 'customer' | 'customerOther' | 'orgUser' | 'adminOther' | 'admin' | 'superAdmin';

const KIND: Record<Caller, Kind | null> = {
    none: null,
    widget: 'widget',
    customer: 'customer',
    customerOther: 'customer',
    orgUser: 'org_user',
    adminOther: 'admin',
    admin: 'admin',
    superAdmin: 'super_admin'
};
const CALLERS = Object.keys(KIND) as Caller[];
/** Callers whose credentials open a socket (the customer of a chat, and staff of an organization). */
const SOCKET_CALLERS: Caller[] = ['customer', 'customerOther', 'adminOther', 'admin'];
const GATE = [401, 403];
/** An id no object has: an allowed caller gets past the gate to a 404, nothing is changed. */
const NO_SUCH_ID = '2147483000';

/** The route's path with its parameters filled: {sessionId} is the first customer's chat. */
function pathOf(route: RequestRoute, sessionId: string, subdomain: string): string {
    return route.path
        .replace('{sessionId}', encodeURIComponent(sessionId))
        .replace('{id}', NO_SUCH_ID)
        .replace('{subdomain}', subdomain)
        .replace(/\{[a-z]+\*?\}/gi, 'matrix-probe');
}

function allowedOverHttp(routeId: string, caller: Caller): boolean {
    const expected = EXPECTED[routeId];
    if (expected === 'public') {
        return true;
    }
    const kind = KIND[caller];
    // The customer kind is always bound to the {sessionId} of the route: another chat's token is refused.
    return !!kind && expected.includes(kind) && caller !== 'customerOther';
}

function allowedOverSocket(routeId: string, caller: Caller): boolean {
    return EXPECTED[routeId] !== 'public' && allowedOverHttp(routeId, caller);
}

/** The kinds a route declares in auth.access (hapi's own scope check), or 'public' for auth: false. */
function declared(route: RequestRoute): 'public' | 'undeclared' | Kind[] {
    const auth = route.settings.auth as false | undefined | { access?: Array<{ scope?: false | { selection?: string[]; required?: string[] } }> };
    if (auth === false) {
        return 'public';
    }
    if (!auth || !auth.access || !auth.access.length) {
        return 'undeclared';
    }
    const kinds = new Set<Kind>();
    for (const rule of auth.access) {
        const scope = rule.scope || {};
        for (const value of [...(scope.selection ?? []), ...(scope.required ?? [])]) {
            if (['super_admin', 'admin', 'org_user', 'widget', 'customer'].includes(value)) {
                kinds.add(value as Kind);
            }
        }
    }
    return kinds.size ? [...kinds].sort() : 'undeclared';
}

function routes(server: Server): RequestRoute[] {
    return server.table().filter((route) => !route.settings.isInternal);
}

describe('who may call every route, over HTTP and over a socket request frame', function () {
    this.timeout(180000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;
    let chat: { sessionId: string; token: string };
    let otherChat: { sessionId: string; token: string };
    const headers = {} as Record<Caller, Record<string, string>>;
    const sockets = {} as Record<Caller, NesClient>;

    before(async () => {
        // Frames as fast as the test sends them: the frame-rate guard has tests of its own (ws-fuzz).
        t = await startTestServer({ listen: true, env: { WS_MAX_FRAMES_PER_SECOND: '10000' } });
        a = await createTenant(t.server, 'matrixa', 'matrix-a.test');
        b = await createTenant(t.server, 'matrixb', 'matrix-b.test');
        const root = await t.server.app.services.users.create({ email: 'root@matrix.test', password: 'root-password-1', role: 'super_admin' });
        const superToken = signUserToken(t.server.app.config.jwtSecret, { id: root.id, role: 'super_admin', organizationId: null, tokenVersion: 0 });
        chat = await createSession(t.server, a, 'matrix_chat_one', 'hello');
        otherChat = await createSession(t.server, a, 'matrix_chat_two', 'hello');
        Object.assign(headers, {
            none: {},
            widget: { 'x-widget-key': a.bot.publicKey },
            customer: bearer(chat.token),
            customerOther: bearer(otherChat.token),
            orgUser: bearer(a.orgUser.token),
            adminOther: bearer(b.admin.token),
            admin: bearer(a.admin.token),
            superAdmin: bearer(superToken)
        });
        sockets.customer = await connect(t.url, chat.token);
        sockets.customerOther = await connect(t.url, otherChat.token);
        sockets.adminOther = await connect(t.url, b.admin.token);
        sockets.admin = await connect(t.url, a.admin.token);
    });
    after(async () => {
        for (const client of Object.values(sockets)) {
            await client.disconnect().catch(() => undefined);
        }
        await t?.close();
    });

    it('lists every route of the table in the review table, and nothing else', () => {
        const ids = routes(t.server).map((route) => String(route.settings.id ?? `(no id) ${route.method} ${route.path}`));
        expect(ids.filter((id) => !(id in EXPECTED)), 'routes missing from test/helpers/access-expectations.ts').to.deep.equal([]);
        expect(Object.keys(EXPECTED).filter((id) => !ids.includes(id)), 'table entries without a route').to.deep.equal([]);
    });

    it('declares its access on every route, as hapi scopes equal to the review table', () => {
        const wrong = routes(t.server)
            .map((route) => ({ id: String(route.settings.id), got: declared(route), want: EXPECTED[String(route.settings.id)] }))
            .filter(({ got, want }) => JSON.stringify(got) !== JSON.stringify(Array.isArray(want) ? [...want].sort() : want))
            .map(({ id, got, want }) => `${id}: declares ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
        expect(wrong).to.deep.equal([]);
    });

    it('refuses a socket to every caller that is not a chat customer or staff of an organization', async () => {
        for (const caller of CALLERS.filter((c) => !SOCKET_CALLERS.includes(c))) {
            const token = headers[caller].authorization?.replace(/^Bearer /, '') ?? '';
            let refused: { statusCode?: number; message?: string } | null = null;
            try {
                const client = await connect(t.url, token);
                await client.disconnect();
            }
            catch (err) {
                refused = err as { statusCode?: number };
            }
            expect(refused, `${caller} opened a socket`).to.not.equal(null);
        }
    });

    it('holds the gate for every route and caller over HTTP', async () => {
        const failures: string[] = [];
        let cases = 0;
        for (const route of routes(t.server)) {
            const id = String(route.settings.id);
            const url = pathOf(route, chat.sessionId, a.organization.subdomain);
            for (const caller of CALLERS) {
                const res = await t.server.inject({
                    method: route.method,
                    url,
                    headers: { ...headers[caller], origin: 'http://matrix-a.test' },
                    payload: ['post', 'put', 'patch'].includes(route.method) ? {} : undefined,
                    remoteAddress: `10.9.0.${CALLERS.indexOf(caller) + 1}`
                });
                cases += 1;
                const allowed = allowedOverHttp(id, caller);
                const ok = allowed ? !GATE.includes(res.statusCode) : GATE.includes(res.statusCode);
                if (!ok) {
                    failures.push(`HTTP ${caller} ${route.method.toUpperCase()} ${url} (${id}): ${res.statusCode}, expected ${allowed ? 'past the gate' : '401/403'}`);
                }
            }
        }
        expect(failures, `${failures.length} of ${cases} cases`).to.deep.equal([]);
    });

    it('holds the same gate for every route and socket caller over nes request frames', async () => {
        const failures: string[] = [];
        let cases = 0;
        for (const route of routes(t.server)) {
            const id = String(route.settings.id);
            const path = pathOf(route, chat.sessionId, a.organization.subdomain);
            for (const caller of SOCKET_CALLERS) {
                let status: number;
                try {
                    const res = await sockets[caller].request({
                        method: route.method.toUpperCase(),
                        path,
                        payload: ['post', 'put', 'patch'].includes(route.method) ? {} : undefined
                    });
                    status = res.statusCode;
                }
                catch (err) {
                    status = (err as { statusCode?: number }).statusCode ?? 0;
                }
                cases += 1;
                const allowed = allowedOverSocket(id, caller);
                const ok = allowed ? status !== 0 && !GATE.includes(status) : GATE.includes(status);
                if (!ok) {
                    failures.push(`nes ${caller} ${route.method.toUpperCase()} ${path} (${id}): ${status}, expected ${allowed ? 'past the gate' : '401/403'}`);
                }
            }
        }
        expect(failures, `${failures.length} of ${cases} cases`).to.deep.equal([]);
    });
});
