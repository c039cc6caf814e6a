import type { OfflineDraft } from './use-live-chat';
import { t } from './texts';

/**
 * Leave a message (no agent available): a card at the end of the conversation, which scrolls with it, so the
 * messages keep their room at any panel size (issue 23: it used to squeeze them to a sliver at 1280×800).
 */
export function OfflineForm(props: { draft: OfflineDraft; change(draft: OfflineDraft | null): void; send(): void }) {
    const { draft, change } = props;
    return (
        <form className="lc-offline" aria-label={t('offlineForm')} onSubmit={(e) => {
            e.preventDefault();
            props.send();
        }}>
            <label>{t('offlineEmail')}<input type="email" required maxLength={254} value={draft.email} autoComplete="email"
                onChange={(e) => change({ ...draft, email: e.target.value })} /></label>
            <label>{t('offlineName')}<input maxLength={100} value={draft.name ?? ''} autoComplete="name"
                onChange={(e) => change({ ...draft, name: e.target.value })} /></label>
            <label>{t('offlineMessage')}<textarea required rows={3} value={draft.text} dir="auto"
                onChange={(e) => change({ ...draft, text: e.target.value })} /></label>
            {draft.error && <p className="lc-offline-error" role="alert">{draft.error}</p>}
            <div>
                <button type="submit" className="lc-chip">{t('offlineSend')}</button>
                <button type="button" className="lc-chip" onClick={() => change(null)}>{t('offlineNoThanks')}</button>
            </div>
        </form>
    );
}
