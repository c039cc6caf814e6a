import Boom from '@hapi/boom';
import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { provide } from '../../core/types';
import type { Caller } from '../../core/types/auth';
import { notFound } from '../../core/http/errors';
import { RealtimeSocket, upgradeOf } from '../../core/realtime/socket-server';
import { ChatService, SESSION_ROUTE, TRANSCRIPT_JOB, WAIT_TIMEOUT_JOB } from './services/chat-service';
import { MailService } from './services/mail-service';
import { livechatPersonalData } from './services/personal-data';
import { registerCustomerScheme } from './customer-auth';
import { livechatRoutes } from './routes';
import { consoleRoutes } from './routes/console';
import { ConsoleService } from './services/console-service';
import { PresenceService } from './services/presence-service';
import { HoursService } from './services/hours-service';
import { QueueService } from './services/queue-service';
import { hoursRoutes } from './routes/hours';
import { OFFER_JOB, RoutingService } from './services/routing-service';
import { routingRoutes } from './routes/routing';
import { RatingService } from './services/rating-service';
import { ratingRoutes } from './routes/ratings';
import { RATING_MAIL_JOB, RatingMail } from './services/rating-mail';
import { originAllowed } from '../../core/http/origins';
import { migrations } from './migrations';
import { AttachmentsService } from './services/attachments-service';
import { fileStorage } from './files/storage';
import { fileRoutes } from './routes/files';

declare module '../../core/types' {
    interface Services {
        livechat: ChatService;
        mail: MailService;
        /** The agent console's lists, history, customer context and canned replies. */
        livechatConsole: ConsoleService;
        /** Agent presence: one per agent across tabs and nodes (issue 23). */
        presence: PresenceService;
        /** Support hours (issue 26): the schedule, open now, the next opening. */
        livechatHours: HoursService;
        /** The waiting customers' places in the queue and the typical wait (issue 26). */
        livechatQueue: QueueService;
        /** Routing, hand-over, internal notes and their events (issue 26). */
        livechatRouting: RoutingService;
        /** Ratings after a chat and the facts of the per-agent report (issue 28). */
        livechatRatings: RatingService;
        /** Photos and files in live chat (issue 29): uploads, signed URLs, the sweep of unsent uploads. */
        livechatFiles: AttachmentsService;
    }
}

/** DESIGN §6 hardening. */
export const MAX_FRAME_BYTES = 64 * 1024;
export const AUTH_TIMEOUT_MS = 10_000;
/** How often each node refreshes last_seen_at of the agent sockets connected to it. */
const PRESENCE_REFRESH_MS = 20_000;

/** How often each node sweeps presence: often enough for the away windows (short in tests), at most every 20 s. */
export function presenceSweepMs(chat: { agentAwayGraceMs: number; agentIdleMs: number }): number {
    return Math.max(50, Math.min(PRESENCE_REFRESH_MS, chat.agentAwayGraceMs / 2, chat.agentIdleMs / 4));
}
/** How often each node sweeps offers' deadlines: a quarter of CHAT_OFFER_SECONDS, from 100 ms to 5 s. */
export function offerSweepMs(offerMs: number): number {
    return Math.max(100, Math.min(5000, offerMs / 4));
}
/** A staff socket's user is re-checked (active, same password, organization active) on a frame at most this often. */
const REVERIFY_MS = 15_000;

/**
 * SPEC §7's socket messages. Those that are commands become requests to the route of the same command
 * (one command path): validation, access and limits live once, on the route.
 */
const socketMessage = Joi.object({
    type: Joi.string().valid('ping', 'agent_connect', 'customer_connect', 'agent_accept_chat', 'agent_availability', 'end_chat', 'chat_message', 'typing')
        .required().messages({ 'any.only': 'Unknown message type' }),
    sessionId: Joi.string().max(200)
}).unknown(true).required();

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

/** Only the fields a route takes, and only those the client sent. */
function pick(message: Record<string, unknown>, keys: string[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of keys) {
        if (message[key] !== undefined) {
            out[key] = message[key];
        }
    }
    return out;
}

