import * as Crypto from 'crypto';
import Boom from '@hapi/boom';
import Joi from 'joi';
import type { Logger } from 'pino';
import type { Db } from '../../../core/db';
import { iso } from '../../../core/db/model';
import type { Services } from '../../../core/types';
import type {
    AiChatAnswer, AiChatRecord, AiSuggestion, AiSessionsSummary, AiSourceUsage, AiStatus, AiTestAnswer, AiTurn, KnowledgeEntry
} from '../../../core/types/api';
import { AiAgentSettingsModel, AiChatHistoryModel, AiFunctionCallModel, KnowledgeEntryModel } from '../models';
import type { AgentReply, AiProvider } from '../providers/types';
import { ABSTAIN_TEXT, ABSTAIN_TEXT_NO_AGENTS, phonesIn } from '../providers/builtin';
import { ABSTAIN_BELOW, AnswerSource, KnowledgeIndex, meaningTextOf, RetrievalResult, WEAK_TERMS } from './retrieval';
import type { KnowledgeMatch, KnowledgeRetrieval } from '../../../core/types/knowledge';
import { ImportError, MAX_CONTENT, MAX_TITLE, parseKnowledge } from './knowledge-import';
import { LiveSupport, ToolBox } from './tools';
import type { AiBudget } from './budget';
import { AI_BUDGET_CODE, AI_BUDGET_TEXT } from './budget';
import { intentOf } from './intents';
import { retrieveInContext } from './follow-up';
import type { Meanings } from './meanings';
import { StoredMeanings } from './stored-meanings';
import { aiText } from '../texts';
import { matchLanguage, SHIPPED_LANGUAGES } from '../../../core/shared/languages';
import { detectLanguage, RETRIEVAL_LANGUAGES, RetrievalLanguage } from './language';
import { coded, CustomerError } from '../../../core/http/errors';
import { feedbackTriage, initialTriage, resolveSilent, triageColumns } from './triage';
import type { AiBulkResolveAnswer } from '../../../core/types/api';

/** What the AI agent answers that a customer may read (issue 27): the widget renders `error.<code>` in their language. */
export const AI_ERRORS = {
    tooFast: { code: 'ai.too_fast', message: 'You are asking too fast. Please wait a minute.' },
    turnedOff: { code: 'ai.turned_off', message: 'The AI agent is turned off for this store' },
    /** Not an error status: a 200 answer with this code and text (the store's AI budget is spent; issue 25). */
    budgetReached: { code: AI_BUDGET_CODE, message: AI_BUDGET_TEXT },
    /** Not errors either: the built-in agent did not know, and offers a person or the leave-a-message form (issue 30). */
    offerPerson: { code: 'ai.offer_person', message: ABSTAIN_TEXT },
    offerMessage: { code: 'ai.offer_message', message: ABSTAIN_TEXT_NO_AGENTS }
} satisfies Record<string, CustomerError>;

export interface KnowledgeInput {
    title: string;
    content: string;
    /** The language it is written in (issue 27); null or absent: the store's default language. */
    lang?: string | null;
    /** Other ways customers ask for it (issue 30). */
    phrasings?: string[];
    isActive?: boolean;
}

/** At most this many phrasings per entry, each one line of at most MAX_TITLE characters. */
export const MAX_PHRASINGS = 30;

export const knowledgeFields = {
    title: Joi.string().trim().min(1).max(MAX_TITLE),
    content: Joi.string().trim().min(1).max(MAX_CONTENT),
    lang: Joi.string().valid(...SHIPPED_LANGUAGES).allow(null)
        .messages({ 'any.only': `"lang" must be one of ${SHIPPED_LANGUAGES.join(', ')}, or null for the store's default language` }),
    isActive: Joi.boolean(),
    phrasings: Joi.array().items(Joi.string().trim().min(1).max(MAX_TITLE).pattern(/^[^\r\n]*$/)
        .custom((value: string, helpers) => (personalIn(value) ? helpers.error('any.invalid') : value))
        .messages({
            'string.pattern.base': '"phrasings" must be one line each',
            'any.invalid': '"phrasings" must not hold an email address or a phone number: the agent reads them for every customer'
        })).max(MAX_PHRASINGS)
};

/** Whether a text holds an email address or a phone number (a customer's question made a phrasing must not). */
export function personalIn(text: string): boolean {
    return /[^@\s]+@[^@\s]+\.[^@\s]+/.test(text) || phonesIn(text).length > 0;
}

export const knowledgeCreateSchema = Joi.object<KnowledgeInput>({
    title: knowledgeFields.title.required(),
    content: knowledgeFields.content.required(),
    lang: knowledgeFields.lang.default(null),
    phrasings: knowledgeFields.phrasings.default([]),
    isActive: knowledgeFields.isActive.default(true)
});

export const knowledgeUpdateSchema = Joi.object<Partial<KnowledgeInput>>({
    title: knowledgeFields.title,
    content: knowledgeFields.content,
    lang: knowledgeFields.lang,
    phrasings: knowledgeFields.phrasings,
    isActive: knowledgeFields.isActive
}).min(1);

/** Where a customer's question came from (the widget's key and session). */
export interface ChatContext {
    organizationId: number;
    botInstanceId: number | null;
    sessionId: string;
    domain: string | null;
    /** The phone the customer's token proves (core/auth/customer-token.ts), or null: tier-2 tools read only this. */
    verifiedPhone: string | null;
    /** The customer's language as the widget chose it (issue 27, a BCP 47 tag), or null: the store's default. */
    lang?: string | null;
}

