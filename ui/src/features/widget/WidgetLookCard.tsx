import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Callout, Card, Elevation, FormGroup, HTMLSelect, Icon, InputGroup, Intent, TextArea } from '@blueprintjs/core';
import type { BotInstance, BotLook } from '../../../../core/types/api';
import { apiRequest, ApiError } from '../../api/client';
import { Heading } from '../../components/a11y';
import { useT } from '../../i18n';
import { languageName, useStoreLanguages } from './WidgetLanguagesCard';
import { isRtl, widgetDefaults, WidgetDefaults } from './widget-texts';
import './widget-look.css';

const DEFAULT_COLOR = '#2563eb';

/** White text on the colour: the WCAG contrast ratio (the server refuses below 4.5:1). */
function whiteContrast(hex: string): number {
    if (!/^#[0-9a-f]{6}$/i.test(hex)) {
        return 0;
    }
    const channel = (i: number) => {
        const c = parseInt(hex.slice(i, i + 2), 16) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 1.05 / (0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5) + 0.05);
}

/**
 * The admin home's card for the widget's look of the store's bot instance (issue 11): colour, side, title and
 * greeting, with a live preview of the launcher and the panel head as customers will see them. Title and greeting
 * per language (issue 27): the store's default language's are the look's own, every other enabled language can have
 * its own, and the preview shows each language as its customers will read it (the widget's own text where the store
 * wrote none, right to left in Arabic, the launcher then on the other side).
 */
