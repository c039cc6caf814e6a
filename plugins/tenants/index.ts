import * as Crypto from 'crypto';
import Boom from '@hapi/boom';
import type { Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import { PUBLIC } from '../../core/http/access';
import { now } from '../../core/db/base-model';
import { localBaseUrl } from '../../config';
import { TenantService } from './services/tenant-service';
import { superAdminRoutes } from './routes/super-admin';
import { orgRoutes } from './routes/org';
import { DEMO_USERS as DEMO_LOGINS } from './demo-data';
import { DEFAULT_QUESTIONS, DEMO_CUSTOMERS, DEMO_KNOWLEDGE, DEMO_ORG, DEMO_USERS } from './demo-data';

declare module '../../core/types' {
    interface Services {
        tenants: TenantService;
    }
}

/**
 * Creates (or finds) the demo organization with its bot instance and logins. Returns the lines to print.
 * Demo loyalty customers, questions and knowledge entries are inserted here too until their own plugins
 * take them over through their seedDemo hooks.
 */
export async function seedDemoOrganization(server: Server): Promise<{ organizationId: number; lines: string[] }> {
    const tenants = server.app.services.tenants;
    const db = server.app.db;
    const production = server.app.config.env === 'production';
    const lines: string[] = [];

    let org = await tenants.getOrganizationBySubdomain(DEMO_ORG.subdomain);
    if (!org) {
        org = await tenants.createOrganization(DEMO_ORG);
        lines.push(`Created organization "${org.name}" (subdomain ${org.subdomain}, domain ${org.domain})`);
    }
    const bots = await tenants.listBotInstances({ organizationId: org.id });
    const bot = bots[0] ?? await tenants.createBotInstance({ organizationId: org.id, name: 'Demo Store widget', description: 'The widget on the demo storefront' });
    if (!bots.length) {
        lines.push(`Created bot instance "${bot.name}": ${bot.embedSnippet}`);
    }

    for (const demo of DEMO_USERS) {
        if (await tenants.findUserRecordByEmail(demo.email)) {
            lines.push(`Login exists: ${demo.role.padEnd(11)} ${demo.email}`);
            continue;
        }
        const password = production ? Crypto.randomBytes(12).toString('base64url') : demo.password;
        await tenants.createUser({
            email: demo.email,
            password,
            role: demo.role,
            name: demo.name,
            organizationId: demo.role === 'super_admin' ? null : org.id
        });
        lines.push(`Created login: ${demo.role.padEnd(11)} ${demo.email}  password: ${password}`);
    }

    const t = now();
    const haveCustomers = await db('loyalty_customers').where('organization_id', org.id).first();
    if (!haveCustomers) {
        for (const customer of DEMO_CUSTOMERS) {
            const [inserted] = await db('loyalty_customers').insert({
                organization_id: org.id, phone: customer.phone, name: customer.name, email: customer.email,
                loyalty_id: customer.loyaltyId, points: customer.points, created_at: t, updated_at: t
            }).returning('id');
            const customerId = typeof inserted === 'object' ? inserted.id : inserted;
            for (const [index, order] of customer.orders.entries()) {
                await db('loyalty_orders').insert({
                    organization_id: org.id, customer_id: customerId, order_ref: `${customer.loyaltyId}-${index + 1}`,
                    product_name: order.productName, quantity: order.quantity, price_cents: Math.round(order.price * 100),
                    order_date: t - order.daysAgo * 86400000
                });
            }
        }
        lines.push(`Created ${DEMO_CUSTOMERS.length} demo loyalty customers: ${DEMO_CUSTOMERS.map((c) => `${c.phone} (${c.points} points)`).join(', ')}`);
    }
    if (!await db('premade_questions').where('organization_id', org.id).first()) {
        await db('premade_questions').insert(DEFAULT_QUESTIONS.map((q, i) => ({
            organization_id: org!.id, question: q.question, answer: q.answer, is_active: true, sort_order: i + 1, created_at: t, updated_at: t
        })));
        lines.push(`Created the ${DEFAULT_QUESTIONS.length} default questions`);
    }
    if (!await db('knowledge_entries').where('organization_id', org.id).first()) {
        await db('knowledge_entries').insert(DEMO_KNOWLEDGE.map((k) => ({
            organization_id: org!.id, title: k.title, content: k.content, is_active: true, created_at: t, updated_at: t
        })));
        lines.push(`Created ${DEMO_KNOWLEDGE.length} knowledge entries`);
    }
    return { organizationId: org.id, lines };
}

const feature: FeaturePlugin = {
    plugin: {
        name: 'tenants',
        register(server: Server) {
            // Without PUBLIC_URL, snippets point at this server: its real port once it listens (PORT may be 0).
            const { config } = server.app;
            provide(server, 'tenants', new TenantService(server.app.db, config.publicUrl,
                () => localBaseUrl(config.host, server.info.port || config.port), (who) => server.app.realtime.revoke(who)));
            const tenants = () => server.app.services.tenants;

            // The demo super-admin login for the login screen's demo box: only outside production, and
            // only while that demo login exists.
            server.route({
                method: 'GET',
                path: '/api/super-admin/demo-credentials',
                options: {
                    id: 'tenants.demo-credentials.get',
                    auth: PUBLIC,
                    description: 'The demo super-admin login (404 in production)',
                    handler: async () => {
                        const demo = DEMO_LOGINS.find((u) => u.role === 'super_admin')!;
                        if (server.app.config.env === 'production' || !await tenants().findUserRecordByEmail(demo.email)) {
                            throw Boom.notFound('No demo credentials');
                        }
                        return { email: demo.email, password: demo.password };
                    }
                }
            });

            // The super-admin and organization APIs use auth strategies that the auth plugin (which
            // depends on this one) defines, so they are added once it is registered.
            server.dependency('auth', async (srv) => {
                srv.route([...superAdminRoutes(tenants), ...orgRoutes(server, tenants)]);
            });
        }
    }
};

export default feature;
export { TenantService };
