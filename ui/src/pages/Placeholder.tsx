import { H1 } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import { EmptyState } from '../components/a11y';
import { AdminTextKey, useT } from '../i18n';

/** A guarded screen that a later issue fills. */
export default function Placeholder({ title }: { title: AdminTextKey }) {
    const t = useT();
    return (
        <div className="lc-page">
            <H1 className="lc-h1">{t(title)}</H1>
            <EmptyState icon="build" title={t('placeholder.soon')} level={2} description={t('placeholder.text')}
                action={<Link to="/admin-dashboard" className="bp5-button">{t('placeholder.back')}</Link>} />
        </div>
    );
}
