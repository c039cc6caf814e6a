import type { MigrationEntry } from '../../../core/db/migration-source';
import baseline from './20260101000001-auth';
import displayName from './20261202000001-user-display-name';
import userLanguage from './20261204000001-user-language';

/** The auth plugin's migrations, oldest first: a schema change is a new file here and one line in this list. */
export const migrations: MigrationEntry[] = [
    baseline,
    displayName,
    userLanguage
];
