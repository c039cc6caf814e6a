import { Link } from 'react-router-dom';
import { EmptyState } from '../components/a11y';

/** Anything that is not a route of SPEC §2. */
export default function NotFound() {
    return (
        <main className="lc-center">
            <EmptyState icon="search" title="404 Page Not Found" level={1}
                description="The page you are looking for does not exist or has moved."
                action={<Link to="/" className="bp5-button bp5-intent-primary">Go to the home page</Link>} />
        </main>
    );
}
