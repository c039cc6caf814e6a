import { expect } from 'chai';
import * as Fs from 'fs';
import * as Path from 'path';
import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import type { TenancyCase } from '../helpers/tenancy-cases-tenants';

/** Strategies whose credentials belong to one organization (DESIGN §5). */
const SCOPED_STRATEGIES = ['admin', 'org_user', 'widget'];

/** Every compiled test/helpers/tenancy-cases-*.js, merged; a route id in two files is a mistake. */
function loadCases(): Record<string, TenancyCase> {
    const dir = Path.resolve(__dirname, '..', 'helpers');
    const all: Record<string, TenancyCase> = {};
    for (const file of Fs.readdirSync(dir).filter((f) => /^tenancy-cases-.+\.js$/.test(f)).sort()) {
        const { cases } = require(Path.join(dir, file)) as { cases: Record<string, TenancyCase> };
        for (const [id, fn] of Object.entries(cases)) {
            if (all[id]) {
                throw new Error(`Tenancy case ${id} is defined twice (again in ${file})`);
            }
            all[id] = fn;
        }
    }
    return all;
}

function queryKeys(route: ReturnType<Server['table']>[number]): string[] {
    const query = (route.settings.validate as { query?: unknown } | undefined)?.query;
    if (query && Joi.isSchema(query)) {
        return Object.keys((query.describe() as { keys?: Record<string, unknown> }).keys ?? {});
    }
    return [];
}

/**
 * The routes that take an organization-scoped id: under /api/, reachable with an organization-scoped
 * credential, and with a path parameter or an organizationId query parameter. Returns "id (METHOD path)".
 */
export function scopedRoutes(server: Server): { id: string; label: string }[] {
    return server.table()
        .filter((route) => route.path.startsWith('/api/'))
        .filter((route) => {
            const auth = route.settings.auth as { strategies?: string[] } | false | undefined;
            return !!auth && (auth.strategies ?? []).some((s) => SCOPED_STRATEGIES.includes(s));
        })
        .filter((route) => /\{[^}]+\}/.test(route.path) || queryKeys(route).includes('organizationId'))
        .map((route) => ({ id: String(route.settings.id ?? ''), label: `${route.settings.id ?? '(no id)'} (${route.method.toUpperCase()} ${route.path})` }));
}

const cases = loadCases();

describe('tenant isolation across every organization-scoped route', function () {
    this.timeout(60000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;

    before(async () => {
        t = await startTestServer();
        a = await createTenant(t.server, 'tenancya', 'tenancy-a.test');
        b = await createTenant(t.server, 'tenancyb', 'tenancy-b.test');
    });
    after(async () => {
        await t?.close();
    });

    it('has a case in test/helpers/tenancy-cases-*.ts for every scoped route of the route table', () => {
        const missing = scopedRoutes(t.server).filter((route) => !route.id || !cases[route.id]).map((r) => r.label);
        expect(missing, `routes without a tenancy case: ${missing.join(', ')}`).to.deep.equal([]);
    });

    it('has no case for a route id that is not in the route table', () => {
        const ids = new Set(t.server.table().map((route) => route.settings.id));
        expect(Object.keys(cases).filter((id) => !ids.has(id))).to.deep.equal([]);
    });

    for (const [id, makeRequest] of Object.entries(cases)) {
        it(`answers 404 with no data of organization B for ${id}`, async () => {
            const request = await makeRequest({ server: t.server, a, b });
            const res = await t.server.inject({
                method: request.method,
                url: request.url,
                payload: request.payload as object | undefined,
                headers: request.headers
            });
            expect(res.statusCode, `${request.method} ${request.url}: ${res.payload}`).to.equal(404);
            for (const secret of [b.organization.name, b.organization.subdomain, b.organization.domain, b.bot.publicKey, b.admin.email, b.orgUser.email]) {
                expect(res.payload, `${id} leaks "${secret}"`).to.not.contain(secret);
            }
        });
    }

    it('notices a new scoped route that has no case (the check above can fail)', () => {
        t.server.route({
            method: 'GET',
            path: '/api/tenancy-probe/{id}',
            options: { id: 'tenancy.probe.get', auth: 'admin', handler: () => ({}) }
        });
        const missing = scopedRoutes(t.server).filter((route) => !cases[route.id]).map((r) => r.id);
        expect(missing).to.include('tenancy.probe.get');
    });
});
