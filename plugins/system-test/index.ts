import * as Crypto from 'crypto';
import Boom from '@hapi/boom';
import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { allow } from '../../core/http/access';
import { adminOf } from '../../core/http/callers';
import { e164, fields } from '../../core/http/fields';

/** The phone the loyalty card looks up unless the admin names another (the demo store's first member). */
export const DEFAULT_TEST_PHONE = '+15555550100';
/** How long the analytics round trip waits for its event to be readable (the ingest job runs in a queue). */
const READ_BACK_TIMEOUT_MS = 5000;
const YEAR_1970_MS = 365 * 86_400_000;
const DAY_MS = 86_400_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The system test dashboard's server side (SPEC §2 '/test', issue 14): real round trips an admin runs against
 * this installation, for their own organization only. Each answers `{ ok, ms, … }`; a failing dependency is a
 * 502 with a message that says which one failed and why. It talks to other features through their services.
 */
const feature: FeaturePlugin = {
    plugin: {
        name: 'system-test',
        dependencies: ['tenants', 'auth', 'analytics', 'loyalty', 'livechat'],
        register(server: Server) {
            const services = server.app.services;

            server.route([
                {
                    method: 'GET',
                    path: '/api/admin/organization',
                    options: {
                        id: 'system-test.organization.get',
                        auth: allow('admin'),
                        description: 'The signed-in admin\'s organization (the admin shell\'s header)',
                        handler: async (request) => {
                            const admin = adminOf(request);
                            const [org, timeZone] = await Promise.all([services.tenants.getOrganization(admin.organizationId), services.tenants.timeZoneOf(admin.organizationId)]);
                            if (!org) {
                                throw Boom.notFound('Organization not found');
                            }
                            return {
                                id: org.id, name: org.name, storeName: org.storeName, domain: org.domain, subdomain: org.subdomain,
                                subscriptionPlan: org.subscriptionPlan, country: org.country, timeZone: timeZone ?? 'America/New_York', user: { id: admin.userId, email: admin.email, role: admin.role }
                            };
                        }
                    }
                },
                {
                    method: 'POST',
                    path: '/api/admin/system-test/analytics',
                    options: {
                        id: 'system-test.analytics.run',
                        auth: allow('admin'),
                        description: 'Tracks an event dated in 1970 (no dashboard window counts it) and reads it back',
                        handler: async (request) => {
                            const { organizationId } = adminOf(request);
                            const started = Date.now();
                            const at = 1 + Crypto.randomInt(YEAR_1970_MS - 1);
                            const sessionId = `system_test_${Crypto.randomBytes(6).toString('hex')}`;
                            await services.analytics.track({ organizationId, sessionId, action: 'system_test', success: true, createdAt: at });
                            for (;;) {
                                const totals = await services.analytics.organizationTotals(organizationId, { from: at, to: at });
                                if (totals.totalInteractions > 0) {
                                    return { ok: true, ms: Date.now() - started, message: 'Tracked an event and read it back', eventTime: new Date(at).toISOString() };
                                }
                                if (Date.now() - started > READ_BACK_TIMEOUT_MS) {
                                    throw Boom.badGateway(`The event was queued but could not be read back within ${READ_BACK_TIMEOUT_MS / 1000} s: is the job queue running?`);
                                }
                                await sleep(50);
                            }
                        }
                    }
                },
                {
                    method: 'GET',
                    path: '/api/admin/system-test/availability',
                    options: {
                        id: 'system-test.availability.get',
                        auth: allow('admin'),
                        description: 'Whether a customer would reach an agent now, and this agent\'s own status',
                        handler: async (request) => {
                            const admin = adminOf(request);
                            const started = Date.now();
                            const available = await services.livechat.agentsAvailable(admin.organizationId);
                            const { available: youAvailable, connections } = await services.livechat.agentStatus(admin.userId);
                            const you = { available: youAvailable, connections };
                            const status = await services.livechat.chatStatus(admin.organizationId);
                            return {
                                ok: true, ms: Date.now() - started, agentsAvailable: available, you, ...status,
                                message: available ? 'An agent is available: customers can start a live chat' : 'No agent is available: customers are told to try later'
                            };
                        }
                    }
                },
                {
                    method: 'POST',
                    path: '/api/admin/system-test/loyalty',
                    options: {
                        id: 'system-test.loyalty.run',
                        auth: allow('admin'),
                        description: 'Looks a test phone up at the loyalty provider and prepares (never sends) its code text',
                        validate: { payload: Joi.object({ phone: fields.phone.allow('') }).allow(null) },
                        handler: async (request) => {
                            const { organizationId } = adminOf(request);
                            const input = (request.payload as { phone?: string } | null)?.phone?.trim() || DEFAULT_TEST_PHONE;
                            const phone = e164(input);
                            if (!phone) {
                                throw Boom.badRequest('"phone" must be a phone number');
                            }
                            const started = Date.now();
                            const { provider, customer, sms } = await services.loyalty.systemTest(organizationId, phone);
                            return {
                                ok: true,
                                ms: Date.now() - started,
                                provider,
                                phone,
                                found: !!customer,
                                customer: customer ? { name: customer.name, points: customer.points } : null,
                                sms: { provider: sms, dryRun: true, sent: false, to: phone },
                                message: customer
                                    ? `Found ${customer.name ?? 'a member'} with ${customer.points} points; a code text to ${phone} would go through ${sms} (dry run, nothing sent)`
                                    : `The provider answered: ${phone} is not a member (dry run, nothing sent)`
                            };
                        }
                    }
                },
                {
                    method: 'GET',
                    path: '/api/admin/system-test/summary',
                    options: {
                        id: 'system-test.summary.get',
                        auth: allow('admin'),
                        description: 'System analytics over the last 30 days, and the chats waiting now',
                        handler: async (request) => {
                            const { organizationId } = adminOf(request);
                            const to = Date.now();
                            const from = to - 30 * DAY_MS;
                            const totals = await services.analytics.organizationTotals(organizationId, { from, to });
                            const activeDomains = await services.analytics.activeDomains(organizationId, { from, to });
                            const waiting = await services.livechat.listWaiting(organizationId);
                            return {
                                days: 30,
                                totalInteractions: totals.totalInteractions,
                                successRate: totals.successRate,
                                activeDomains,
                                loyaltyChecks: totals.loyaltyChecks,
                                liveChatSessions: totals.liveChatSessions,
                                waitingSessions: waiting.map((s) => ({ sessionId: s.sessionId, phoneNumber: s.phoneNumber, startedAt: s.startedAt, waitSeconds: s.waitSeconds ?? 0, firstMessage: s.firstMessage }))
                            };
                        }
                    }
                }
            ]);
        }
    }
};

export default feature;
