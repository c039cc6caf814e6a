/**
 * The rating after a live chat (issue 28), a feature chunk of its own (DESIGN §10: fetched when a chat ends, ≤ 8 KB
 * gzip): "How was your chat?" as a radio group 1–5 with a label on each choice (native radios: Tab reaches the group,
 * the arrow keys choose), an optional comment, Send or No thanks. It posts once with the chat's customer token; the
 * server keeps one rating per chat (a second answers 409, shown as its text). Its texts, in every language, come with
 * it (`?rating`: only the `rating.*` keys), so the panel carries none of them.
 */
import { useRef, useState } from 'react';
import { api, ApiError, WidgetConfig } from './config';
import { adoptStyles } from './styles';
import { errorText } from './texts';
import { featureTexts } from './feature-texts';
import ar from '../locales/ar.json?rating';
import de from '../locales/de.json?rating';
import en from '../locales/en.json?rating';
import es from '../locales/es.json?rating';
import fr from '../locales/fr.json?rating';
import ptBR from '../locales/pt-BR.json?rating';

const text = featureTexts('rating', { en, es, fr, 'pt-BR': ptBR, de, ar });

export const MAX_COMMENT = 1000;

const CSS = `
.lc-rate fieldset{border:0;margin:0;padding:0;display:flex;flex-direction:column;gap:4px}
.lc-rate legend{font-weight:600;font-size:15px;margin-bottom:4px;padding:0}
.lc-rate .lc-scores{display:flex;flex-direction:column;gap:2px}
.lc-rate .lc-scores label{flex-direction:row;align-items:center;gap:8px;min-height:32px;padding:2px 4px;border-radius:6px}
.lc-rate .lc-scores input{width:20px;height:20px;margin:0;accent-color:var(--lc-accent,#1d4ed8)}
.lc-rate .lc-scores label:has(input:checked){background:#eff6ff;font-weight:600}
.lc-rate p{margin:0}
`;

export interface RatingProps {
    config: WidgetConfig;
    /** The chat (its session id) and the customer token that names it, both kept from when it ended. */
    chatId: string;
    token: string;
    /** The card is done: rated (the thanks to say in the conversation), or No thanks (null). The panel forgets it. */
    onDone(thanks: string | null): void;
}

export function RatingCard(props: RatingProps) {
    const [score, setScore] = useState<number | null>(null);
    const [comment, setComment] = useState('');
    const [sending, setSending] = useState(false);
    const [error, setError] = useState<string | null>(null);
    const styled = useRef(false);

    const attach = (node: HTMLFormElement | null) => {
        const root = node?.getRootNode();
        if (root && !styled.current && root instanceof ShadowRoot) {
            styled.current = true;
            adoptStyles(root, CSS);
        }
    };

    return (
        <form className="lc-offline lc-rate" ref={attach} aria-label={text('title')} onSubmit={(e) => {
            e.preventDefault();
            if (score === null || sending) {
                return;
            }
            setSending(true);
            setError(null);
            api(props.config, `/api/chat/session/${encodeURIComponent(props.chatId)}/rating`, { score, comment: comment.trim() || null }, { token: props.token })
                .then(() => props.onDone(text('thanks')), (err) => {
                    setSending(false);
                    // Rated already (another tab, the mailed link): nothing more to ask.
                    if (err instanceof ApiError && err.code === 'livechat.already_rated') {
                        props.onDone(errorText(err));
                        return;
                    }
                    setError(err instanceof ApiError && err.status < 500 ? errorText(err) : text('failed'));
                });
        }}>
            <fieldset>
                <legend>{text('title')}</legend>
                <div className="lc-scores" role="radiogroup" aria-label={text('group')}>
                    {[1, 2, 3, 4, 5].map((n) => (
                        <label key={n}>
                            <input type="radio" name="lc-rating" value={n} checked={score === n} onChange={() => setScore(n)} />
                            {text(`s${n}`)}
                        </label>
                    ))}
                </div>
            </fieldset>
            <label>{text('comment')}<textarea rows={2} maxLength={MAX_COMMENT} value={comment} dir="auto"
                onChange={(e) => setComment(e.target.value)} /></label>
            {error && <p className="lc-offline-error" role="alert">{error}</p>}
            <div>
                <button type="submit" className="lc-chip" disabled={score === null || sending}>{text('send')}</button>
                <button type="button" className="lc-chip" onClick={() => props.onDone(null)}>{text('skip')}</button>
            </div>
        </form>
    );
}