/** A session counts as active while it asked something within this window. */
export const ACTIVE_SESSION_MS = 30 * 60_000;
/** The window of the answer and resolution rates. */
export const RATES_WINDOW_MS = 30 * 24 * 3600_000;

/** The stored phrasings (one per line) as a list. */
function phrasingsOf(stored: string | null | undefined): string[] {
    return (stored ?? '').split('\n').filter((p) => p.trim() !== '');
}

/** Phrasings to store: one per line, each once (case aside); null for none. */
function storedPhrasings(phrasings: readonly string[]): string | null {
    const seen = new Set<string>();
    const kept = phrasings.map((p) => p.trim()).filter((p) => p && !seen.has(p.toLowerCase()) && seen.add(p.toLowerCase()));
    return kept.length ? kept.join('\n') : null;
}

function toEntry(row: KnowledgeEntryModel): KnowledgeEntry {
    return {
        id: row.id, title: row.title, content: row.content, lang: row.lang ?? null, phrasings: phrasingsOf(row.phrasings), isActive: row.isActive,
        createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt)
    };
}

function toRecord(row: AiChatHistoryModel): AiChatRecord {
    return {
        id: row.id, userQuestion: row.userQuestion, aiResponse: row.aiResponse, sessionId: row.sessionId, phoneNumber: row.phoneNumber,
        domain: row.domain, createdAt: iso(row.createdAt), isResolved: row.isResolved, fallbackAction: row.fallbackAction,
        triage: row.triage, triageReason: row.triageReason,
        answeredFrom: row.sourceKind && row.sourceId !== null ? { kind: row.sourceKind, id: row.sourceId, title: row.sourceTitle ?? '' } : null
    };
}

/**
 * What the built-in agent answers from: the store's active knowledge entries, its active questions (but those the
 * widget's own flows and the agent's tools answer: "check my points", "live support") and the store's information.
 */
export function answerSources(knowledge: ReadonlyArray<Pick<KnowledgeEntry, 'id' | 'title' | 'content'> & { lang?: string | null; phrasings?: readonly string[] }>,
    questions: ReadonlyArray<{ id: number; question: string; answer: string; lang?: string | null }>,
    store: { storeName: string; domain: string | null; lang?: string | null }): AnswerSource[] {
    return [
        ...knowledge.map((k) => ({
            key: `knowledge:${k.id}`, kind: 'knowledge' as const, id: k.id, title: k.title, text: withPhrasings(k.content, k.phrasings), answer: k.content, language: retrievalLanguage(k.lang)
        })),
        // (a points-check or live-support question may have no answer at all: nothing to answer from)
        ...questions.filter((q) => !intentOf(q.question) && q.answer.trim() !== '')
            .map((q) => ({ key: `question:${q.id}`, kind: 'question' as const, id: q.id, title: q.question, text: q.answer, answer: q.answer, language: retrievalLanguage(q.lang) })),
        {
            key: 'store', kind: 'store', id: 0, title: `About ${store.storeName}`,
            text: `${store.storeName} store name website site ${store.domain ?? ''}`,
            answer: store.domain
                ? aiText(store.lang, 'storeAboutDomain', { store: store.storeName, domain: store.domain })
                : aiText(store.lang, 'storeAbout', { store: store.storeName })
        }
    ];
}

/**
 * An entry's searched text: its content, then each phrasing as a sentence of its own (ended by "?" when it has no end
 * mark), so that a customer's question close to one of them is close to a sentence of the entry.
 */
function withPhrasings(content: string, phrasings: readonly string[] | undefined): string {
    return phrasings?.length ? [content, ...phrasings.map((p) => (/[.!?¿¡]$/.test(p) ? p : `${p}?`))].join(' ') : content;
}

/** The stemming language of a shipped language's tag ('pt-BR' → pt), or undefined (none given: detected from the text). */
export function retrievalLanguage(tag: string | null | undefined): RetrievalLanguage | undefined {
    const primary = (tag ?? '').split('-')[0].toLowerCase() as RetrievalLanguage;
    return RETRIEVAL_LANGUAGES.includes(primary) ? primary : undefined;
}

/** The shipped language a question is written in, as far as its words show (null: they do not). */
function questionLanguage(question: string): string | null {
    const detected = detectLanguage(question);
    return detected ? matchLanguage(detected, SHIPPED_LANGUAGES) : null;
}

/**
 * The answer sources grouped by the language they are written in (issue 27): an entry or question without one is in
 * the store's default language; each group has the store's information, introduced in its language.
 */
export function sourcesByLanguage(knowledge: ReadonlyArray<Pick<KnowledgeEntry, 'id' | 'title' | 'content' | 'lang'> & { phrasings?: readonly string[] }>,
    questions: ReadonlyArray<{ id: number; question: string; answer: string; lang?: string | null }>,
    store: { storeName: string; domain: string | null; defaultLang: string }): Map<string, AnswerSource[]> {
    const langs = new Set<string>([store.defaultLang, ...knowledge.map((k) => k.lang ?? store.defaultLang), ...questions.map((q) => q.lang ?? store.defaultLang)]);
    const groups = new Map<string, AnswerSource[]>();
    for (const lang of langs) {
        groups.set(lang, answerSources(
            knowledge.filter((k) => (k.lang ?? store.defaultLang) === lang), questions.filter((q) => (q.lang ?? store.defaultLang) === lang),
            { storeName: store.storeName, domain: store.domain, lang }
        ));
    }
    return groups;
}

