import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Callout, Card, Elevation, FormGroup, HTMLSelect, Icon, InputGroup, Intent, TextArea } from '@blueprintjs/core';
import type { BotInstance, BotLook } from '../../../../core/types/api';
import { apiRequest, ApiError } from '../../api/client';
import { Heading } from '../../components/a11y';
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
 * greeting, with a live preview of the launcher and the panel head as customers will see them.
 */
export function WidgetLookCard() {
    const client = useQueryClient();
    const bots = useQuery({ queryKey: ['widget', 'bots'], queryFn: () => apiRequest<BotInstance[]>('/api/widget/bots') });
    const bot = bots.data?.find((b) => b.isActive) ?? bots.data?.[0];
    const [look, setLook] = useState<BotLook>({ color: null, position: 'right', title: null, greeting: null });
    useEffect(() => {
        if (bot) {
            setLook(bot.look);
        }
    }, [bot]);
    const save = useMutation({
        mutationFn: (next: BotLook) => apiRequest<BotInstance>(`/api/widget/bots/${bot!.id}/look`, { method: 'PUT', body: next }),
        onSuccess: () => client.invalidateQueries({ queryKey: ['widget', 'bots'] })
    });
    if (!bot) {
        return null;
    }
    const color = look.color ?? DEFAULT_COLOR;
    const contrast = whiteContrast(color);
    const storeTitle = `${bot.organizationName ?? 'Store'} Support`;
    const error = save.error instanceof ApiError ? save.error.serverMessage : save.error ? String(save.error) : null;
    return (
        <Card elevation={Elevation.ONE} className="lc-look-card">
            <Heading level={2} look={5}><Icon icon="style" /> Widget look</Heading>
            {error && <Callout intent={Intent.DANGER} className="lc-mb">{error}</Callout>}
            <FormGroup label="Colour" labelFor="look-color" helperText={`White text contrast ${contrast.toFixed(1)}:1${contrast < 4.5 ? ' (needs 4.5:1)' : ''}`}
                intent={contrast < 4.5 ? Intent.DANGER : Intent.NONE}>
                <div className="lc-look-color">
                    <input id="look-color-picker" type="color" value={color} aria-label="Pick a colour" onChange={(e) => setLook({ ...look, color: e.target.value })} />
                    <InputGroup id="look-color" value={color} onChange={(e) => setLook({ ...look, color: e.target.value })} maxLength={7} />
                </div>
            </FormGroup>
            <FormGroup label="Side of the page" labelFor="look-position">
                <HTMLSelect id="look-position" value={look.position} onChange={(e) => setLook({ ...look, position: e.currentTarget.value as 'left' | 'right' })}
                    options={[{ value: 'right', label: 'Right' }, { value: 'left', label: 'Left' }]} />
            </FormGroup>
            <FormGroup label="Title" labelFor="look-title">
                <InputGroup id="look-title" value={look.title ?? ''} placeholder={storeTitle} maxLength={80} onChange={(e) => setLook({ ...look, title: e.target.value || null })} />
            </FormGroup>
            <FormGroup label="Greeting" labelFor="look-greeting">
                <TextArea id="look-greeting" value={look.greeting ?? ''} fill rows={2} maxLength={500} placeholder="Hi! Welcome to … support. How can I help you today?"
                    onChange={(e) => setLook({ ...look, greeting: e.target.value || null })} />
            </FormGroup>
            <div className={`lc-look-preview lc-look-${look.position}`} aria-label="Preview" role="img">
                <div className="lc-look-head" data-color={color} ref={(el) => el?.style.setProperty('background', color)}>{look.title || storeTitle}</div>
                <div className="lc-look-greeting">{look.greeting || `Hi! Welcome to ${bot.organizationName ?? 'our'} support. How can I help you today?`}</div>
                <div className="lc-look-launcher" ref={(el) => el?.style.setProperty('background', color)}><Icon icon="chat" color="#fff" /></div>
            </div>
            <Button intent={Intent.PRIMARY} text={save.isPending ? 'Saving...' : 'Save look'} disabled={save.isPending || contrast < 4.5}
                onClick={() => save.mutate(look)} />
            {save.isSuccess && <span className="lc-look-saved" role="status"> Saved</span>}
        </Card>
    );
}
