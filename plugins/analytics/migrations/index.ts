import type { MigrationEntry } from '../../../core/db/migration-source';
import baseline from './20260101000003-analytics';
import rollups from './20261126000000-analytics-rollups';
import phonesOnly from './20261201010000-analytics-phones-only';
import sendsByPhone from './20261207010000-analytics-sends-by-phone';

/** The analytics plugin's migrations, oldest first: a schema change is a new file here and one line in this list. */
export const migrations: MigrationEntry[] = [
    baseline,
    rollups,
    phonesOnly,
    sendsByPhone
];
