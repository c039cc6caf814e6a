import type { MigrationEntry } from '../../../core/db/migration-source';
import auditLog from './20261203000000-audit-log';
import retentionSettings from './20261203000001-retention-settings';

/** The privacy plugin's migrations, oldest first. */
export const migrations: MigrationEntry[] = [auditLog, retentionSettings];
