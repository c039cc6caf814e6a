import type { MouseEvent } from 'react';
import { Button, ButtonProps, Spinner } from '@blueprintjs/core';

/**
 * A button that shows a spinner while its request runs and keeps the keyboard focus. Blueprint's `loading`
 * disables the button, and a disabled button drops the focus to the page: Esc then no longer reaches the
 * dialog or drawer around it, and a keyboard user starts over from the top. This one ignores clicks while busy
 * (`aria-disabled`) instead.
 */
export function BusyButton({ busy, onClick, icon, ...props }: Omit<ButtonProps, 'loading'> & { busy: boolean }) {
    return (
        <Button {...props} icon={busy ? <Spinner size={16} /> : icon} aria-disabled={busy || undefined} aria-busy={busy || undefined}
            onClick={(e: MouseEvent<HTMLElement>) => {
                if (!busy) {
                    onClick?.(e);
                }
            }} />
    );
}
