import { H1 } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import { EmptyState } from '../components/a11y';

/** A guarded screen that a later issue fills. */
export default function Placeholder({ title }: { title: string }) {
    return (
        <div className="lc-page">
            <H1 className="lc-h1">{title}</H1>
            <EmptyState icon="build" title="Coming soon" level={2} description="This screen is coming soon."
                action={<Link to="/admin-dashboard" className="bp5-button">Back to the dashboard</Link>} />
        </div>
    );
}
