import { useState } from 'react';
import { downloadCsv, type DateFilter } from '../../api/analytics';
import { BusyButton } from '../../components/BusyButton';

/** "Download CSV" of one table, with the page's date filter. */
export function Download({ table, filter, defaultDays }: { table: string; filter: DateFilter; defaultDays?: number }) {
    const [busy, setBusy] = useState(false);
    const [error, setError] = useState<string | null>(null);
    return (
        <span className="lc-a-download">
            <BusyButton icon="download" small text="Download CSV" busy={busy} data-testid={`download-${table}`}
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