/** The best source for a text and whether the agent would answer from it (DESIGN §10: the message decision reads this). */
export function knowledgeMatch(index: KnowledgeIndex, text: string): KnowledgeMatch {
    const top = index.query(text, 1).hits[0];
    if (!top) {
        return { kind: 'store', id: 0, title: '', confidence: 0, confident: false };
    }
    return {
        kind: top.source.kind, id: top.source.id, title: top.source.title, confidence: Math.round(top.confidence * 1000) / 1000,
        // Knowledge beats the widget's keywords only on a word of the question itself, not on a word of close meaning alone.
        confident: top.confidence >= ABSTAIN_BELOW && top.lexical.some((term) => !WEAK_TERMS.has(term))
    };
}

function percent(part: number, whole: number): number {
    return whole ? Math.round(part / whole * 1000) / 10 : 0;
}

function startOfUtcDay(t = Date.now()): number {
    const d = new Date(t);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}

/** A store's indexes: over every source (staff's test, the widget's message decision) and per language (customers). */
export interface StoreIndexes {
    index: KnowledgeIndex;
    /** Per shipped language tag: the sources written in it (an entry without a language in the store's default). */
    byLang: Map<string, KnowledgeIndex>;
    defaultLang: string;
}

interface CachedIndex extends StoreIndexes {
    fingerprint: string;
    /** Settles once the sources' meanings are encoded (true) or could not be (false). */
    ready: Promise<boolean>;
    /** Until when questions wait for `ready` (the index's build + AI_MEANINGS_WAIT_MS): one wait per change of the sources, not one per call. */
    waitUntil: number;
}

export interface AiServiceDeps {
    db: Db;
    log: Logger;
    provider: AiProvider;
    /** The services of the plugins ai declares as dependencies (tenants, questions, loyalty), read when used. */
    services: () => Services;
    /** Each store's ceiling on customers' questions (none: no ceiling). */
    budget?: AiBudget;
    /** AI_RESOLVED_AFTER_MINUTES: an answer whose session asked nothing more this long is resolved (default 10). */
    resolvedAfterMs?: number;
    /** Whole-sentence meanings (meanings.ts; AI_MEANINGS); none: the agent reads words alone. */
    meanings?: Meanings | null;
    /**
     * AI_MEANINGS_WAIT_MS: how long after its store's sources changed questions wait for them to be encoded (a store of
     * 1,000 entries takes about a minute once); past it a question is read by its words, and the encoding goes on.
     */
    meaningsWaitMs?: number;
}

/**
 * Suggested when the agent did not know: the closest sources whose confidence reaches SUGGEST_FLOOR and is within
 * SUGGEST_WITHIN of the best one's, at most MAX_SUGGESTIONS. Chosen on the three tuning sets (bench:ai): with the floor
 * below for other languages, 30 of the 37 answerable questions abstained on there get the right entry among them, 45 of
 * the 71 unanswerable ones get some (held-out: 32 of 42, and 25 of 38).
 */
export const SUGGEST_FLOOR = 0.35;
/**
 * The floor for a question in a language other than English: read by its words alone (no word vectors, synonyms or
 * sentence meanings), a source matches it only through a word they share, and its confidence stays low when the
 * customer says the rest differently ("¿qué talla debo elegir?" and the entry "Guía de tallas": 0.30). Chosen on the
 * Spanish store of the third tuning set: 6 of its 8 answerable questions abstained on get the right entry, 5 of its
 * 10 unanswerable ones get some (with SUGGEST_FLOOR: none of either).
 */
export const SUGGEST_FLOOR_WORDS_ONLY = 0.1;
export const SUGGEST_WITHIN = 0.15;
export const MAX_SUGGESTIONS = 3;

/** The sources to suggest after an abstention, best first: knowledge entries, questions and the store's information. */
export function suggestionsOf(retrieval: RetrievalResult): AiSuggestion[] {
    const best = retrieval.hits[0]?.confidence ?? 0;
    const floor = retrieval.language === 'en' ? SUGGEST_FLOOR : SUGGEST_FLOOR_WORDS_ONLY;
    return retrieval.hits.filter((h) => h.confidence >= floor && h.confidence >= best - SUGGEST_WITHIN).slice(0, MAX_SUGGESTIONS)
        .map((h) => ({ key: h.source.key, title: h.source.title }));
}

/**
 * Whether `ready` settles true by the time `waitUntil` (ms since the epoch): false once that time has passed. A settled
 * `ready` is read even when the time has passed already (its callback runs before the timer's).
 */
export async function readyBy(ready: Promise<boolean>, waitUntil: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
        return await Promise.race([ready, new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(false), Math.max(0, waitUntil - Date.now()));
        })]);
    }
    finally {
        clearTimeout(timer);
    }
}

/** What staff may answer about the AI history (issue 23). */
export const AI_HISTORY_ERRORS = {
    notFound: { code: 'ai.history_not_found', message: 'Chat history record not found' },
    someNotFound: { code: 'ai.history_not_found', message: 'Some of these conversations do not exist; nothing was changed' }
} satisfies Record<string, CustomerError>;

/**
 * The AI agent (issue 13, SPEC §2 'AI question management', DESIGN §7): the knowledge base, the per-store
 * index over active knowledge entries, active questions and the store's information (rebuilt on any node
 * when their fingerprint in the database changes), the conversation with customers and its history, the
 * enabled switch and the figures of the configuration panel.
 */
export class AiService implements KnowledgeRetrieval {
    private readonly db: Db;
    private readonly indexes = new Map<number, CachedIndex>();
    /** Aborted when the server stops: the stores' sources not encoded yet are left (the encoder's thread is the process's). */
    private readonly stopping = new AbortController();

    /** Live support, when a plugin plugged it in (the livechat plugin, which depends on ai): hand-offs and whether agents are there. */
    private support: LiveSupport | null = null;

