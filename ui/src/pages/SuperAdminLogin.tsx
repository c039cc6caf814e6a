import Placeholder from './Placeholder';

/** Stub: filled by its issue. */
export default function SuperAdminLogin() {
    return <Placeholder title="SuperAdminLogin" />;
}
