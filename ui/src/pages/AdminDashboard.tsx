import Placeholder from './Placeholder';

/** Stub: filled by its issue. */
export default function AdminDashboard() {
    return <Placeholder title="AdminDashboard" />;
}
