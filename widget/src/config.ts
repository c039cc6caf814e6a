/** What /widget-{subdomain}.js builds into the loader (plugins/widget): public settings only. */
export interface WidgetConfig {
    key: string;
    storeName: string;
    apiOrigin: string;
    subdomain: string;
    /** The store's registered domains: the widget shows only on pages of these hosts (or their subdomains). */
    domains?: string[];
    /** The store has the AI agent (services.ai?.isEnabled). */
    aiEnabled?: boolean;
    /** The bot instance's look (null fields: the defaults). */
    look?: { color: string | null; position: 'left' | 'right'; title: string | null; greeting: string | null;
        /** Per language (issue 27): the store's own title and greeting in that language. */
        texts?: Record<string, { title: string | null; greeting: string | null; privacy?: string | null } | undefined>;
        /** Consent (issue 25): the store's privacy line (default language) and its privacy policy's address. */
        privacy?: string | null; privacyUrl?: string | null };
    /** The store's languages (issue 27; absent: every shipped language enabled, English the default). */
    languages?: { enabled?: string[]; default?: string };
}

/** The analytics events the widget posts (SPEC §7), plus widget_loaded. */
export type WidgetAction = 'widget_loaded' | 'widget_opened' | 'question_clicked' | 'live_chat_requested' | 'verification_sent'
    | 'verification_failed' | 'points_retrieved' | 'code_verification_failed';

export interface TrackEvent {
    action: WidgetAction;
    phoneNumber?: string | null;
    success?: boolean | null;
    errorMessage?: string | null;
    pointsRetrieved?: number | null;
    questionId?: number | null;
}

/**
 * An answer that is not OK: the status and the server's message (SPEC §8), and the stable `code` (with its `args`)
 * that the widget renders from its catalogue (texts.ts errorText).
 */
export class ApiError extends Error {
    constructor(readonly status: number, message: string, readonly code?: string, readonly args?: Record<string, unknown>) {
        super(message);
    }
}

export interface ApiOptions {
    /** The request may outlive the page (analytics events). */
    keepalive?: boolean;
    /** The customer's token (DESIGN §10), sent on every widget call once the widget has one. */
    token?: string | null;
}

/**
 * POSTs or GETs JSON to the API with the widget key (and the customer's token as `Authorization: Bearer`). Network
 * failures throw a TypeError, non-OK answers an ApiError.
 */
export async function api<T>(config: WidgetConfig, path: string, body?: unknown, options: ApiOptions = {}): Promise<T> {
    const headers: Record<string, string> = { 'X-Widget-Key': config.key };
    if (body !== undefined) {
        headers['Content-Type'] = 'application/json';
    }
    if (options.token) {
        headers.Authorization = `Bearer ${options.token}`;
    }
    const response = await fetch(config.apiOrigin + path, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        keepalive: options.keepalive ?? false
    });
    const text = await response.text();
    let data: any = null;
    try {
        data = text ? JSON.parse(text) : null;
    }
    catch { /* not JSON */ }
    if (!response.ok) {
        throw new ApiError(response.status, (data && typeof data.message === 'string' && data.message) || text || response.statusText,
            data && typeof data.code === 'string' ? data.code : undefined, data && data.args && typeof data.args === 'object' ? data.args : undefined);
    }
    return data as T;
}

/** Posts an analytics event; failures are only logged (SPEC §7). */
export function track(config: WidgetConfig, sessionId: string, event: TrackEvent, token: string | null = null): void {
    // The server takes the page's host from the Origin header.
    api(config, '/api/analytics/track', { ...event, sessionId }, { keepalive: true, token })
        .catch((err) => console.warn('loyalty-chat: analytics event not recorded', err));
}

/**
 * The page the customer is on, for the agents (issue 23): origin and path only (a query or fragment may carry personal
 * data), http(s) only, at most 2,000 characters; null elsewhere.
 */
export function pageUrl(): string | null {
    const l = typeof location === 'undefined' ? null : location;
    return l && /^https?:$/.test(l.protocol) ? (l.origin + l.pathname).slice(0, 2000) : null;
}
