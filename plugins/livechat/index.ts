import Boom from '@hapi/boom';
import Joi from 'joi';
import type { Request, Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide, UserCredentials } from '../../core/types';
import { Realtime, RealtimeSocket, upgradeOf } from '../../core/realtime/socket-server';
import { ChatService, SESSION_ROUTE, TRANSCRIPT_JOB, WAIT_TIMEOUT_JOB } from './services/chat-service';
import { MailService } from './services/mail-service';
import { registerCustomerScheme, CustomerCredentials } from './customer-auth';
import { livechatRoutes, SOCKET_SEND_POINTS, SOCKET_SEND_WINDOW_MS } from './routes';
import { originAllowed, setWidgetCorsHeaders, widgetOriginAllowed } from '../auth/widget-scheme';

declare module '../../core/types' {
    interface Services {
        livechat: ChatService;
        mail: MailService;
    }
}

/** DESIGN §6 hardening. */
export const MAX_FRAME_BYTES = 64 * 1024;
export const AUTH_TIMEOUT_MS = 10_000;
export const MAX_FRAMES_PER_SECOND = 50;
/** How often each node refreshes last_seen_at of the agents connected to it. */
const PRESENCE_REFRESH_MS = 20_000;

type SocketCredentials = UserCredentials | CustomerCredentials;

const socketSessionId = Joi.string().max(80).pattern(/^[A-Za-z0-9_.:~-]+$/).required();
const socketMessageSchema = Joi.object({
    type: Joi.string().valid('agent_accept_chat', 'agent_availability', 'end_chat', 'chat_message').required()
        .messages({ 'any.only': 'Unknown message type' }),
    sessionId: socketSessionId.when('type', { is: 'agent_availability', then: Joi.optional() }),
    agentId: Joi.any().strip(),
    available: Joi.boolean().when('type', { is: 'agent_availability', then: Joi.required(), otherwise: Joi.forbidden() }),
    sender: Joi.string().valid('customer', 'agent'),
    message: Joi.string().trim().min(1).max(10000).when('type', { is: 'chat_message', then: Joi.required(), otherwise: Joi.forbidden() }),
    clientMessageId: Joi.string().max(64).pattern(/^[A-Za-z0-9_.:-]+$/),
    timestamp: Joi.string().isoDate()
});

/** The agent socket's Origin must be this server's own (the admin app), or PUBLIC_URL's. */
export function agentOriginAllowed(origin: string | null, host: string | null, publicUrl: string | null): boolean {
    if (!origin) {
        return true;            // not a browser (CLI, bench, server-side client): browsers always send Origin
    }
    let url: URL;
    try {
        url = new URL(origin);
    }
    catch {
        return false;
    }
    if (host && url.host.toLowerCase() === host.toLowerCase()) {
        return true;
    }
    if (publicUrl) {
        try {
            return new URL(publicUrl).host.toLowerCase() === url.host.toLowerCase();
        }
        catch {
            return false;
        }
    }
    return false;
}

