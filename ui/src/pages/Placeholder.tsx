import { NonIdealState } from '@blueprintjs/core';

/** A guarded screen that a later issue fills. */
export default function Placeholder({ title }: { title: string }) {
    return (
        <div className="lc-page">
            <NonIdealState icon="build" title={title} description="This screen is coming soon." />
        </div>
    );
}
