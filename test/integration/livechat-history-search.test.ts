import { expect } from 'chai';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';
import { SEARCH_CAP } from '../../plugins/livechat/services/console-service';
import { searchTerms } from '../../plugins/livechat/services/message-search';

/**
 * The History view's message search on the full-text index (issue 28): PostgreSQL's tsvector column and GIN index, or
 * SQLite's FTS5 table kept by triggers. Chats are stored straight into chat_sessions / chat_messages (as a bulk
 * import or an older node would), so the index is kept by the database itself, not by the service writing messages.
 */
describe('history search: full-text, ranked, capped, per store', function () {
    this.timeout(60000);
    let t: TestServer;
    let a: Tenant;
    let b: Tenant;
    let next = 0;
    const HOUR = 3_600_000;
    const t0 = Date.now() - 1000 * HOUR;

    before(async () => {
        t = await startTestServer();
        a = await createTenant(t.server, 'searchalpha', 'searchalpha.test');
        b = await createTenant(t.server, 'searchbeta', 'searchbeta.test');
    });
    after(async () => {
        await t?.close();
    });

    /** Ended chats of `tenant`, each with these messages (customer and agent in turn), the later ones newer. */
    async function plant(tenant: Tenant, chats: Array<{ id: string; messages: string[]; phone?: string }>): Promise<void> {
        const db = t.server.app.db;
        for (let start = 0; start < chats.length; start += 200) {
            const batch = chats.slice(start, start + 200).map((c) => {
                const created = t0 + (next++) * 60_000;
                return {
                    organization_id: tenant.organization.id, session_id: c.id, widget_session_id: c.id, phone_number: c.phone ?? '+15555550100',
                    status: 'completed', customer_message: c.messages[0], last_seq: c.messages.length, agent_read_seq: c.messages.length,
                    is_starred: false, is_archived: false, ended_by: 'agent', end_reason: 'agent_ended',
                    created_at: created, accepted_at: created + 1000, ended_at: created + 30_000, updated_at: created + 30_000
                };
            });
            await db.transaction(async (trx) => {
                const ids = (await trx('chat_sessions').insert(batch).returning('id')).map((r: { id: number } | number) => (typeof r === 'number' ? r : r.id));
                const rows = ids.flatMap((id: number, j: number) => chats[start + j].messages.map((message, k) => ({
                    organization_id: tenant.organization.id, chat_session_id: id, seq: k + 1, sender: k % 2 ? 'agent' : 'customer',
                    sender_user_id: k % 2 ? tenant.admin.id : null, message, client_message_id: `m${k}`, created_at: batch[j].created_at + k * 1000
                })));
                for (let m = 0; m < rows.length; m += 200) {
                    await trx('chat_messages').insert(rows.slice(m, m + 200));
                }
            });
        }
    }

    const find = async (tenant: Tenant, query: string) => {
        const res = await t.server.inject({ method: 'GET', url: `/api/chat/history?archived=include&${query}`, headers: bearer(tenant.admin.token) });
        expect(res.statusCode, res.payload).to.equal(200);
        return JSON.parse(res.payload) as { sessions: Array<{ sessionId: string; match: { seq: number; message: string } | null }>; total: number; totalCapped?: boolean; page: number; pageSize: number };
    };
    const ids = (page: { sessions: Array<{ sessionId: string }> }) => page.sessions.map((s) => s.sessionId);

    it('splits a search into words: letters and digits, lowercased, punctuation between', () => {
        expect(searchTerms('  Zebra-print, 100% ÉTÉ gift_cards ')).to.deep.equal(['zebra', 'print', '100', 'été', 'gift', 'cards']);
        expect(searchTerms('%_\\')).to.deep.equal([]);
        expect(searchTerms('a b c d e f g h i j')).to.have.length(8);
    });

    it('finds a rare word, highlights the matching message, and never another store\'s chats', async () => {
        await plant(a, [
            { id: 'srch_rare_1', messages: ['Hello', 'Hi, how can I help?', 'Is the Zanzibar blend back in stock?', 'Next week'] },
            { id: 'srch_rare_2', messages: ['Do you ship to zanzibar?', 'We do'] },
            { id: 'srch_plain', messages: ['Where is my order?', 'On its way'] }
        ]);
        await plant(b, [{ id: 'srch_other_store', messages: ['zanzibar at the other store'] }]);
        const rare = await find(a, 'q=zanzibar');
        expect(rare.total).to.equal(2);
        expect(rare.totalCapped).to.equal(false);
        expect(ids(rare)).to.have.members(['srch_rare_1', 'srch_rare_2']);
        const first = rare.sessions.find((s) => s.sessionId === 'srch_rare_1')!;
        expect(first.match, 'the first matching message of the chat').to.deep.equal({ seq: 3, message: 'Is the Zanzibar blend back in stock?' });
        expect(ids(await find(b, 'q=zanzibar'))).to.deep.equal(['srch_other_store']);
        expect((await find(a, 'q=zanzibar%20week')).total, 'every word must match, in the same message').to.equal(0);
        expect(ids(await find(a, 'q=zanzibar%20blend'))).to.deep.equal(['srch_rare_1']);
        expect((await find(a, 'q=%25%25')).total, 'no word, nothing found').to.equal(0);
    });

    it('finds the start of a word, any case, with or without accents', async () => {
        await plant(a, [
            { id: 'srch_accent', messages: ['Mi envío llegó TARDE', 'Lo siento mucho'] },
            { id: 'srch_refunds', messages: ['Were my Refunds processed?', 'Yes, both refunded'] }
        ]);
        for (const q of ['envío', 'envio', 'ENVIO', 'Envi', 'llego', 'LLEGÓ', 'tarde']) {
            expect(ids(await find(a, `q=${encodeURIComponent(q)}`)), q).to.deep.equal(['srch_accent']);
        }
        expect(ids(await find(a, 'q=refund')), 'refund starts refunds and refunded').to.deep.equal(['srch_refunds']);
        expect(ids(await find(a, 'q=REFU')), 'the start of a word').to.deep.equal(['srch_refunds']);
        expect((await find(a, 'q=funds')).total, 'not the middle of a word').to.equal(0);
    });

    it('finds a phone number\'s part in a message and, with the phone filter, in the customer\'s number', async () => {
        await plant(a, [
            { id: 'srch_phone_msg', messages: ['Please call me back on 555 0142', 'Will do'], phone: '+15555550999' },
            { id: 'srch_phone_col', messages: ['Hello there', 'Hi'], phone: '+15555550142' }
        ]);
        expect(ids(await find(a, 'q=0142')), 'a group of digits the customer typed').to.deep.equal(['srch_phone_msg']);
        expect(ids(await find(a, 'q=014')), 'its start').to.deep.equal(['srch_phone_msg']);
        expect(ids(await find(a, 'phone=550142')), 'any part of the chat\'s phone number').to.deep.equal(['srch_phone_col']);
        expect(ids(await find(a, 'phone=0142&q=hello'))).to.deep.equal(['srch_phone_col']);
        expect(ids(await find(b, 'phone=550142')), 'another store').to.deep.equal([]);
    });

    it('ranks the chats by their best matching message, newest first among equals', async () => {
        await plant(a, [
            { id: 'srch_rank_strong', messages: ['Voucher voucher voucher: my voucher code fails', 'Let me check the voucher'] },
            { id: 'srch_rank_weak_1', messages: ['I have a question about my order and a voucher I got last year from a friend of mine', 'Sure'] },
            { id: 'srch_rank_weak_2', messages: ['I have a question about my order and a voucher I got last year from a friend of mine', 'Sure'] }
        ]);
        const ranked = await find(a, 'q=voucher');
        expect(ids(ranked), 'the chat about vouchers first although it is the oldest; then the newest').to.deep.equal(['srch_rank_strong', 'srch_rank_weak_2', 'srch_rank_weak_1']);
    });

    it('counts a common word up to the cap and pages through the newest matches without repeating one', async () => {
        const many = SEARCH_CAP + 20;
        await plant(a, Array.from({ length: many }, (_, i) => ({ id: `srch_common_${i}`, messages: [`Question ${i} about a delivery`, 'Thanks, checking'] })));
        const first = await find(a, 'q=delivery&pageSize=100');
        expect(first.total, 'counted up to the cap').to.equal(SEARCH_CAP);
        expect(first.totalCapped, 'and more match').to.equal(true);
        expect(first.sessions).to.have.length(100);
        const seen = new Set<string>();
        for (let page = 1; page <= SEARCH_CAP / 100; page++) {
            for (const id of ids(await find(a, `q=delivery&pageSize=100&page=${page}`))) {
                expect(seen.has(id), id).to.equal(false);
                seen.add(id);
            }
        }
        expect(seen.size).to.equal(SEARCH_CAP);
        expect(seen.has(`srch_common_${many - 1}`), 'the newest are in').to.equal(true);
        expect(seen.has('srch_common_0'), 'the oldest beyond the cap are not').to.equal(false);
        expect((await find(a, `q=delivery&pageSize=100&page=${SEARCH_CAP / 100 + 1}`)).sessions, 'past the last page').to.deep.equal([]);
        const narrowed = await find(a, `q=delivery&to=${new Date(t0 + (next - many + 10) * 60_000).toISOString()}`);
        expect(narrowed.total, 'filters apply before the cap').to.equal(10);
        expect(narrowed.totalCapped).to.equal(false);
    });

    it('forgets an erased customer\'s messages, in the index too', async () => {
        await plant(a, [{ id: 'srch_erased', messages: ['My quokka-shaped parcel is missing', 'Sorry'], phone: '+15555550177' }]);
        await plant(b, [{ id: 'srch_erased_other', messages: ['My quokka-shaped parcel is missing'], phone: '+15555550177' }]);
        expect(ids(await find(a, 'q=quokka'))).to.deep.equal(['srch_erased']);
        const res = await t.server.inject({ method: 'POST', url: '/api/privacy/customers/erase', headers: bearer(a.admin.token), payload: { phone: '+15555550177', confirm: true } });
        expect(res.statusCode, res.payload).to.equal(200);
        expect((await find(a, 'q=quokka')).total).to.equal(0);
        expect(ids(await find(b, 'q=quokka')), 'the other store keeps its own').to.deep.equal(['srch_erased_other']);
        const db = t.server.app.db;
        const indexed = /sqlite/.test(String(db.client.config.client))
            ? await db.raw(`select count(*) as n from chat_messages_fts where chat_messages_fts match 'quokka'`)
            : (await db.raw(`select count(*) as n from chat_messages where search_vector @@ to_tsquery('lc_search', 'quokka')`)).rows;
        expect(Number(indexed[0].n), 'only the other store\'s message is left in the index').to.equal(1);
    });

    it('keeps the index when a message is edited in place', async () => {
        await plant(a, [{ id: 'srch_edited', messages: ['An ocelot question', 'ok'] }]);
        await t.server.app.db('chat_messages').where('message', 'An ocelot question').update({ message: 'A capybara question' });
        expect((await find(a, 'q=ocelot')).total).to.equal(0);
        expect(ids(await find(a, 'q=capybara'))).to.deep.equal(['srch_edited']);
    });
});
