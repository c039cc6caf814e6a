import Placeholder from './Placeholder';

/** Stub: filled by its issue. */
export default function AdminChat() {
    return <Placeholder title="AdminChat" />;
}
