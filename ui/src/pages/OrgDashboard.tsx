import Placeholder from './Placeholder';

/** Stub: filled by its issue. */
export default function OrgDashboard() {
    return <Placeholder title="OrgDashboard" />;
}