const feature: FeaturePlugin = {
    plugin: {
        name: 'livechat',
        dependencies: ['tenants', 'auth'],
        async register(server: Server) {
            registerCustomerScheme(server);
            const realtime = new Realtime(server, server.app.pubsub);
            const mail = new MailService(server.app);
            const chat = new ChatService(server.app, realtime, mail);
            provide(server, 'livechat', chat);
            provide(server, 'mail', mail);

            // Agents connected to this node (user id -> sockets), refreshed in agent_presence.
            const localAgents = new Map<number, number>();

            await realtime.register({
                path: '/ws',
                strategies: ['chat-customer', 'admin'],
                authTimeoutMs: AUTH_TIMEOUT_MS,
                maxPayload: MAX_FRAME_BYTES,
                maxFramesPerSecond: MAX_FRAMES_PER_SECOND,
                onConnection: async (socket: RealtimeSocket) => {
                    const c = socket.auth.credentials as SocketCredentials | null;
                    if (!c) {
                        throw Boom.unauthorized('Connection requires authentication');
                    }
                    if (c.kind === 'user') {
                        const { origin, host } = upgradeOf(socket);
                        if (!agentOriginAllowed(origin, host, server.app.config.publicUrl)) {
                            throw Boom.forbidden(`Origin ${origin} may not open an agent connection`);
                        }
                        if (c.role !== 'admin' || !c.organizationId) {
                            throw Boom.forbidden('Live chat needs an admin of an organization');
                        }
                        socket.app.agent = { userId: c.userId, organizationId: c.organizationId };
                        localAgents.set(c.userId, (localAgents.get(c.userId) ?? 0) + 1);
                        await chat.agentConnected(c.userId, c.organizationId);
                    }
                    if (c.kind === 'customer') {
                        // Like the widget's HTTP calls: a browser page must be one of the store's domains.
                        const { origin, host } = upgradeOf(socket);
                        const org = await server.app.services.tenants.getOrganization(c.organizationId);
                        if (!org || !org.isActive) {
                            throw Boom.unauthorized('Unknown store');
                        }
                        if (origin && !originAllowed(origin, org, server.app.config.publicUrl, host ?? undefined)) {
                            throw Boom.forbidden(`Origin ${origin} is not a registered domain of this store`);
                        }
                        socket.app.customer = { organizationId: c.organizationId };
                        chat.customerSocket(c.organizationId, 1);
                    }
                },
                onDisconnection: (socket: RealtimeSocket) => {
                    const customer = socket.app.customer as { organizationId: number } | undefined;
                    if (customer) {
                        chat.customerSocket(customer.organizationId, -1);
                    }
                    const agent = socket.app.agent as { userId: number } | undefined;
                    if (!agent) {
                        return;
                    }
                    const left = (localAgents.get(agent.userId) ?? 1) - 1;
                    if (left > 0) {
                        localAgents.set(agent.userId, left);
                    }
                    else {
                        localAgents.delete(agent.userId);
                    }
                    chat.agentDisconnected(agent.userId).catch((err) => server.app.log.warn({ err }, 'presence update failed'));
                },
                onMessage: async (socket: RealtimeSocket, message: unknown) => {
                    // SPEC §7 socket messages that are not commands: agent_connect, customer_connect, ping.
                    const type = (message as { type?: unknown } | null)?.type;
                    const agent = socket.app.agent as { userId: number } | undefined;
                    if (type === 'ping') {
                        if (agent) {
                            await chat.touchAgents([agent.userId]);
                        }
                        return { type: 'pong', timestamp: new Date().toISOString() };
                    }
                    if (type === 'agent_connect' || type === 'customer_connect') {
                        return { type: 'connected', as: agent ? 'agent' : 'customer', timestamp: new Date().toISOString() };
                    }
                    return socketCommand(socket, message);
                }
            });

            /** SPEC §7's socket messages as commands (the routes are the main API; these reach the same service). */
            async function socketCommand(socket: RealtimeSocket, message: unknown): Promise<unknown> {
                const c = socket.auth.credentials as SocketCredentials;
                const { error, value } = socketMessageSchema.validate(message);
                if (error) {
                    throw Boom.badRequest(error.message);
                }
                const agent = c.kind === 'user' ? { organizationId: c.organizationId!, userId: c.userId } : null;
                const organizationId = agent ? agent.organizationId : (c as CustomerCredentials).organizationId;
                const sessionId: string | undefined = value.sessionId;
                if (!agent && sessionId !== undefined && sessionId !== (c as CustomerCredentials).sessionId) {
                    throw Boom.notFound('Chat session not found');
                }
                switch (value.type) {
                    case 'agent_accept_chat':
                        if (!agent) {
                            throw Boom.forbidden('Only agents can accept chats');
                        }
                        return chat.accept(organizationId, agent.userId, value.sessionId);
                    case 'agent_availability':
                        if (!agent) {
                            throw Boom.forbidden('Only agents have an availability');
                        }
                        return chat.setAvailability(agent.userId, organizationId, value.available);
                    case 'end_chat':
                        return chat.end(organizationId, value.sessionId, agent ? 'agent' : 'customer');
                    case 'chat_message': {
                        const t = Date.now();
                        const stamps: number[] = (socket.app.sendStamps ??= []);
                        while (stamps.length && t - stamps[0] > SOCKET_SEND_WINDOW_MS) {
                            stamps.shift();
                        }
                        if (stamps.length >= SOCKET_SEND_POINTS) {
                            throw Boom.tooManyRequests('You are sending messages too fast. Please wait a moment.');
                        }
                        stamps.push(t);
                        const { message: stored } = await chat.sendMessage(organizationId, value.sessionId,
                            agent ? { sender: 'agent', userId: agent.userId } : { sender: 'customer', userId: null },
                            { message: value.message, clientMessageId: value.clientMessageId });
                        return stored;
                    }
                    default:
                        throw Boom.badRequest('Unknown message type');
                }
            }

            const srv = server as any;
            realtime.subscription(SESSION_ROUTE, {
                onSubscribe: async (socket: RealtimeSocket, _path: string, params: Record<string, string>) => {
                    const c = socket.auth.credentials as SocketCredentials;
                    if (c.kind === 'customer') {
                        if (c.sessionId !== params.sessionId) {
                            throw Boom.forbidden('Not your chat session');
                        }
                        return;
                    }
                    // An admin: the session must be one of their organization's (404 otherwise).
                    await chat.getSession(c.organizationId!, params.sessionId);
                },
                // Session ids are unique per organization only: deliver to that organization's sockets.
                filter: (message: { organizationId?: number }, credentials: SocketCredentials | null) =>
                    !!credentials && credentials.organizationId === message.organizationId
            });
            srv.subscription('/agents/{organizationId}', {
                auth: { mode: 'required' },
                onSubscribe: async (socket: RealtimeSocket, path: string, params: { organizationId: string }) => {
                    const c = socket.auth.credentials as SocketCredentials;
                    if (c.kind !== 'user' || c.role !== 'admin' || String(c.organizationId) !== params.organizationId) {
                        throw Boom.forbidden('Only this organization\'s agents may subscribe');
                    }
                }
            });

            server.app.jobs.define<{ organizationId: number; sessionId: string }>(TRANSCRIPT_JOB,
                async ({ organizationId, sessionId }) => chat.sendTranscript(organizationId, sessionId));
            server.app.jobs.define<{ organizationId: number; sessionId: string }>(WAIT_TIMEOUT_JOB, async ({ organizationId, sessionId }) => {
                const session = await chat.getSession(organizationId, sessionId).catch(() => null);
                if (session?.status === 'waiting') {
                    await chat.end(organizationId, sessionId, 'system', 'failed_to_respond');
                }
            });

            server.route(livechatRoutes(server));

            // CORS for the customer's own HTTP calls (customer token) from the store's page: the same decision as
            // the widget-key calls (plugins/auth/widget-scheme.ts). A page on another origin is refused before the
            // handler runs, and its answer carries no Access-Control-Allow-Origin.
            const customerOf = (request: Request): CustomerCredentials | null => {
                const c = request.auth?.credentials as unknown as SocketCredentials | null;
                return c && c.kind === 'customer' && request.headers.origin && request.route.settings.tags?.includes('widget') ? c : null;
            };
            const organizationOf = async (request: Request, c: CustomerCredentials) => {
                const app = request.app as { customerOrganization?: Parameters<typeof widgetOriginAllowed>[2] | null };
                if (app.customerOrganization === undefined) {
                    const org = await server.app.services.tenants.getOrganization(c.organizationId);
                    app.customerOrganization = org && org.isActive ? org : null;
                }
                return app.customerOrganization;
            };
            server.ext('onPostAuth', async (request, h) => {
                const c = customerOf(request);
                if (c) {
                    const org = await organizationOf(request, c);
                    if (!org || !widgetOriginAllowed(server, request, org)) {
                        throw Boom.forbidden(`Origin ${request.headers.origin} is not a registered domain of this store`);
                    }
                }
                return h.continue;
            });
            server.ext('onPreResponse', async (request, h) => {
                const c = customerOf(request);
                if (c) {
                    setWidgetCorsHeaders(server, request, await organizationOf(request, c));
                }
                return h.continue;
            });

            let timer: NodeJS.Timeout | null = null;
            server.ext('onPostStart', () => {
                timer = setInterval(() => {
                    chat.touchAgents([...localAgents.keys()]).catch((err) => server.app.log.warn({ err }, 'presence refresh failed'));
                    chat.expireWaiting().catch((err) => server.app.log.warn({ err }, 'wait expiry failed'));
                }, PRESENCE_REFRESH_MS);
                timer.unref();
            });
            server.ext('onPreStop', () => {
                if (timer) {
                    clearInterval(timer);
                }
            });
            server.ext('onPostStop', () => mail.close());
        }
    }
};

export default feature;
