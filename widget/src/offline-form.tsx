import type { OfflineDraft } from './use-live-chat';
import { featureTexts } from './feature-texts';
import ar from '../locales/ar.json?offline';
import de from '../locales/de.json?offline';
import en from '../locales/en.json?offline';
import es from '../locales/es.json?offline';
import fr from '../locales/fr.json?offline';
import ptBR from '../locales/pt-BR.json?offline';

/** This chunk's texts (`offline.*`), in every language: the panel carries none of them. */
const t = featureTexts('offline', { en, es, fr, 'pt-BR': ptBR, de, ar });

/**
 * Leave a message (no agent available), a feature chunk of its own (DESIGN §10, fetched when the form is offered): a card at the end of the conversation, which scrolls with it, so the
 * messages keep their room at any panel size (issue 23: it used to squeeze them to a sliver at 1280×800).
 */
export function OfflineForm(props: { draft: OfflineDraft; change(draft: OfflineDraft | null): void; send(): void }) {
    const { draft, change } = props;
    return (
        <form className="lc-offline" aria-label={t('form')} onSubmit={(e) => {
            e.preventDefault();
            props.send();
        }}>
            <label>{t('email')}<input type="email" required maxLength={254} value={draft.email} autoComplete="email"
                onChange={(e) => change({ ...draft, email: e.target.value })} /></label>
            <label>{t('name')}<input maxLength={100} value={draft.name ?? ''} autoComplete="name"
                onChange={(e) => change({ ...draft, name: e.target.value })} /></label>
            <label>{t('message')}<textarea required rows={3} value={draft.text} dir="auto"
                onChange={(e) => change({ ...draft, text: e.target.value })} /></label>
            {draft.error && <p className="lc-offline-error" role="alert">{draft.error}</p>}
            <div>
                <button type="submit" className="lc-chip">{t('send')}</button>
                <button type="button" className="lc-chip" onClick={() => change(null)}>{t('noThanks')}</button>
            </div>
        </form>
    );
}
