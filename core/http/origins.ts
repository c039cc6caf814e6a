/**
 * The host name of a URL, an Origin or a Referer header value: lowercase, without port; null when the value is
 * missing or not a URL. The one parse of page origins (widget CORS, the domain of analytics events, loyalty
 * sessions and live chats).
 */
export function hostOf(url?: string | null): string | null {
    if (!url) {
        return null;
    }
    try {
        return new URL(url).hostname.toLowerCase();
    }
    catch {
        return null;
    }
}
