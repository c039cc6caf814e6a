import { useEffect, useState } from 'react';
import { Button, Callout, Classes, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { LANGUAGE_NAMES, ShippedLanguage } from '../../../core/shared/languages';
import { useProfile, useSaveProfile } from '../api/profile';
import { ApiError } from '../api/client';
import { AppDialog } from '../components/a11y';
import { BusyButton } from '../components/BusyButton';
import { ADMIN_LANGUAGES, AdminTextKey, useSetLanguage, useT } from '../i18n';

/** The server's error code (core/http/errors.ts) as the catalogue's text, else the server's message. */
function errorText(err: unknown, t: ReturnType<typeof useT>): string {
    if (err instanceof ApiError) {
        try {
            const code = (JSON.parse(err.body) as { code?: string }).code;
            if (code === 'auth.display_name_invalid') {
                return t(`error.${code}` as AdminTextKey);
            }
        }
        catch {
            // not JSON: the raw text below
        }
        return err.serverMessage;
    }
    return t('profile.saveFailed');
}

/**
 * The agent's profile (issue 23), from the header: the display name customers see on the agent's messages and when
 * the agent joins their chat. Empty means the first name of the account.
 */
export function ProfileDialog({ isOpen, onClose }: { isOpen: boolean; onClose(): void }) {
    const t = useT();
    const profile = useProfile();
    const save = useSaveProfile();
    const [name, setName] = useState('');
    const [language, setLanguageChoice] = useState('');
    const [saved, setSaved] = useState(false);
    const setLanguage = useSetLanguage();

    // On opening (and when the profile first arrives), the stored name; a save's answer does not reset the form. The
    // fields stay disabled until they hold the stored values: a choice made between the profile's arrival and this
    // effect would be reset by it, and saved as it was.
    const loadedId = profile.data?.id;
    const [formFor, setFormFor] = useState<number | null>(null);
    useEffect(() => {
        if (isOpen && profile.data) {
            setName(profile.data.displayName ?? '');
            setLanguageChoice(profile.data.language ?? '');
            setSaved(false);
            save.reset();
            setFormFor(profile.data.id);
        }
        else if (!isOpen) {
            setFormFor(null);
        }
    }, [isOpen, loadedId]);
    const ready = !!profile.data && formFor === profile.data.id;

    const first = profile.data ? profile.data.shownName : '';
    return (
        <AppDialog title={t('profile.title')} isOpen={isOpen} onClose={onClose} className="lc-profile-dialog">
            <form onSubmit={(e) => {
                e.preventDefault();
                save.mutate({ displayName: name.trim(), language: language || null }, {
                    onSuccess: (saved) => {
                        setSaved(true);
                        setLanguage(saved.language);
                    }
                });
            }}>
                <div className={Classes.DIALOG_BODY}>
                    <FormGroup label={t('profile.displayName')} labelFor="lc-display-name"
                        helperText={t('profile.displayNameHelp', { email: profile.data?.email ?? '' })}>
                        <InputGroup id="lc-display-name" data-testid="display-name" value={name} maxLength={40} disabled={!ready}
                            placeholder={profile.data?.displayName ? '' : first} onChange={(e) => { setName(e.target.value); setSaved(false); }} />
                    </FormGroup>
                    {profile.data && <p className="lc-profile-preview">{t('profile.preview', { name: name.trim() || first })}</p>}
                    <FormGroup label={t('profile.language')} labelFor="lc-profile-language" helperText={t('profile.languageHelp')}>
                        <HTMLSelect id="lc-profile-language" data-testid="profile-language" value={language} disabled={!ready}
                            onChange={(e) => { setLanguageChoice(e.currentTarget.value); setSaved(false); }}
                            options={[{ value: '', label: t('profile.languageBrowser') },
                                ...ADMIN_LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l as ShippedLanguage] ?? l }))]} />
                    </FormGroup>
                    {save.isError && <Callout intent="danger" role="alert">{errorText(save.error, t)}</Callout>}
                    {saved && <Callout intent="success" role="status">{t('profile.saved')}</Callout>}
                </div>
                <div className={Classes.DIALOG_FOOTER}>
                    <div className={Classes.DIALOG_FOOTER_ACTIONS}>
                        <Button text={t('profile.close')} onClick={onClose} />
                        <BusyButton type="submit" intent="primary" text={t('profile.save')} busy={save.isPending} disabled={!ready} data-testid="save-profile" />
                    </div>
                </div>
            </form>
        </AppDialog>
    );
}