    constructor(private readonly deps: AiServiceDeps) {
        this.db = deps.db;
    }

    /** The server stops: no more encoding for its stores. */
    stop(): void {
        this.stopping.abort();
    }

    /** The livechat plugin plugs live support in while it registers (ai cannot depend on it: it depends on ai). */
    useLiveSupport(support: LiveSupport): void {
        this.support = support;
    }

    get providerName(): 'builtin' | 'openai' {
        return this.deps.provider.name;
    }

    // ---- knowledge ---------------------------------------------------------------------------------

    private knowledge(organizationId: number, db: Db = this.db) {
        return KnowledgeEntryModel.query(db).where('organization_id', organizationId);
    }

    async listKnowledge(organizationId: number, options: { activeOnly?: boolean } = {}): Promise<KnowledgeEntry[]> {
        const query = this.knowledge(organizationId).orderBy('updated_at', 'desc').orderBy('id', 'desc');
        if (options.activeOnly) {
            query.where('is_active', true);
        }
        return (await query).map(toEntry);
    }

    async createKnowledge(organizationId: number, input: KnowledgeInput): Promise<KnowledgeEntry> {
        const row = await KnowledgeEntryModel.query(this.db).insertAndFetch({
            organizationId, title: input.title, content: input.content, lang: input.lang ?? null, phrasings: storedPhrasings(input.phrasings ?? []),
            isActive: input.isActive ?? true
        });
        return toEntry(row);
    }

    async updateKnowledge(organizationId: number, id: number, input: Partial<KnowledgeInput>): Promise<KnowledgeEntry> {
        const row = await this.knowledge(organizationId).findById(id).throwIfNotFound({ message: 'Knowledge entry not found' });
        const { phrasings, ...rest } = input;
        return toEntry(await row.$query(this.db).patchAndFetch({ ...rest, ...(phrasings ? { phrasings: storedPhrasings(phrasings) } : {}) }));
    }

    async removeKnowledge(organizationId: number, id: number): Promise<void> {
        await this.knowledge(organizationId).deleteById(id).throwIfNotFound({ message: 'Knowledge entry not found' });
    }

    /**
     * Markdown or CSV (knowledge-import.ts): all entries stored, or on any problem none (a 400 naming the line). A CSV
     * row's own `language` wins; a row without one takes `lang` (the import's), and null is the store's default.
     */
    async importKnowledge(organizationId: number, format: 'markdown' | 'csv', text: string, lang: string | null = null): Promise<{ created: number; entries: KnowledgeEntry[] }> {
        let parsed;
        try {
            parsed = parseKnowledge(format, text);
        }
        catch (err) {
            if (err instanceof ImportError) {
                throw Boom.badRequest(err.message);
            }
            throw err;
        }
        for (const entry of parsed) {
            const { error } = knowledgeFields.phrasings.validate(entry.phrasings ?? []);
            if (error) {
                throw Boom.badRequest(`Line ${entry.line}: ${error.message.replace(/^"\[\d+\]"/, 'a phrasing').replace(/^"value"/, '"phrasings"')}`);
            }
        }
        const entries = await this.db.transaction(async (trx) => {
            const rows: KnowledgeEntry[] = [];
            for (const { line: _line, phrasings, ...entry } of parsed) {
                rows.push(toEntry(await KnowledgeEntryModel.query(trx).insertAndFetch({
                    organizationId, ...entry, lang: entry.lang ?? lang, phrasings: storedPhrasings(phrasings ?? [])
                })));
            }
            return rows;
        });
        return { created: entries.length, entries };
    }

    // ---- the index ----------------------------------------------------------------------------------

    /**
     * The organization's index, rebuilt when what it holds changed: one aggregate query over the knowledge
     * entries (count, newest update, id sum) plus the active questions and the store name, so every node sees
     * an edit at its next question.
     */
    async indexFor(organizationId: number): Promise<StoreIndexes & { storeName: string; ready: Promise<boolean>; waitUntil: number }> {
        const services = this.deps.services();
        const [agg, questions, organization] = await Promise.all([
            this.knowledge(organizationId).where('is_active', true)
                .count('* as n').max('updated_at as u').sum('id as s').first() as unknown as Promise<{ n: number | string; u: number | string | null; s: number | string | null }>,
            services.questions.list(organizationId, { activeOnly: true }),
            services.tenants.getOrganization(organizationId)
        ]);
        const storeName = organization?.storeName || organization?.name || 'our store';
        const defaultLang = organization?.languages?.default ?? 'en';
        const fingerprint = Crypto.createHash('sha1').update(JSON.stringify([
            agg.n, agg.u, agg.s, storeName, defaultLang, questions.map((q) => [q.id, q.updatedAt])
        ])).digest('hex');
        const cached = this.indexes.get(organizationId);
        if (cached && cached.fingerprint === fingerprint) {
            return { index: cached.index, byLang: cached.byLang, defaultLang: cached.defaultLang, storeName, ready: cached.ready, waitUntil: cached.waitUntil };
        }
        const knowledge = await this.listKnowledge(organizationId, { activeOnly: true });
        const domain = organization?.domain ?? null;
        const groups = sourcesByLanguage(knowledge, questions, { storeName, domain, defaultLang });
        const byLang = new Map<string, KnowledgeIndex>();
        const options = { meanings: this.deps.meanings ?? null };
        let index: KnowledgeIndex;
        if (groups.size === 1) {
            // One language (most stores): one index serves everyone.
            index = new KnowledgeIndex(groups.get(defaultLang) ?? [], options);
            byLang.set(defaultLang, index);
        }
        else {
            index = new KnowledgeIndex(answerSources(knowledge, questions, { storeName, domain, lang: defaultLang }), options);
            for (const [lang, sources] of groups) {
                byLang.set(lang, new KnowledgeIndex(sources, options));
            }
        }
        // The sources' meanings are read from the database or encoded, in the background (unchanged texts are known
        // already); questions wait a while for them.
        const ready = this.deps.meanings
            ? this.prepareMeanings(organizationId, this.deps.meanings, [index, ...byLang.values()].flatMap((i) => i.meaningTexts()))
            : Promise.resolve(false);
        const waitUntil = Date.now() + (this.deps.meaningsWaitMs ?? 2000);
        this.indexes.set(organizationId, { fingerprint, index, byLang, defaultLang, ready, waitUntil });
        return { index, byLang, defaultLang, storeName, ready, waitUntil };
    }

