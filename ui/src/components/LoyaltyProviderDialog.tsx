import { FormEvent, useEffect, useState } from 'react';
import { Button, Callout, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Spinner, Tag } from '@blueprintjs/core';
import { ApiError } from '../api/client';
import type { Organization } from '../api/tenants';
import { ProviderChoice, useCheckLoyaltyProvider, useLoyaltyProvider, useSaveLoyaltyProvider } from '../api/loyalty';
import { AppDialog } from './a11y';
import { Translate, useT } from '../i18n';

/** The providers by name, in the reader's language (Alpine IQ is a product name). */
const providerName = (t: Translate, provider: 'builtin' | 'alpineiq') => (provider === 'builtin' ? t('loyaltyProvider.builtin') : 'Alpine IQ');

/** The origin a base URL sends to (a stored key belongs to one), or null for text that is not a URL yet. */
function originOf(url: string): string | null {
    try {
        return new URL(url).origin;
    }
    catch {
        return null;
    }
}

function errorText(error: unknown, t: Translate): string {
    return error instanceof ApiError ? error.serverMessage : t('login.networkError');
}

/**
 * The super admin's "Loyalty provider" dialog of one organization: the server default, the built-in tables or
 * the store's own Alpine IQ account (UID, API key, base URL), and a Check of the saved settings. The stored key
 * is never shown: the server only says whether one is stored; an empty key field keeps it.
 */
export function LoyaltyProviderDialog({ organization, onClose }: { organization: Organization | null; onClose: () => void }) {
    const t = useT();
    const id = organization?.id ?? null;
    const settings = useLoyaltyProvider(id);
    const save = useSaveLoyaltyProvider(id);
    const check = useCheckLoyaltyProvider(id);
    const [form, setForm] = useState({ provider: 'default' as ProviderChoice, uid: '', baseUrl: '', apiKey: '' });
    const [saved, setSaved] = useState(false);

    useEffect(() => {
        save.reset();
        check.reset();
        setSaved(false);
    }, [id]);
    useEffect(() => {
        const s = settings.data;
        if (s) {
            setForm({ provider: s.provider, uid: s.uid ?? '', baseUrl: s.baseUrl ?? '', apiKey: '' });
        }
    }, [settings.data]);

    const data = settings.data;
    const alpine = form.provider === 'alpineiq';
    // A stored key is sent only to the host it was entered for: another host needs the key again (the server says so too).
    const hostChanged = !!data?.hasApiKey
        && originOf(form.baseUrl.trim() || data.serverDefault.baseUrl) !== originOf(data.baseUrl || data.serverDefault.baseUrl);
    const keyKept = !!data?.hasApiKey && !hostChanged;
    const canSave = !alpine || (!!form.uid.trim() && (!!form.apiKey.trim() || keyKept));
    const submit = (event: FormEvent) => {
        event.preventDefault();
        if (!canSave || save.isPending) {
            return;
        }
        check.reset();
        setSaved(false);
        const body = alpine
            ? { provider: form.provider, uid: form.uid.trim(), baseUrl: form.baseUrl.trim() || null, ...(form.apiKey.trim() ? { apiKey: form.apiKey.trim() } : {}) }
            : { provider: form.provider };
        save.mutate(body, { onSuccess: () => setSaved(true) });
    };
    const set = (key: 'uid' | 'baseUrl' | 'apiKey') => (e: { target: { value: string } }) => {
        setSaved(false);
        setForm({ ...form, [key]: e.target.value });
    };
    const defaultLabel = data ? t('loyaltyProvider.serverDefaultOf', { name: providerName(t, data.serverDefault.provider) }) : t('loyaltyProvider.serverDefault');

    return (
        <AppDialog title={organization ? t('loyaltyProvider.titleOf', { name: organization.name }) : t('loyaltyProvider.title')} isOpen={!!organization} onClose={onClose} className="lc-dialog">
            <form onSubmit={submit} aria-label={t('loyaltyProvider.settings')}>
                <DialogBody>
                    {settings.isPending && <Spinner size={24} />}
                    {settings.error ? <Callout intent="danger" icon="error" className="lc-form-error">{errorText(settings.error, t)}</Callout> : null}
                    {save.error ? <Callout intent="danger" icon="error" className="lc-form-error" role="alert">{errorText(save.error, t)}</Callout> : null}
                    {saved && !save.error ? <Callout intent="success" icon="tick" className="lc-form-error" role="status">{t('loyaltyProvider.saved', { name: providerName(t, save.data?.effectiveProvider ?? 'builtin') })}</Callout> : null}
                    {check.data ? (
                        <Callout intent={check.data.ok ? 'success' : 'danger'} icon={check.data.ok ? 'tick' : 'error'} className="lc-form-error" role="status">
                            {check.data.message}
                        </Callout>
                    ) : null}
                    {check.error ? <Callout intent="danger" icon="error" className="lc-form-error" role="alert">{errorText(check.error, t)}</Callout> : null}
                    {data && (
                        <>
                            <FormGroup label={t('loyaltyProvider.provider')} labelFor="loyalty-provider">
                                <HTMLSelect id="loyalty-provider" fill value={form.provider}
                                    onChange={(e) => { setSaved(false); setForm({ ...form, provider: e.target.value as ProviderChoice }); }}
                                    options={[{ value: 'default', label: defaultLabel }, { value: 'builtin', label: providerName(t, 'builtin') }, { value: 'alpineiq', label: providerName(t, 'alpineiq') }]} />
                            </FormGroup>
                            {alpine && (
                                <>
                                    <FormGroup label={t('loyaltyProvider.uid')} labelFor="loyalty-uid" labelInfo={t('common.required')} helperText={t('loyaltyProvider.uidHelp')}>
                                        <InputGroup id="loyalty-uid" value={form.uid} onChange={set('uid')} autoComplete="off" />
                                    </FormGroup>
                                    <FormGroup label={t('loyaltyProvider.apiKey')} labelFor="loyalty-key" labelInfo={keyKept ? t('loyaltyProvider.keyKept') : hostChanged ? t('loyaltyProvider.keyRequiredHost') : t('common.required')}
                                        helperText={t('loyaltyProvider.keyHelp')}>
                                        <InputGroup id="loyalty-key" type="password" autoComplete="new-password" value={form.apiKey} onChange={set('apiKey')}
                                            rightElement={data.hasApiKey ? <Tag minimal intent="success" className="lc-key-tag">{t('loyaltyProvider.keyStored')}</Tag> : undefined} />
                                    </FormGroup>
                                    <FormGroup label={t('loyaltyProvider.baseUrl')} labelFor="loyalty-base-url" helperText={t('loyaltyProvider.empty', { url: data.serverDefault.baseUrl })}>
                                        <InputGroup id="loyalty-base-url" type="url" value={form.baseUrl} onChange={set('baseUrl')} placeholder={data.serverDefault.baseUrl} />
                                    </FormGroup>
                                </>
                            )}
                        </>
                    )}
                </DialogBody>
                <DialogFooter actions={(
                    <>
                        <Button text={t('loyaltyProvider.close')} onClick={onClose} />
                        <Button text={check.isPending ? t('loyaltyProvider.checking') : t('loyaltyProvider.check')} icon="exchange" disabled={!data || check.isPending}
                            onClick={() => { check.reset(); check.mutate(); }} />
                        <Button type="submit" intent="primary" text={save.isPending ? t('common.saving') : t('common.save')} disabled={!data || !canSave || save.isPending} />
                    </>
                )} />
            </form>
        </AppDialog>
    );
}
