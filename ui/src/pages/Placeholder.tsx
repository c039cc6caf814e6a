import { NonIdealState } from '@blueprintjs/core';
import { Link } from 'react-router-dom';

/** A guarded screen that a later issue fills. */
export default function Placeholder({ title }: { title: string }) {
    return (
        <div className="lc-page">
            <NonIdealState icon="build" title={title} description="This screen is coming soon."
                action={<Link to="/admin-dashboard" className="bp5-button">Back to the dashboard</Link>} />
        </div>
    );
}