    /**
     * A store's sources' meanings: those the database keeps (StoredMeanings) read, the rest encoded and kept. Without the
     * database (an error), encoded as before. Settles false when meanings cannot be had: questions are read by words.
     */
    private async prepareMeanings(organizationId: number, meanings: Meanings, texts: string[]): Promise<boolean> {
        const signal = this.stopping.signal;
        try {
            const report = await new StoredMeanings(this.db, meanings).prepare(organizationId, texts, signal);
            if (report.error && !signal.aborted) {
                this.deps.log.warn({ organizationId, err: report.error }, 'AI agent: the stored sentence meanings could not be read or kept; encoded here');
            }
            this.deps.log.debug({ organizationId, ...report }, 'AI agent: sentence meanings of the store ready');
            return !signal.aborted;
        }
        catch (err) {
            this.deps.log.warn({ err: (err as Error).message }, 'AI agent: sentence meanings unavailable, answering by words');
            return false;
        }
    }

    /**
     * Before the indexes read a question: its store's sources encoded (or AI_MEANINGS_WAIT_MS passed since they changed)
     * and the question's meaning encoded. The wait is counted from the index's build, not from each call: the widget's
     * message decision and the AI call that follows it do not wait twice for the same sources.
     */
    private async encodeQuestion(at: { ready: Promise<boolean>; waitUntil: number }, indexes: readonly KnowledgeIndex[], question: string): Promise<void> {
        const meanings = this.deps.meanings;
        if (!meanings) {
            return;
        }
        if (!await readyBy(at.ready, at.waitUntil)) {
            return;
        }
        const texts = indexes.map((index) => index.meaningText(question)).filter((t): t is string => t !== null);
        await meanings.prepare(texts).catch((err: Error) => this.deps.log.warn({ err: err.message }, 'AI agent: a question could not be encoded'));
    }

    /**
     * Starts encoding a question that may be English before the store's index is read (its fingerprint queries), in the
     * encoder's thread: encodeQuestion then finds it encoded or on its way (Meanings encodes a text once). A question
     * that turns out not to be read by meaning costs the encoder's thread one encoding and the customer nothing.
     * Measured at 1,000 entries (3 pairs of runs, with and without, one after the other): p50 1.5 to 3.3 ms lower, p95 1.1 to 3.7 ms.
     */
    private encodeEarly(message: string, pick?: string): void {
        const language = detectLanguage(message);
        if (this.deps.meanings && !pick && (language === null || language === 'en')) {
            this.deps.meanings.prepare([meaningTextOf(message)]).catch(() => undefined);
        }
    }

    /**
     * The store's best answer source for a customer's text and how sure the agent is of it, for the widget's message
     * decision (plugins/conversation): knowledge wins over keywords only when `confident`. null when the agent is off.
     */
    async retrieve(organizationId: number, text: string): Promise<KnowledgeMatch | null> {
        if (!await this.isEnabled(organizationId)) {
            return null;
        }
        this.encodeEarly(text);
        const built = await this.indexFor(organizationId);
        await this.encodeQuestion(built, [built.index], text);
        return knowledgeMatch(built.index, text);
    }

    // ---- the agent ----------------------------------------------------------------------------------

    async isEnabled(organizationId: number): Promise<boolean> {
        const row = await AiAgentSettingsModel.query(this.db).findById(organizationId);
        return row ? row.isEnabled : true;
    }

    async status(organizationId: number): Promise<AiStatus> {
        return { enabled: await this.isEnabled(organizationId) };
    }

    async setEnabled(organizationId: number, enabled: boolean): Promise<AiStatus & { message: string }> {
        await AiAgentSettingsModel.query(this.db)
            .insert({ organizationId, isEnabled: enabled, updatedAt: Date.now() })
            .onConflict('organization_id')
            .merge(['is_enabled', 'updated_at']);
        return { enabled, message: enabled ? 'AI agent enabled' : 'AI agent disabled' };
    }

    /** This widget session's exchanges with the agent, oldest first (what a live agent gets on hand-off). */
    async conversationForSession(organizationId: number, widgetSessionId: string, limit = 20): Promise<AiTurn[]> {
        const rows = await AiChatHistoryModel.query(this.db)
            .where({ organization_id: organizationId, session_id: widgetSessionId })
            .orderBy('id', 'desc').limit(limit);
        return rows.reverse().map((r) => ({ question: r.userQuestion, answer: r.aiResponse, fallbackAction: r.fallbackAction, createdAt: iso(r.createdAt) }));
    }

