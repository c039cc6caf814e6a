import { ReactNode, useId } from 'react';
import { Button, Dialog, Icon, NonIdealState } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';

/**
 * Building blocks for an accessible outline (issue 15, WCAG 2.2 AA): Blueprint draws every dialog title as an
 * h6 and every NonIdealState title as an h4 whatever the page around them; these take the heading level the
 * page's outline needs and keep Blueprint's look.
 */

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

/** A heading of level `level` that looks like Blueprint's H`look` (class lc-as-hN). */
export function Heading({ level, look, className, id, children }: { level: HeadingLevel; look?: HeadingLevel; className?: string; id?: string; children: ReactNode }) {
    const Tag = `h${level}` as 'h1';
    return <Tag id={id} className={['bp5-heading', `lc-as-h${look ?? level}`, className].filter(Boolean).join(' ')}>{children}</Tag>;
}

/** A Blueprint Dialog whose title is an h2 (the dialog is the top of its own outline), labelled by it. */
export function AppDialog({ title, isOpen, onClose, className, children }: {
    title: string; isOpen: boolean; onClose: () => void; className?: string; children: ReactNode;
}) {
    const id = useId();
    return (
        <Dialog isOpen={isOpen} onClose={onClose} className={className} aria-labelledby={id}>
            <div className="bp5-dialog-header">
                <Heading level={2} look={6} id={id}>{title}</Heading>
                <Button aria-label="Close" className="bp5-dialog-close-button" minimal icon="small-cross" onClick={onClose} />
            </div>
            {children}
        </Dialog>
    );
}

/** NonIdealState with its title at the given heading level (an h1 when it is the whole page). */
export function EmptyState({ icon, title, level, description, action }: {
    icon: IconName; title: string; level: HeadingLevel; description?: ReactNode; action?: JSX.Element;
}) {
    return (
        <NonIdealState icon={<Icon icon={icon} size={48} />} action={action}
            description={<div><Heading level={level} look={4} className="lc-empty-title">{title}</Heading>{description && <div>{description}</div>}</div>} />
    );
}
