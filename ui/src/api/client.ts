/**
 * The one API client of the admin app (SPEC §7 and §8): JSON payloads with a JSON content type, the
 * bearer token when present, cookies included, and any non-OK answer turned into an Error whose message
 * is "{status}: {body text or status text}". A 401 is an error like any other.
 */
export const ADMIN_TOKEN_KEY = 'adminToken';
export const SUPER_ADMIN_TOKEN_KEY = 'superAdminToken';
export const ORG_TOKEN_KEY = 'orgToken';
export const ORG_USER_KEY = 'orgUser';

/** Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), or null without a usable one. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
    const text = value?.trim() ?? '';
    if (/^\d+$/.test(text)) {
        return Number(text);
    }
    const date = text ? Date.parse(text) : NaN;
    return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

export class ApiError extends Error {
    /** The answer's Retry-After in seconds (429 and 503 answers), or null. */
    readonly retryAfterSeconds: number | null;

    constructor(public readonly status: number, public readonly body: string, headers?: Headers) {
        super(`${status}: ${body}`);
        this.name = 'ApiError';
        this.retryAfterSeconds = parseRetryAfter(headers?.get('retry-after') ?? null);
    }

    /** The server's own message when the body is a JSON error, else the raw text. */
    get serverMessage(): string {
        try {
            const parsed = JSON.parse(this.body);
            return typeof parsed?.message === 'string' ? parsed.message : this.body;
        }
        catch {
            return this.body;
        }
    }
}

export interface RequestOptions {
    method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    body?: unknown;
    /** Which stored token to send (default: the admin token). */
    tokenKey?: string | null;
    signal?: AbortSignal;
}

/** One call to the API with the stored token; a 4xx/5xx answer is an ApiError. */
async function send(url: string, options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = {};
    const tokenKey = options.tokenKey === undefined ? ADMIN_TOKEN_KEY : options.tokenKey;
    const token = tokenKey ? localStorage.getItem(tokenKey) : null;
    if (token) {
        headers.Authorization = `Bearer ${token}`;
    }
    if (options.body !== undefined) {
        headers['Content-Type'] = 'application/json';
    }
    const response = await fetch(url, {
        method: options.method ?? 'GET',
        headers,
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
        credentials: 'include',
        signal: options.signal
    });
    if (!response.ok) {
        const text = await response.text().catch(() => '');
        throw new ApiError(response.status, text || response.statusText, response.headers);
    }
    return response;
}

export async function apiRequest<T = unknown>(url: string, options: RequestOptions = {}): Promise<T> {
    const response = await send(url, options);
    if (response.status === 204) {
        return undefined as T;
    }
    const type = response.headers.get('content-type') ?? '';
    return (type.includes('application/json') ? response.json() : response.text()) as Promise<T>;
}

/**
 * Saves what an API call answers as the browser's own file download (the bearer token rides along, so this is a
 * fetch, not a link): named as the answer's Content-Disposition says, else `fallbackName`.
 */
export async function downloadFile(url: string, fallbackName: string, options: RequestOptions = {}): Promise<void> {
    const response = await send(url, options);
    const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
    const href = URL.createObjectURL(await response.blob());
    const a = document.createElement('a');
    a.href = href;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** The default data-loading call: a GET that parses JSON. */
export function getJson<T>(url: string, tokenKey?: string | null): Promise<T> {
    return apiRequest<T>(url, { tokenKey });
}