    /**
     * Retrieval in the customer's language first (issue 27): the entries written in it (the widget's language, else the
     * one the question is written in), then the store's default language's; the first that answers confidently wins.
     * Without a customer language (staff's test): every source at once.
     */
    private async retrieveInLanguage(organizationId: number, question: string, history: AiTurn[], lang: string | null | undefined) {
        const built = await this.indexFor(organizationId);
        const { index, byLang, defaultLang, storeName } = built;
        if (lang === undefined) {
            await this.encodeQuestion(built, [index], question);
            return { retrieval: retrieveInContext(index, question, history).retrieval, storeName, replyLang: defaultLang };
        }
        const customer = matchLanguage(lang, [...byLang.keys(), ...SHIPPED_LANGUAGES]);
        const order = [...new Set([customer, questionLanguage(question), defaultLang].filter((l): l is string => !!l && byLang.has(l)))];
        await this.encodeQuestion(built, [...order.map((l) => byLang.get(l) as KnowledgeIndex), ...(order.length ? [] : [index])], question);
        let first: RetrievalResult | null = null;
        for (const l of order) {
            // A follow-up ("and to Canada?") is read with the session's last question (follow-up.ts).
            const { retrieval } = retrieveInContext(byLang.get(l) as KnowledgeIndex, question, history);
            if (retrieval.confidence >= ABSTAIN_BELOW) {
                return { retrieval, storeName, replyLang: customer ?? defaultLang };
            }
            first ??= retrieval;
        }
        return { retrieval: first ?? retrieveInContext(index, question, history).retrieval, storeName, replyLang: customer ?? defaultLang };
    }

    private async respond(organizationId: number, question: string, tools: ToolBox, history: AiTurn[], lang?: string | null) {
        const { retrieval, storeName, replyLang } = await this.retrieveInLanguage(organizationId, question, history, lang);
        const reply = await this.deps.provider.answer({
            question, storeName, retrieval, history, tools, lang: replyLang,
            agentsAvailable: async () => !!this.support && this.support.agentsAvailable(organizationId)
        });
        return { reply, retrieval };
    }

    /**
     * A suggestion the customer picked (`pick`, a source's key): that source of the store's indexes, answered as it is,
     * whatever the provider. null when the store no longer has it (deleted or turned off since): the message is then
     * asked as any other.
     */
    private async picked(organizationId: number, key: string, lang: string | null): Promise<AgentReply | null> {
        const { index, byLang } = await this.indexFor(organizationId);
        const source = (lang ? byLang.get(lang)?.source(key) : undefined) ?? index.source(key)
            ?? [...byLang.values()].map((i) => i.source(key)).find((s) => s !== undefined);
        return source
            ? { answer: source.answer, fallbackAction: null, sources: [{ id: source.id, title: source.title, kind: source.kind }], confidence: 1, provider: this.deps.provider.name }
            : null;
    }

    /** POST /api/ai/chat: answers a customer, stores the exchange, and names what it offered instead of an answer. */
    async chat(ctx: ChatContext, message: string, pick?: string): Promise<AiChatAnswer> {
        const [enabled, history] = await Promise.all([
            this.isEnabled(ctx.organizationId),
            this.conversationForSession(ctx.organizationId, ctx.sessionId, 10)
        ]);
        if (!enabled) {
            throw coded(Boom.conflict(AI_ERRORS.turnedOff.message), AI_ERRORS.turnedOff.code);
        }
        // A picked suggestion asks no provider: it does not count against the store's question budget.
        const chosen = pick ? await this.picked(ctx.organizationId, pick, ctx.lang ?? null) : null;
        if (!chosen && this.deps.budget && !await this.deps.budget.take(ctx.organizationId)) {
            // Nothing asked of the provider and nothing stored: the customer keeps the questions and the team.
            return { answer: aiText(ctx.lang, 'budget'), code: AI_ERRORS.budgetReached.code, fallbackAction: 'questions', historyId: null, sources: [] };
        }
        // Only for a store whose agent is on and within its budget: nobody makes the encoder work by asking a store that would not answer.
        this.encodeEarly(message, pick);
        // The question that led to a hand-off: the last one that was not itself a request for a human.
        const earlier = [...history].reverse().find((t) => intentOf(t.question) !== 'human');
        const tools = new ToolBox(this.db, this.deps.services, {
            organizationId: ctx.organizationId,
            botInstanceId: ctx.botInstanceId,
            sessionId: ctx.sessionId,
            domain: ctx.domain,
            verifiedPhone: ctx.verifiedPhone,
            originalQuestion: intentOf(message) === 'human' && earlier ? earlier.question : message,
            conversation: [...history, { question: message, answer: '(asked for a live agent)', fallbackAction: 'live_chat', createdAt: new Date().toISOString() }],
            lang: ctx.lang
        }, () => this.support);
        const { reply: replied, retrieval } = chosen ? { reply: chosen, retrieval: null } : await this.respond(ctx.organizationId, message, tools, history, ctx.lang ?? null);
        // Not knowing (issue 30): the store's closest entries are offered, as help centres suggest articles; most
        // questions the agent abstains on have the right entry among them (bench:ai).
        const suggestions = replied.abstained && retrieval ? suggestionsOf(retrieval) : [];
        // With no suggestion, the leave-a-message form is all the widget shows below the answer: the text says only that.
        const reply = replied.code === 'ai.offer_message' && !suggestions.length ? { ...replied, answer: aiText(ctx.lang, 'offerMessageAlone') } : replied;
        // A pick right after a question the agent did not know answers that question: staff see it under the entry.
        const last = history[history.length - 1];
        const askedBefore = chosen && last && (last.fallbackAction === 'offer_live_chat' || last.fallbackAction === 'leave_message') ? last.question : null;
        const phone = await tools.verifiedPhone();
        // Triage (triage.ts): an abstaining answer (or one that could only point at the questions) and a hand-off are
        // unresolved from the start; anything else waits for the customer's word or silence.
        const abstained = !!reply.abstained || reply.fallbackAction === 'questions';
        const handoff = !abstained && reply.fallbackAction === 'live_chat';
        const start = initialTriage({ handoff, abstained });
        const now = Date.now();
        // The source it answered from (issue 30: the admin sees which entries answer which questions); none for a tool's answer.
        const source = !reply.fallbackAction ? reply.sources.find((s) => s.kind === 'knowledge' || s.kind === 'question' || s.kind === 'store') : undefined;
        const row = await this.db.transaction(async (trx) => {
            const inserted = await AiChatHistoryModel.query(trx).insertAndFetch({
                organizationId: ctx.organizationId,
                sessionId: ctx.sessionId,
                phoneNumber: phone,
                domain: ctx.domain,
                userQuestion: message,
                aiResponse: reply.answer,
                isResolved: false,
                fallbackAction: reply.fallbackAction,
                triage: start.triage,
                triageReason: start.triageReason,
                triagedAt: start.triage === 'pending' ? null : now,
                sourceKind: source ? source.kind as 'knowledge' | 'question' | 'store' : null,
                sourceId: source ? source.id : null,
                sourceTitle: source ? source.title.slice(0, 300) : null,
                askedBefore
            });
            if (handoff) {
                await this.handedOff(ctx.organizationId, ctx.sessionId, trx);
            }
            return inserted;
        });
        return {
            answer: reply.answer, historyId: row.id, fallbackAction: reply.fallbackAction, sources: reply.sources,
            ...(reply.code ? { code: reply.code } : {}), ...(suggestions.length ? { suggestions } : {})
        };
    }

