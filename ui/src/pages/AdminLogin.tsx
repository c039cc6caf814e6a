import Placeholder from './Placeholder';

/** Stub: filled by its issue. */
export default function AdminLogin() {
    return <Placeholder title="AdminLogin" />;
}
