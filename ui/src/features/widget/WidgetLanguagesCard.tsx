import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Callout, Card, Checkbox, Elevation, FormGroup, HTMLSelect, Icon, Intent } from '@blueprintjs/core';
import type { StoreLanguages } from '../../../../core/types/api';
import { LANGUAGE_NAMES, ShippedLanguage } from '../../../../core/shared/languages';
import { apiRequest, ApiError } from '../../api/client';
import { Heading } from '../../components/a11y';
import { useT } from '../../i18n';

export type StoreLanguageSettings = StoreLanguages & { shipped: string[] };

export const LANGUAGES_KEY = ['widget', 'languages'];

export function useStoreLanguages() {
    return useQuery({ queryKey: LANGUAGES_KEY, queryFn: () => apiRequest<StoreLanguageSettings>('/api/widget/languages') });
}

export const languageName = (lang: string) => LANGUAGE_NAMES[lang as ShippedLanguage] ?? lang;

/**
 * The admin home's card for the languages the store's widget speaks (issue 27): which of the shipped languages
 * customers can get (a new store has them all) and the default, for a customer whose page and browser name none of them.
 */
export function WidgetLanguagesCard() {
    const t = useT();
    const client = useQueryClient();
    const languages = useStoreLanguages();
    const [draft, setDraft] = useState<StoreLanguages | null>(null);
    useEffect(() => {
        if (languages.data) {
            setDraft({ enabled: languages.data.enabled, default: languages.data.default });
        }
    }, [languages.data]);
    const save = useMutation({
        mutationFn: (next: StoreLanguages) => apiRequest<StoreLanguageSettings>('/api/widget/languages', { method: 'PUT', body: next }),
        onSuccess: (saved) => client.setQueryData(LANGUAGES_KEY, saved)
    });
    if (!languages.data || !draft) {
        return null;
    }
    const shipped = languages.data.shipped;
    const toggle = (lang: string, on: boolean) => {
        const enabled = shipped.filter((l) => (l === lang ? on : draft.enabled.includes(l)));
        setDraft({ enabled, default: enabled.includes(draft.default) ? draft.default : enabled[0] ?? draft.default });
    };
    const error = save.error instanceof ApiError ? save.error.serverMessage : save.error ? String(save.error) : null;
    return (
        <Card elevation={Elevation.ONE} className="lc-look-card lc-languages-card">
            <Heading level={2} look={5}><Icon icon="translate" /> {t('languages.title')}</Heading>
            <p className="lc-languages-help">{t('languages.help')}</p>
            {error && <Callout intent={Intent.DANGER} className="lc-mb">{error}</Callout>}
            <fieldset className="lc-languages-list">
                <legend>{t('languages.enabled')}</legend>
                {shipped.map((lang) => (
                    <Checkbox key={lang} checked={draft.enabled.includes(lang)} onChange={(e) => toggle(lang, e.currentTarget.checked)}
                        data-lang={lang}>
                        <span lang={lang}>{languageName(lang)}</span>
                    </Checkbox>
                ))}
            </fieldset>
            <FormGroup label={t('languages.default')} labelFor="languages-default">
                <HTMLSelect id="languages-default" value={draft.default} onChange={(e) => setDraft({ ...draft, default: e.currentTarget.value })}
                    options={draft.enabled.map((l) => ({ value: l, label: languageName(l) }))} />
            </FormGroup>
            <Button intent={Intent.PRIMARY} text={save.isPending ? t('languages.saving') : t('languages.save')} disabled={save.isPending || !draft.enabled.length}
                onClick={() => save.mutate(draft)} />
            {save.isSuccess && <span className="lc-look-saved" role="status"> {t('languages.saved')}</span>}
        </Card>
    );
}