    /** POST /api/ai/test: staff ask without a customer session (no tier-2 data); answer, entries used, confidence. */
    async test(organizationId: number, message: string): Promise<AiTestAnswer> {
        const tools = new ToolBox(this.db, this.deps.services, {
            organizationId, botInstanceId: null, sessionId: null, domain: null, verifiedPhone: null, originalQuestion: message, conversation: []
        });
        const { reply, retrieval } = await this.respond(organizationId, message, tools, [], undefined);
        return {
            answer: reply.answer,
            fallbackAction: reply.fallbackAction,
            sources: reply.sources,
            confidence: Math.round(retrieval.confidence * 1000) / 1000,
            provider: reply.provider,
            entries: retrieval.hits.map((h) => ({
                id: h.source.id, title: h.source.title, kind: h.source.kind,
                score: Math.round(h.score * 1000) / 1000, confidence: Math.round(h.confidence * 1000) / 1000
            })),
            tools: tools.used
        };
    }

    /** POST /api/ai/feedback: the customer says whether an answer helped; only their own session's answers. */
    async feedback(organizationId: number, sessionId: string, historyId: number, resolved: boolean): Promise<{ message: string; isResolved: boolean }> {
        const count = await this.db('ai_chat_history')
            .where({ organization_id: organizationId, session_id: sessionId, id: historyId })
            .update(triageColumns(feedbackTriage(resolved), Date.now()));
        if (!count) {
            throw Boom.notFound('Conversation not found');
        }
        return { message: 'Thank you for your feedback!', isResolved: resolved };
    }

    // ---- history and figures ------------------------------------------------------------------------

    // ---- triage (triage.ts) ----------------------------------------------------------------------------

    /**
     * The widget session was handed to live chat (the agent's transfer, or a live chat the widget opened for it): its
     * answers still pending become unresolved. The customer's own yes or no stays.
     */
    async handedOff(organizationId: number, sessionId: string, db: Db = this.db): Promise<number> {
        return db('ai_chat_history').where({ organization_id: organizationId, session_id: sessionId, triage: 'pending' })
            .update(triageColumns({ triage: 'unresolved', triageReason: 'handoff' }, Date.now()));
    }

    /** The silence rule, now (every organization, or one): pending answers whose session has been quiet for the window. */
    async sweepTriage(organizationId?: number, now = Date.now()): Promise<number> {
        return resolveSilent(this.db, now - this.resolvedAfterMs, now, organizationId);
    }

    get resolvedAfterMs(): number {
        return this.deps.resolvedAfterMs ?? 10 * 60_000;
    }

    /**
     * Staff resolve several answers in one call: all of them, or (when any id is not one of this organization's
     * answers) none, with a 404. Answers already resolved stay as they are.
     */
    async resolveMany(organizationId: number, ids: number[]): Promise<AiBulkResolveAnswer> {
        return this.db.transaction(async (trx) => {
            const found = await AiChatHistoryModel.query(trx).where('organization_id', organizationId).whereIn('id', ids).select('id');
            if (found.length !== new Set(ids).size) {
                throw coded(Boom.notFound(AI_HISTORY_ERRORS.someNotFound.message), AI_HISTORY_ERRORS.someNotFound.code);
            }
            const resolved = await trx('ai_chat_history').where('organization_id', organizationId).whereIn('id', ids).whereNot('triage', 'resolved')
                .update(triageColumns({ triage: 'resolved', triageReason: 'staff' }, Date.now()));
            const rows = await AiChatHistoryModel.query(trx).where('organization_id', organizationId).whereIn('id', ids).orderBy('id', 'desc');
            return { resolved, records: rows.map(toRecord) };
        });
    }

    async history(organizationId: number, options: { limit: number; sessionId?: string }): Promise<AiChatRecord[]> {
        await this.sweepTriage(organizationId);
        const query = AiChatHistoryModel.query(this.db).where('organization_id', organizationId).orderBy('id', 'desc').limit(options.limit);
        if (options.sessionId) {
            query.where('session_id', options.sessionId);
        }
        return (await query).map(toRecord);
    }