const feature: FeaturePlugin = {
    migrations,
    plugin: {
        name: 'livechat',
        // ai: the AI agent's conversation before a hand-off; loyalty and questions: the console's customer context.
        dependencies: ['tenants', 'auth', 'loyalty', 'questions', 'ai'],
        async register(server: Server) {
            registerCustomerScheme(server);
            const { realtime, config, db, dbClient, jobs, services } = server.app;
            const mail = new MailService({ db, mail: config.mail });
            const presence = new PresenceService({ db, realtime, awayGraceMs: config.chat.agentAwayGraceMs, idleMs: config.chat.agentIdleMs });
            const chat = new ChatService({ db, dbClient, jobs, realtime, chat: config.chat, mail, tenants: services.tenants, users: services.users, presence, log: server.app.log,
                publicUrl: config.publicUrl });
            provide(server, 'livechat', chat);
            const storage = fileStorage(config.files);
            const files = new AttachmentsService({ db, storage, files: config.files, secret: config.jwtSecret });
            chat.useAttachments(files);
            provide(server, 'livechatFiles', files);
            server.app.personalData.register(livechatPersonalData(storage));
            provide(server, 'presence', presence);
            const hours = new HoursService({ db, tenants: services.tenants });
            provide(server, 'livechatHours', hours);
            const queue = new QueueService({ db, realtime });
            provide(server, 'livechatQueue', queue);
            chat.onQueueChange((organizationId) => {
                queue.changed(organizationId).catch((err) => server.app.log.warn({ err }, 'queue positions not pushed'));
            });
            const routing = new RoutingService({
                db, dbClient, realtime, jobs, offerMs: config.chat.offerMs, users: services.users, log: server.app.log,
                names: { agentFirstName: (o, u) => chat.agentFirstName(o, u), agentJoinName: (o, u) => chat.agentJoinName(o, u) }
            });
            chat.useRouting(routing);
            provide(server, 'livechatRouting', routing);
            const ratings = new RatingService({ db, realtime });
            provide(server, 'livechatRatings', ratings);
            // The link to rate a chat, mailed when its customer left before it ended (issue 28): PUBLIC_URL, else this server.
            const ratingMail = new RatingMail({ db, mail, tenants: services.tenants, secret: config.jwtSecret, linkSeconds: config.chat.ratingLinkSeconds,
                baseUrl: () => config.publicUrl ?? server.info.uri });
            const sweepOffers = () => {
                routing.sweep().catch((err) => server.app.log.warn({ err }, 'offer sweep failed'));
            };
            services.users.onProfileChange((user) => chat.forgetAgentNames(user.organizationId));
            provide(server, 'mail', mail);
            // The AI agent hands customers over through this port (ai cannot depend on livechat, which depends on it).
            services.ai.useLiveSupport({
                // Outside the store's support hours nobody is available, whoever is online (issue 26).
                agentsAvailable: async (organizationId) => (await hours.availability(organizationId)).open && chat.agentsAvailable(organizationId),
                handOff: (input) => chat.setAiTransferContext(input)
            });
            const consoleService = new ConsoleService({ db, realtime, services });
            provide(server, 'livechatConsole', consoleService);

            // Agent sockets on this node (connection id → user), refreshed in agent_connections; grace timers per user.
            const localAgents = new Map<string, number>();
            const graceTimers = new Set<NodeJS.Timeout>();
            let stopping = false;
            const connectionId = (socket: RealtimeSocket) => `${config.nodeId}:${socket.id}`;
            const sweepPresence = () => {
                presence.sweep().catch((err) => server.app.log.warn({ err }, 'presence sweep failed'));
            };

            await realtime.register({
                path: '/ws',
                auth: { strategies: ['customer', 'admin'], access: [{ scope: ['admin'] }, { scope: ['customer'] }] },
                authTimeoutMs: AUTH_TIMEOUT_MS,
                maxPayload: MAX_FRAME_BYTES,
                maxFramesPerSecond: config.sockets.maxFramesPerSecond,
                maxPerIp: config.sockets.maxPerIp,
                maxPerIdentity: config.sockets.maxPerToken,
                reverifyMs: REVERIFY_MS,
                revocationCheckMs: config.sockets.revocationCheckMs,
                onConnection: async (socket: RealtimeSocket, caller: Caller) => {
                    const { origin, host } = upgradeOf(socket);
                    if (caller.kind === 'staff') {
                        if (!agentOriginAllowed(origin, host, config.publicUrl)) {
                            throw Boom.forbidden(`Origin ${origin} may not open an agent connection`);
                        }
                        if (caller.role !== 'admin' || !caller.organizationId) {
                            throw Boom.forbidden('Live chat needs an admin of an organization');
                        }
                        localAgents.set(connectionId(socket), caller.userId);
                        await presence.connected(connectionId(socket), config.nodeId, caller.userId, caller.organizationId);
                        // An Available agent back (a new tab, a restarted node): waiting chats may be theirs (issue 26).
                        const organizationId = caller.organizationId;
                        presence.status(caller.userId).then((s) => (s.available ? routing.routeWaiting(organizationId) : 0))
                            .catch((err) => server.app.log.warn({ err }, 'routing on connect failed'));
                        return;
                    }
                    if (caller.kind === 'customer') {
                        // Like the widget's HTTP calls: a browser page must be one of the store's domains.
                        const org = await server.app.services.tenants.getOrganization(caller.organizationId);
                        if (!org || !org.isActive) {
                            throw Boom.unauthorized('Unknown store');
                        }
                        if (origin && !originAllowed(origin, org, config.publicUrl, host ?? undefined)) {
                            throw Boom.forbidden(`Origin ${origin} is not a registered domain of this store`);
                        }
                        chat.customerSocket(caller.organizationId, 1);
                        await chat.customerChatConnected(caller.organizationId, caller.sessionId);
                        return;
                    }
                    throw Boom.forbidden('Only a chat customer or an agent may connect');
                },
                onDisconnection: (socket: RealtimeSocket, caller: Caller | null) => {
                    if (caller?.kind === 'customer') {
                        chat.customerSocket(caller.organizationId, -1);
                        chat.customerChatDisconnected(caller.organizationId, caller.sessionId)
                            .catch((err) => server.app.log.warn({ err }, 'customer presence update failed'));
                    }
                    if (caller?.kind !== 'staff') {
                        return;
                    }
                    const id = connectionId(socket);
                    if (!localAgents.delete(id)) {
                        return;         // refused before it counted (origin, role)
                    }
                    presence.disconnected(id, caller.userId).then((last) => {
                        if (last && !stopping) {
                            // The agent's last tab closed: this node looks again when AGENT_AWAY_GRACE_SECONDS is over
                            // (every node's periodic sweep would too; a tab opened meanwhile keeps the agent Available).
                            const timer = setTimeout(() => {
                                graceTimers.delete(timer);
                                sweepPresence();
                            }, config.chat.agentAwayGraceMs + 20);
                            timer.unref();
                            graceTimers.add(timer);
                        }
                    }).catch((err) => server.app.log.warn({ err }, 'presence update failed'));
                },
                onMessage: async (socket: RealtimeSocket, caller: Caller, raw: unknown) => {
                    const { error, value } = socketMessage.validate(raw);
                    if (error) {
                        throw Boom.badRequest(error.message);
                    }
                    const message = value as Record<string, unknown> & { type: string; sessionId?: string };
                    // A customer's commands are about their own chat unless they name one (the route checks it).
                    const sessionId = message.sessionId ?? (caller.kind === 'customer' ? caller.sessionId : undefined);
                    const params = sessionId !== undefined ? { sessionId } : undefined;
                    switch (message.type) {
                        case 'ping':
                            if (caller.kind === 'staff' && localAgents.has(connectionId(socket))) {
                                await presence.touch([connectionId(socket)]);
                            }
                            return { type: 'pong', timestamp: new Date().toISOString() };
                        case 'agent_connect':
                        case 'customer_connect':
                            return { type: 'connected', as: caller.kind === 'staff' ? 'agent' : 'customer', timestamp: new Date().toISOString() };
                        case 'agent_accept_chat':
                            return realtime.command(socket, 'livechat.session.accept', { params, payload: {} });
                        case 'agent_availability':
                            return realtime.command(socket, 'livechat.agent.availability', { payload: pick(message, ['available']) });
                        case 'typing':
                            return realtime.command(socket, 'livechat.session.typing', { params, payload: {} });
                        case 'end_chat':
                            return realtime.command(socket, 'livechat.session.end', { params, payload: pick(message, ['reason']) });
                        default:        // chat_message
                            return realtime.command(socket, 'livechat.message.send', {
                                params, payload: pick(message, ['message', 'clientMessageId', 'sender', 'timestamp', 'attachments'])
                            });
                    }
                }
            });

            realtime.subscription(SESSION_ROUTE, {
                // The chat's own customer, or an admin: of this chat's organization (checked on subscribe).
                scope: ['admin', 'session:{params.sessionId}'],
                onSubscribe: async (_socket: RealtimeSocket, caller: Caller, params: Record<string, string>) => {
                    if (caller.kind === 'staff' && !await chat.hasSession(caller.organizationId ?? 0, params.sessionId)) {
                        throw notFound('Chat session');
                    }
                },
                // Session ids are unique per organization only: deliver to that organization's sockets.
                filter: (message: { organizationId?: number }, caller: Caller | null) =>
                    !!caller && caller.organizationId === message.organizationId
            });
            realtime.subscription('/agents/{organizationId}', { scope: ['agent:{params.organizationId}'], indexed: false });

            server.app.jobs.define<{ organizationId: number; sessionId: string }>(TRANSCRIPT_JOB,
                async ({ organizationId, sessionId }) => chat.sendTranscript(organizationId, sessionId));
            server.app.jobs.define<{ organizationId: number; sessionId: string }>(RATING_MAIL_JOB,
                async ({ organizationId, sessionId }) => {
                    await ratingMail.send(organizationId, sessionId);
                });
            server.app.jobs.define<{ organizationId: number; sessionId: string }>(WAIT_TIMEOUT_JOB, async ({ organizationId, sessionId }) => {
                const session = await chat.getSession(organizationId, sessionId).catch(() => null);
                if (session?.status === 'waiting') {
                    await chat.end(organizationId, sessionId, 'system', 'failed_to_respond');
                }
            });

            server.route(livechatRoutes(server));
            server.route(consoleRoutes(server, consoleService));
            server.route(hoursRoutes(hours));
            server.route(routingRoutes(server));
            server.route(ratingRoutes(server, ratingMail));
            server.route(fileRoutes(server));
            // An offer's deadline: its delayed job (kept by Bull across restarts), and every node's interval below.
            server.app.jobs.define(OFFER_JOB, async () => {
                await routing.sweep();
            });

            let timer: NodeJS.Timeout | null = null;
            let presenceTimer: NodeJS.Timeout | null = null;
            let offerTimer: NodeJS.Timeout | null = null;
            server.ext('onPostStart', () => {
                timer = setInterval(() => {
                    presence.touch([...localAgents.keys()]).catch((err) => server.app.log.warn({ err }, 'presence refresh failed'));
                    chat.expireWaiting().catch((err) => server.app.log.warn({ err }, 'wait expiry failed'));
                    chat.sweepCustomerGone().catch((err) => server.app.log.warn({ err }, 'customer-gone sweep failed'));
                    files.sweep().catch((err) => server.app.log.warn({ err }, 'unsent files sweep failed'));
                }, PRESENCE_REFRESH_MS);
                timer.unref();
                presenceTimer = setInterval(sweepPresence, presenceSweepMs(config.chat));
                presenceTimer.unref();
                offerTimer = setInterval(sweepOffers, offerSweepMs(config.chat.offerMs));
                offerTimer.unref();
                sweepOffers();      // offers that lapsed while this node was down
            });
            server.ext('onPreStop', () => {
                stopping = true;
                chat.stopTimers();
                for (const t of [timer, presenceTimer, offerTimer, ...graceTimers]) {
                    if (t) {
                        clearInterval(t);
                    }
                }
                graceTimers.clear();
            });
            server.ext('onPostStop', () => mail.close());
        }
    }
};

export default feature;
