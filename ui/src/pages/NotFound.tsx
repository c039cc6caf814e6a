import { NonIdealState } from '@blueprintjs/core';
import { Link } from 'react-router-dom';

/** Anything that is not a route of SPEC §2. */
export default function NotFound() {
    return (
        <div className="lc-center">
            <NonIdealState icon="search" title="404 Page Not Found"
                description="The page you are looking for does not exist or has moved."
                action={<Link to="/" className="bp5-button bp5-intent-primary">Go to the home page</Link>} />
        </div>
    );
}
