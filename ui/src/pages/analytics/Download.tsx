import { useState } from 'react';
import { downloadCsv, type DateFilter } from '../../api/analytics';
import { BusyButton } from '../../components/BusyButton';
import { useT } from '../../i18n';

/**
 * "Download CSV" of one table, with the page's date filter. The button speaks the agent's language; the file does not:
 * its header row is stable English column names (`phoneNumber`, `startedAt (America/New_York)`), machine-readable for
 * spreadsheets and scripts whatever language the agent who downloaded it reads (plugins/analytics/routes/export.ts).
 */
export function Download({ table, filter, defaultDays }: { table: string; filter: DateFilter; defaultDays?: number }) {
    const t = useT();
    const [busy, setBusy] = useState(false);
    const [error, setError] = useState<string | null>(null);
    return (
        <span className="lc-a-download">
            <BusyButton icon="download" small text={t('an.downloadCsv')} busy={busy} data-testid={`download-${table}`}
                onClick={async () => {
                    setBusy(true);
                    setError(null);
                    try {
                        await downloadCsv(table, filter, defaultDays);
                    }
                    catch (err) {
                        setError((err as Error).message);
                    }
                    finally {
                        setBusy(false);
                    }
                }} />
            {error && <span role="alert" className="lc-text-danger">{error}</span>}
        </span>
    );
}
