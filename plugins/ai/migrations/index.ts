import type { MigrationEntry } from '../../../core/db/migration-source';
import baseline from './20260101000006-ai';
import phonesOnly from './20261201010003-ai-phones-only';
import triage from './20261202000000-ai-triage';
import answeredFrom from './20261203000000-ai-answered-from';
import knowledgeLang from './20261206000001-ai-knowledge-lang';
import textMeanings from './20261210000000-ai-text-meanings';
import askedBefore from './20261210000001-ai-asked-before';
import phrasings from './20261210000002-ai-knowledge-phrasings';

/** The ai plugin's migrations, oldest first: a schema change is a new file here and one line in this list. */
export const migrations: MigrationEntry[] = [
    baseline,
    phonesOnly,
    triage,
    answeredFrom,
    knowledgeLang,
    textMeanings,
    askedBefore,
    phrasings
];