export function WidgetLookCard() {
    const t = useT();
    const client = useQueryClient();
    const bots = useQuery({ queryKey: ['widget', 'bots'], queryFn: () => apiRequest<BotInstance[]>('/api/widget/bots') });
    const languages = useStoreLanguages();
    const bot = bots.data?.find((b) => b.isActive) ?? bots.data?.[0];
    const [look, setLook] = useState<BotLook>({ color: null, position: 'right', title: null, greeting: null, texts: {} });
    const [lang, setLang] = useState<string | null>(null);
    const [defaults, setDefaults] = useState<WidgetDefaults | null>(null);
    useEffect(() => {
        if (bot) {
            setLook({ ...bot.look, texts: bot.look.texts ?? {} });
        }
    }, [bot]);
    const storeDefault = languages.data?.default ?? 'en';
    const enabled = languages.data?.enabled ?? ['en'];
    const shown = lang && enabled.includes(lang) ? lang : storeDefault;
    useEffect(() => {
        let live = true;
        widgetDefaults(shown).then((texts) => live && setDefaults(texts), () => live && setDefaults(null));
        return () => {
            live = false;
        };
    }, [shown]);
    const save = useMutation({
        mutationFn: (next: BotLook) => apiRequest<BotInstance>(`/api/widget/bots/${bot!.id}/look`, { method: 'PUT', body: next }),
        onSuccess: () => client.invalidateQueries({ queryKey: ['widget', 'bots'] })
    });
    if (!bot) {
        return null;
    }
    const color = look.color ?? DEFAULT_COLOR;
    const contrast = whiteContrast(color);
    const store = bot.organizationName ?? 'Store';
    // The default language's texts are the look's own; another language's are look.texts[lang].
    const isDefault = shown === storeDefault;
    const own: { title: string | null; greeting: string | null; privacy?: string | null } = isDefault
        ? { title: look.title, greeting: look.greeting, privacy: look.privacy ?? null }
        : look.texts?.[shown] ?? { title: null, greeting: null, privacy: null };
    const setOwn = (change: Partial<{ title: string | null; greeting: string | null; privacy: string | null }>) => {
        if (isDefault) {
            setLook({ ...look, ...change });
        }
        else {
            setLook({ ...look, texts: { ...look.texts, [shown]: { ...own, ...change } } });
        }
    };
    const defaultTitle = defaults?.title({ store }) ?? '';
    const defaultGreeting = defaults?.greeting({ store }) ?? '';
    const defaultPrivacy = defaults?.privacyLine() ?? '';
    const rtl = isRtl(shown);
    const side = (look.position === 'left') !== rtl ? 'left' : 'right';
    const error = save.error instanceof ApiError ? save.error.serverMessage : save.error ? String(save.error) : null;
    const ratio = contrast.toFixed(1);
    return (
        <Card elevation={Elevation.ONE} className="lc-look-card">
            <Heading level={2} look={5}><Icon icon="style" /> {t('look.title')}</Heading>
            {error && <Callout intent={Intent.DANGER} className="lc-mb">{error}</Callout>}
            <FormGroup label={t('look.colour')} labelFor="look-color" helperText={contrast < 4.5 ? t('look.contrastLow', { ratio }) : t('look.contrast', { ratio })}
                intent={contrast < 4.5 ? Intent.DANGER : Intent.NONE}>
                <div className="lc-look-color">
                    <input id="look-color-picker" type="color" value={color} aria-label={t('look.pickColour')} onChange={(e) => setLook({ ...look, color: e.target.value })} />
                    <InputGroup id="look-color" value={color} onChange={(e) => setLook({ ...look, color: e.target.value })} maxLength={7} />
                </div>
            </FormGroup>
            <FormGroup label={t('look.side')} labelFor="look-position">
                <HTMLSelect id="look-position" value={look.position} onChange={(e) => setLook({ ...look, position: e.currentTarget.value as 'left' | 'right' })}
                    options={[{ value: 'right', label: t('look.right') }, { value: 'left', label: t('look.left') }]} />
            </FormGroup>
            {enabled.length > 1 && (
                <FormGroup label={t('look.textsIn')} labelFor="look-language" helperText={t('look.textsHelp')}>
                    <HTMLSelect id="look-language" value={shown} onChange={(e) => setLang(e.currentTarget.value)}
                        options={enabled.map((l) => ({ value: l, label: l === storeDefault ? t('look.defaultLanguage', { name: languageName(l) }) : languageName(l) }))} />
                </FormGroup>
            )}
            <FormGroup label={t('look.titleLabel')} labelFor="look-title">
                <InputGroup id="look-title" value={own.title ?? ''} placeholder={defaultTitle} maxLength={80} dir={rtl ? 'rtl' : 'auto'} lang={shown}
                    onChange={(e) => setOwn({ title: e.target.value || null })} />
            </FormGroup>
            <FormGroup label={t('look.greetingLabel')} labelFor="look-greeting">
                <TextArea id="look-greeting" value={own.greeting ?? ''} fill rows={2} maxLength={500} placeholder={defaultGreeting} dir={rtl ? 'rtl' : 'auto'} lang={shown}
                    onChange={(e) => setOwn({ greeting: e.target.value || null })} />
            </FormGroup>
            <FormGroup label={t('look.privacyLabel')} labelFor="look-privacy" helperText={t('look.privacyHelp')}>
                <TextArea id="look-privacy" value={own.privacy ?? ''} fill rows={2} maxLength={300} placeholder={defaultPrivacy} dir={rtl ? 'rtl' : 'auto'} lang={shown}
                    onChange={(e) => setOwn({ privacy: e.target.value || null })} data-testid="look-privacy" />
            </FormGroup>
            <FormGroup label={t('look.privacyUrlLabel')} labelFor="look-privacy-url" helperText={t('look.privacyUrlHelp')}>
                <InputGroup id="look-privacy-url" type="url" value={look.privacyUrl ?? ''} placeholder="https://" maxLength={500}
                    onChange={(e) => setLook({ ...look, privacyUrl: e.target.value || null })} data-testid="look-privacy-url" />
            </FormGroup>
            <div className={`lc-look-preview lc-look-${side}`} aria-label={t('look.preview', { name: languageName(shown) })} role="img" lang={shown} dir={rtl ? 'rtl' : 'ltr'}>
                <div className="lc-look-head" data-color={color} ref={(el) => el?.style.setProperty('background', color)}>{own.title || defaultTitle}</div>
                <div className="lc-look-greeting">
                    <span className="lc-look-greeting-text">{own.greeting || defaultGreeting}</span>
                    <small className="lc-look-privacy" data-testid="look-privacy-preview">{own.privacy || defaultPrivacy}{look.privacyUrl ? ` ${defaults?.privacyLink() ?? ''}` : ''}</small>
                </div>
                <div className="lc-look-launcher" ref={(el) => el?.style.setProperty('background', color)}><Icon icon="chat" color="#fff" /></div>
            </div>
            <Button intent={Intent.PRIMARY} text={save.isPending ? t('look.saving') : t('look.save')} disabled={save.isPending || contrast < 4.5}
                onClick={() => save.mutate(look)} />
            {save.isSuccess && <span className="lc-look-saved" role="status"> {t('look.saved')}</span>}
        </Card>
    );
}