    /** The answers that need a look: unresolved (the customer said no, was handed off, or the agent abstained). */
    async unresolved(organizationId: number, limit = 100): Promise<AiChatRecord[]> {
        await this.sweepTriage(organizationId);
        const rows = await AiChatHistoryModel.query(this.db)
            .where({ organization_id: organizationId, triage: 'unresolved' }).orderBy('id', 'desc').limit(limit);
        return rows.map(toRecord);
    }

    /** Staff mark one answer resolved or unresolved (SPEC §7 PATCH /api/ai/chat-history/{id}). */
    async setResolved(organizationId: number, id: number, isResolved: boolean): Promise<AiChatRecord> {
        const row = await AiChatHistoryModel.query(this.db).where('organization_id', organizationId).findById(id);
        if (!row) {
            throw coded(Boom.notFound(AI_HISTORY_ERRORS.notFound.message), AI_HISTORY_ERRORS.notFound.code);
        }
        await this.db('ai_chat_history').where({ organization_id: organizationId, id })
            .update(triageColumns({ triage: isResolved ? 'resolved' : 'unresolved', triageReason: 'staff' }, Date.now()));
        return toRecord(await AiChatHistoryModel.query(this.db).findById(id) as AiChatHistoryModel);
    }

    /**
     * GET /api/ai/knowledge/usage (issue 30): the sources that answered in the last 30 days, how often, when last, and
     * the latest questions each answered (for a picked suggestion, the question asked before it); titles as the sources
     * read now (as they read then, for one since removed).
     */
    async usage(organizationId: number, now = Date.now()): Promise<AiSourceUsage[]> {
        const since = now - RATES_WINDOW_MS;
        const recent = () => this.db('ai_chat_history').where('organization_id', organizationId).where('created_at', '>=', since).whereNotNull('source_kind');
        const [counts, latest, knowledge, questions] = await Promise.all([
            recent().select('source_kind', 'source_id').count({ n: '*' }).max({ last: 'created_at' }).groupBy('source_kind', 'source_id') as Promise<Array<{ source_kind: AiSourceUsage['kind']; source_id: number; n: number | string; last: number | string }>>,
            recent().select('source_kind', 'source_id', 'source_title', 'user_question', 'asked_before').orderBy('id', 'desc').limit(2000) as Promise<Array<{ source_kind: string; source_id: number; source_title: string | null; user_question: string; asked_before: string | null }>>,
            this.knowledge(organizationId).select('id', 'title'),
            this.deps.services().questions.list(organizationId)
        ]);
        const titles = new Map<string, string>([
            ...knowledge.map((k) => [`knowledge:${k.id}`, k.title] as [string, string]),
            ...questions.map((q) => [`question:${q.id}`, q.question] as [string, string])
        ]);
        const asked = new Map<string, { title: string | null; questions: string[] }>();
        for (const row of latest) {
            const key = `${row.source_kind}:${row.source_id}`;
            const entry = asked.get(key) ?? { title: row.source_title, questions: [] };
            asked.set(key, entry);
            // A picked suggestion: the question the customer had asked in their own words, not the entry's title.
            const question = row.asked_before ?? row.user_question;
            if (entry.questions.length < 5 && !entry.questions.includes(question)) {
                entry.questions.push(question);
            }
        }
        return counts.map((c) => {
            const key = `${c.source_kind}:${c.source_id}`;
            return {
                kind: c.source_kind, id: Number(c.source_id), title: titles.get(key) ?? asked.get(key)?.title ?? '',
                answers: Number(c.n), lastAnsweredAt: iso(Number(c.last)), questions: asked.get(key)?.questions ?? []
            };
        }).sort((x, y) => y.answers - x.answers || (y.lastAnsweredAt ?? '').localeCompare(x.lastAnsweredAt ?? ''));
    }

    async sessionsSummary(organizationId: number): Promise<AiSessionsSummary> {
        await this.sweepTriage(organizationId);
        const now = Date.now();
        const today = startOfUtcDay(now);
        const history = () => AiChatHistoryModel.query(this.db).where('organization_id', organizationId);
        const num = (v: unknown) => Number((v as Record<string, unknown> | undefined)?.n ?? 0);
        const [active, calls, verified, total, answered, resolved, handoffs] = await Promise.all([
            history().where('created_at', '>=', now - ACTIVE_SESSION_MS).countDistinct({ n: 'session_id' }).first(),
            AiFunctionCallModel.query(this.db).where('organization_id', organizationId).where('created_at', '>=', today).count({ n: '*' }).first(),
            history().where('created_at', '>=', today).whereNotNull('phone_number').countDistinct({ n: 'session_id' }).first(),
            history().where('created_at', '>=', now - RATES_WINDOW_MS).count({ n: '*' }).first(),
            history().where('created_at', '>=', now - RATES_WINDOW_MS).whereNull('fallback_action').count({ n: '*' }).first(),
            history().where('created_at', '>=', now - RATES_WINDOW_MS).where('is_resolved', true).count({ n: '*' }).first(),
            AiFunctionCallModel.query(this.db).where({ organization_id: organizationId, function_name: 'transfer', success: true })
                .where('created_at', '>=', now - RATES_WINDOW_MS).count({ n: '*' }).first()
        ]);
        const questions = num(total);
        return {
            activeSessions: num(active),
            todayFunctionCalls: num(calls),
            verificationsToday: num(verified),
            successRate: percent(num(answered), questions),
            questions,
            answered: num(answered),
            answerRate: percent(num(answered), questions),
            resolved: num(resolved),
            resolutionRate: percent(num(resolved), questions),
            handoffs: num(handoffs)
        };
    }
}
