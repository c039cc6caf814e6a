import { NonIdealState, AnchorButton } from '@blueprintjs/core';

export default function NotFound() {
    return (
        <div className="lc-center">
            <NonIdealState icon="search" title="404 Page Not Found" description="The page you are looking for does not exist."
                action={<AnchorButton href="/" text="Go to the home page" />} />
        </div>
    );
}
