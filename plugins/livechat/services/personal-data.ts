import type { Knex } from 'knex';
import type { Db } from '../../../core/db';
import type { FileStorage } from '../files/storage';
import { removeChatFiles } from './attachments-service';
import { chunks, containsClause, deleteOlder, Person, PersonalDataHolder, PersonScope, plainRows, RetentionCutoffs } from '../../../core/privacy/personal-data';

/**
 * What livechat keeps about a customer (issue 25): their chats and left messages (phone, email, name, page), every
 * message of those chats, and the mails about them in the outbox (transcripts and left messages to the store, replies
 * to the customer). Found by phone, by email, and by the widget sessions any plugin tied to the person.
 */
function chatsOf(db: Db, scope: PersonScope): Knex.QueryBuilder {
    return db('chat_sessions').where('organization_id', scope.organizationId).where((q) => {
        if (scope.phone) {
            q.orWhere('phone_number', scope.phone);
        }
        if (scope.email) {
            q.orWhereRaw('lower(customer_email) = ?', [scope.email]);
        }
        for (const part of chunks(scope.sessionIds)) {
            q.orWhereIn('widget_session_id', part).orWhereIn('session_id', part);
        }
        if (!scope.phone && !scope.email && !scope.sessionIds.length) {
            q.whereRaw('1 = 0');
        }
    });
}

/** The store's mails that name the person: to their address, or naming their phone, email or one of their chats. */
function mailsOf(db: Db, scope: PersonScope, chatIds: string[]): Knex.QueryBuilder {
    return db('email_outbox').where('organization_id', scope.organizationId).where((q) => {
        const needles = [scope.phone, scope.email, ...chatIds.map((id) => `Session: ${id}`)].filter((n): n is string => !!n);
        if (scope.email) {
            q.orWhereRaw('lower(to_address) = ?', [scope.email]);
        }
        for (const needle of needles) {
            const [sql, bindings] = containsClause('body_text', needle);
            q.orWhereRaw(sql, bindings);
        }
        if (!needles.length) {
            q.whereRaw('1 = 0');
        }
    });
}

/**
 * What hangs on a chat besides its messages (issue 26): staff's internal notes and transfer notes (they may name the
 * customer), the offers made to agents and the routing events; the customer's rating and comment (issue 28). They go
 * with their chat.
 */
const CHILDREN = ['chat_notes', 'chat_offers', 'chat_routing_events', 'chat_ratings', 'chat_attachments'] as const;

async function childRows(db: Db, ids: number[]): Promise<Record<string, unknown[]>> {
    const out: Record<string, unknown[]> = {};
    for (const table of CHILDREN) {
        const rows = [];
        for (const part of chunks(ids)) {
            rows.push(...await db(table).whereIn('chat_session_id', part).orderBy('id'));
        }
        out[table] = plainRows(rows);
    }
    return out;
}

async function deleteChats(db: Db, ids: number[], storage: FileStorage): Promise<Record<string, number>> {
    const counts: Record<string, number> = { chat_messages: 0, chat_sessions: 0, ...Object.fromEntries(CHILDREN.map((t) => [t, 0])) };
    // The chat's photos and files (issue 29): their bytes on disk or in S3 go with their rows.
    counts.chat_attachments = await removeChatFiles(db, storage, ids);
    for (const part of chunks(ids)) {
        for (const table of CHILDREN) {
            counts[table] += await db(table).whereIn('chat_session_id', part).delete();
        }
        counts.chat_messages += await db('chat_messages').whereIn('chat_session_id', part).delete();
        counts.chat_sessions += await db('chat_sessions').whereIn('id', part).delete();
    }
    return counts;
}

export const livechatPersonalData = (storage: FileStorage): PersonalDataHolder => ({
    plugin: 'livechat',
    // chat_messages_fts: SQLite's full-text index of the messages (issue 28; PostgreSQL keeps it in chat_messages'
    // search_vector column). It holds the messages' words, and loses them with the messages: triggers on chat_messages.
    tables: ['chat_sessions', 'chat_messages', 'chat_messages_fts', 'email_outbox', ...CHILDREN],

    async sessionsOf(person: Person, db: Db): Promise<string[]> {
        const rows = await chatsOf(db, { ...person, sessionIds: [] }).select('widget_session_id', 'session_id');
        return rows.map((r: { widget_session_id: string | null; session_id: string }) => r.widget_session_id ?? r.session_id);
    },

    async export(scope: PersonScope, db: Db) {
        const chats = await chatsOf(db, scope).select('*').orderBy('id');
        const ids: number[] = chats.map((c: { id: number }) => c.id);
        const messages = [];
        for (const part of chunks(ids)) {
            messages.push(...await db('chat_messages').whereIn('chat_session_id', part).orderBy(['chat_session_id', 'seq']));
        }
        const mails = await mailsOf(db, scope, chats.map((c: { session_id: string }) => c.session_id)).select('*').orderBy('id');
        // search_vector (PostgreSQL's search index column, issue 28) is the message again, not data of its own.
        return { chat_sessions: plainRows(chats), chat_messages: plainRows(messages).map(({ search_vector: _index, ...m }) => m), email_outbox: plainRows(mails), ...await childRows(db, ids) };
    },

    async erase(scope: PersonScope, db: Db) {
        const chats = await chatsOf(db, scope).select('id', 'session_id');
        const ids: number[] = chats.map((c: { id: number }) => c.id);
        const mails = await mailsOf(db, scope, chats.map((c: { session_id: string }) => c.session_id)).delete();
        return { ...await deleteChats(db, ids, storage), email_outbox: mails };
    },

    /**
     * Chats (and left messages) that ended before the 'chats' cutoff go with their messages; a chat still waiting or
     * connected stays whatever its age. Mails go after the 'mail' window.
     */
    async retain(organizationId: number, cutoffs: RetentionCutoffs, db: Db) {
        let counts: Record<string, number> = {};
        if (cutoffs.chats !== undefined) {
            const old: number[] = (await db('chat_sessions').where('organization_id', organizationId).whereNotIn('status', ['waiting', 'agent_connected'])
                .where((q) => q.where('ended_at', '<', cutoffs.chats!).orWhere((o) => o.whereNull('ended_at').where('created_at', '<', cutoffs.chats!)))
                .select('id')).map((r: { id: number }) => r.id);
            counts = await deleteChats(db, old, storage);
        }
        return { ...counts, email_outbox: await deleteOlder(db, 'email_outbox', 'created_at', organizationId, cutoffs.mail) };
    }
});
