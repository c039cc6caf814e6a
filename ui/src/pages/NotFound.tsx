import { Link } from 'react-router-dom';
import { EmptyState } from '../components/a11y';
import { useT } from '../i18n';

/** Anything that is not a route of SPEC §2. */
export default function NotFound() {
    const t = useT();
    return (
        <main className="lc-center">
            <EmptyState icon="search" title={t('notFound.title')} level={1}
                description={t('notFound.text')}
                action={<Link to="/" className="bp5-button bp5-intent-primary">{t('notFound.home')}</Link>} />
        </main>
    );
}
