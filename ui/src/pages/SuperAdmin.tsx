import Placeholder from './Placeholder';

/** Stub: filled by its issue. */
export default function SuperAdmin() {
    return <Placeholder title="SuperAdmin" />;
}
