import { H1, NonIdealState } from '@blueprintjs/core';
import { Link } from 'react-router-dom';

/** A guarded screen that a later issue fills. */
export default function Placeholder({ title }: { title: string }) {
    return (
        <div className="lc-page">
            <H1 className="lc-h1">{title}</H1>
            <NonIdealState icon="build" title="Coming soon" description="This screen is coming soon."
                action={<Link to="/admin-dashboard" className="bp5-button">Back to the dashboard</Link>} />
        </div>
    );
}
