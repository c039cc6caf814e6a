import type { MigrationEntry } from '../../../core/db/migration-source';
import baseline from './20260101000002-loyalty';
import providerSettings from './20261126000000-loyalty-provider-settings';
import phonesOnly from './20261201010001-loyalty-phones-only';

/** The loyalty plugin's migrations, oldest first: a schema change is a new file here and one line in this list. */
export const migrations: MigrationEntry[] = [
    baseline,
    providerSettings,
    phonesOnly
];
