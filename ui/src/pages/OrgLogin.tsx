import Placeholder from './Placeholder';

/** Stub: filled by its issue. */
export default function OrgLogin() {
    return <Placeholder title="OrgLogin" />;
}
