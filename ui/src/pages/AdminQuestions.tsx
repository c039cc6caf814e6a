import Placeholder from './Placeholder';

/** Stub: filled by its issue. */
export default function AdminQuestions() {
    return <Placeholder title="AdminQuestions" />;
}
