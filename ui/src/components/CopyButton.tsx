import { useEffect, useState } from 'react';
import { useT } from '../i18n';
import { Button } from '@blueprintjs/core';

/** Copies text with the Clipboard API, falling back to a hidden textarea (older browsers, non-secure pages). */
export async function copyText(text: string): Promise<boolean> {
    try {
        await navigator.clipboard.writeText(text);
        return true;
    }
    catch {
        const area = document.createElement('textarea');
        area.value = text;
        area.setAttribute('readonly', '');
        area.style.position = 'fixed';
        area.style.opacity = '0';
        document.body.appendChild(area);
        area.select();
        const ok = document.execCommand('copy');
        document.body.removeChild(area);
        return ok;
    }
}

/** A Copy button that says 'Copied!' for 2 s (or 'Copy failed'). */
export function CopyButton({ text, label, small = false, ariaLabel }: { text: string; label?: string; small?: boolean; ariaLabel?: string }) {
    const t = useT();
    const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
    useEffect(() => {
        if (state === 'idle') {
            return undefined;
        }
        const timer = setTimeout(() => setState('idle'), 2000);
        return () => clearTimeout(timer);
    }, [state]);
    return (
        <Button small={small} aria-label={ariaLabel} icon={state === 'copied' ? 'tick' : 'duplicate'} intent={state === 'copied' ? 'success' : state === 'failed' ? 'danger' : 'none'}
            text={state === 'copied' ? t('common.copied') : state === 'failed' ? t('common.copyFailed') : label ?? t('common.copy')}
            onClick={async () => setState((await copyText(text)) ? 'copied' : 'failed')} />
    );
}
