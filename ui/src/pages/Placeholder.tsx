import { Link } from 'react-router-dom';
import { EmptyState } from '../components/a11y';

/** A guarded screen that a later issue fills. */
export default function Placeholder({ title }: { title: string }) {
    return (
        <main className="lc-page">
            <EmptyState icon="build" title={title} level={1} description="This screen is coming soon."
                action={<Link to="/admin-dashboard" className="bp5-button">Back to the dashboard</Link>} />
        </main>
    );
}
