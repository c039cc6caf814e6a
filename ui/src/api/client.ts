/**
 * The one API client of the admin app (SPEC §7 and §8): JSON payloads with a JSON content type, the
 * bearer token when present, cookies included, and any non-OK answer turned into an Error whose message
 * is "{status}: {body text or status text}". A 401 is an error like any other.
 */
export const ADMIN_TOKEN_KEY = 'adminToken';
export const SUPER_ADMIN_TOKEN_KEY = 'superAdminToken';
export const ORG_TOKEN_KEY = 'orgToken';
export const ORG_USER_KEY = 'orgUser';

export class ApiError extends Error {
    constructor(public readonly status: number, public readonly body: string) {
        super(`${status}: ${body}`);
        this.name = 'ApiError';
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

export async function apiRequest<T = unknown>(url: string, options: RequestOptions = {}): Promise<T> {
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
        throw new ApiError(response.status, text || response.statusText);
    }
    if (response.status === 204) {
        return undefined as T;
    }
    const type = response.headers.get('content-type') ?? '';
    return (type.includes('application/json') ? response.json() : response.text()) as Promise<T>;
}

/** The default data-loading call: a GET that parses JSON. */
export function getJson<T>(url: string, tokenKey?: string | null): Promise<T> {
    return apiRequest<T>(url, { tokenKey });
}
