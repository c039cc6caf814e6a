import type { MigrationEntry } from '../../../core/db/migration-source';
import baseline from './20260101000000-tenants';
import organizationTimeZone from './20261123100000-organization-time-zone';
import botLook from './20261126060000-bot-look';
import organizationCountry from './20261201000000-organization-country';
import lookTexts from './20261204000000-look-texts';
import lookPrivacy from './20261205000000-look-privacy';

/** The tenants plugin's migrations, oldest first: a schema change is a new file here and one line in this list. */
export const migrations: MigrationEntry[] = [
    baseline,
    organizationTimeZone,
    botLook,
    organizationCountry,
    lookTexts,
    lookPrivacy
];
