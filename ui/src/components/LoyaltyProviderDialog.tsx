import { FormEvent, useEffect, useState } from 'react';
import { Button, Callout, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Spinner, Tag } from '@blueprintjs/core';
import { ApiError } from '../api/client';
import type { Organization } from '../api/tenants';
import { ProviderChoice, useCheckLoyaltyProvider, useLoyaltyProvider, useSaveLoyaltyProvider } from '../api/loyalty';
import { AppDialog } from './a11y';

const NAMES = { builtin: 'Built-in (tables and CSV import)', alpineiq: 'Alpine IQ' } as const;

/** The origin a base URL sends to (a stored key belongs to one), or null for text that is not a URL yet. */
function originOf(url: string): string | null {
    try {
        return new URL(url).origin;
    }
    catch {
        return null;
    }
}

function errorText(error: unknown): string {
    return error instanceof ApiError ? error.serverMessage : 'Network error. Please try again.';
}

/**
 * The super admin's "Loyalty provider" dialog of one organization: the server default, the built-in tables or
 * the store's own Alpine IQ account (UID, API key, base URL), and a Check of the saved settings. The stored key
 * is never shown: the server only says whether one is stored; an empty key field keeps it.
 */
export function LoyaltyProviderDialog({ organization, onClose }: { organization: Organization | null; onClose: () => void }) {
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
    const defaultLabel = data ? `Server default (${NAMES[data.serverDefault.provider]})` : 'Server default';

    return (
        <AppDialog title={organization ? `Loyalty provider: ${organization.name}` : 'Loyalty provider'} isOpen={!!organization} onClose={onClose} className="lc-dialog">
            <form onSubmit={submit} aria-label="Loyalty provider settings">
                <DialogBody>
                    {settings.isPending && <Spinner size={24} />}
                    {settings.error ? <Callout intent="danger" icon="error" className="lc-form-error">{errorText(settings.error)}</Callout> : null}
                    {save.error ? <Callout intent="danger" icon="error" className="lc-form-error" role="alert">{errorText(save.error)}</Callout> : null}
                    {saved && !save.error ? <Callout intent="success" icon="tick" className="lc-form-error" role="status">Saved. Customers are now looked up in {NAMES[save.data?.effectiveProvider ?? 'builtin']}.</Callout> : null}
                    {check.data ? (
                        <Callout intent={check.data.ok ? 'success' : 'danger'} icon={check.data.ok ? 'tick' : 'error'} className="lc-form-error" role="status">
                            {check.data.message}
                        </Callout>
                    ) : null}
                    {check.error ? <Callout intent="danger" icon="error" className="lc-form-error" role="alert">{errorText(check.error)}</Callout> : null}
                    {data && (
                        <>
                            <FormGroup label="Provider" labelFor="loyalty-provider">
                                <HTMLSelect id="loyalty-provider" fill value={form.provider}
                                    onChange={(e) => { setSaved(false); setForm({ ...form, provider: e.target.value as ProviderChoice }); }}
                                    options={[{ value: 'default', label: defaultLabel }, { value: 'builtin', label: NAMES.builtin }, { value: 'alpineiq', label: NAMES.alpineiq }]} />
                            </FormGroup>
                            {alpine && (
                                <>
                                    <FormGroup label="Account UID" labelFor="loyalty-uid" labelInfo="(required)" helperText="The Alpine IQ account id (a path segment of its API).">
                                        <InputGroup id="loyalty-uid" value={form.uid} onChange={set('uid')} autoComplete="off" />
                                    </FormGroup>
                                    <FormGroup label="API key" labelFor="loyalty-key" labelInfo={keyKept ? '(stored: leave empty to keep)' : hostChanged ? '(required: the base URL points to another host)' : '(required)'}
                                        helperText="Stored encrypted and never shown again.">
                                        <InputGroup id="loyalty-key" type="password" autoComplete="new-password" value={form.apiKey} onChange={set('apiKey')}
                                            rightElement={data.hasApiKey ? <Tag minimal intent="success" className="lc-key-tag">Key stored</Tag> : undefined} />
                                    </FormGroup>
                                    <FormGroup label="Base URL" labelFor="loyalty-base-url" helperText={`Empty: ${data.serverDefault.baseUrl}`}>
                                        <InputGroup id="loyalty-base-url" type="url" value={form.baseUrl} onChange={set('baseUrl')} placeholder={data.serverDefault.baseUrl} />
                                    </FormGroup>
                                </>
                            )}
                        </>
                    )}
                </DialogBody>
                <DialogFooter actions={(
                    <>
                        <Button text="Close" onClick={onClose} />
                        <Button text={check.isPending ? 'Checking...' : 'Check connection'} icon="exchange" disabled={!data || check.isPending}
                            onClick={() => { check.reset(); check.mutate(); }} />
                        <Button type="submit" intent="primary" text={save.isPending ? 'Saving...' : 'Save'} disabled={!data || !canSave || save.isPending} />
                    </>
                )} />
            </form>
        </AppDialog>
    );
}
