/**
 * Leave an email in a live chat (issue 28), a feature chunk of its own (DESIGN §10: fetched when a live chat starts,
 * its texts in every language with it, `?email`), so the panel carries nothing but the place it goes: a small
 * "Leave your email" button at the end of the conversation that opens one email field. Saved with the chat's customer
 * token (`PUT /api/chat/session/{id}/email`); if the customer leaves before the chat ends, the link to rate it is
 * mailed there. What they saved is remembered for this chat in the tab (sessionStorage), like the conversation.
 */
import { useEffect, useRef, useState } from 'react';
import { ApiError, WidgetConfig } from './config';
import { adoptStyles } from './styles';
import { errorText } from './texts';
import { featureTexts } from './feature-texts';
import ar from '../locales/ar.json?email';
import de from '../locales/de.json?email';
import en from '../locales/en.json?email';
import es from '../locales/es.json?email';
import fr from '../locales/fr.json?email';
import ptBR from '../locales/pt-BR.json?email';

const text = featureTexts('email', { en, es, fr, 'pt-BR': ptBR, de, ar });

const CSS = `
.lc-email{display:flex;flex-direction:column;gap:6px;flex-shrink:0}
.lc-email p{margin:0;font-size:13px;color:#374151}
.lc-email .lc-chip{align-self:flex-start}
`;

/** PUT (config.ts's api() posts): kept here, so the panel carries no byte of it. */
async function put(config: WidgetConfig, path: string, token: string, body: unknown): Promise<{ email: string }> {
    const response = await fetch(config.apiOrigin + path, {
        method: 'PUT',
        headers: { 'X-Widget-Key': config.key, 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(body)
    });
    const data = await response.json().catch(() => null);
    if (!response.ok) {
        throw new ApiError(response.status, data?.message || response.statusText, data?.code, data?.args);
    }
    return data;
}

function remembered(key: string): string | null {
    try {
        return sessionStorage.getItem(key);
    }
    catch {
        return null;
    }
}

export function EmailOffer(props: { config: WidgetConfig; chatId: string; token: string; origin?: string }) {
    const key = `lc-email:${props.chatId}`;
    const [saved, setSaved] = useState<string | null>(() => remembered(key));
    const [open, setOpen] = useState(false);
    const [email, setEmail] = useState(saved ?? '');
    const [sending, setSending] = useState(false);
    const [error, setError] = useState<string | null>(null);
    const styled = useRef(false);
    const box = useRef<HTMLElement | null>(null);
    // Opened or saved: in view, whatever the panel's height (it is the last thing in the conversation).
    useEffect(() => {
        box.current?.scrollIntoView?.({ block: 'nearest' });
    }, [open, saved]);
    const attach = (node: HTMLElement | null) => {
        box.current = node;
        const root = node?.getRootNode();
        if (root && !styled.current && root instanceof ShadowRoot) {
            styled.current = true;
            adoptStyles(root, CSS);
        }
    };

    if (!open) {
        return (
            <div className="lc-email" ref={attach}>
                {saved && <p role="status">{text('saved', { email: saved })}</p>}
                <button type="button" className="lc-chip" onClick={() => setOpen(true)}>{text(saved ? 'change' : 'offer')}</button>
            </div>
        );
    }
    return (
        <form className="lc-offline lc-email" ref={attach} aria-label={text('offer')} onSubmit={(e) => {
            e.preventDefault();
            if (sending) {
                return;
            }
            setSending(true);
            setError(null);
            put(props.config, `/api/chat/session/${encodeURIComponent(props.chatId)}/email`, props.token, { email: email.trim() })
                .then((res) => {
                    try {
                        sessionStorage.setItem(key, res.email);
                    }
                    catch { /* storage refused: shown until the panel reloads */ }
                    setSaved(res.email);
                    setSending(false);
                    setOpen(false);
                }, (err) => {
                    setSending(false);
                    setError(err instanceof ApiError && err.status < 500 ? errorText(err) : text('failed'));
                });
        }}>
            <p>{text('why')}</p>
            <label>{text('label')}<input type="email" required maxLength={254} autoComplete="email" value={email} autoFocus
                onChange={(e) => setEmail(e.target.value)} /></label>
            {error && <p className="lc-offline-error" role="alert">{error}</p>}
            <div>
                <button type="submit" className="lc-chip" disabled={sending}>{text('save')}</button>
                <button type="button" className="lc-chip" onClick={() => setOpen(false)}>{text('cancel')}</button>
            </div>
        </form>
    );
}
