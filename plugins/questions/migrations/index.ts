import type { MigrationEntry } from '../../../core/db/migration-source';
import baseline from './20260101000005-questions';
import questionKind from './20261126050000-question-kind';
import questionLang from './20261204000002-question-lang';

/** The questions plugin's migrations, oldest first: a schema change is a new file here and one line in this list. */
export const migrations: MigrationEntry[] = [
    baseline,
    questionKind,
    questionLang
];
