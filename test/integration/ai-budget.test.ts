import { expect } from 'chai';
import { bearer, createTenant, startTestServer, Tenant, TestServer } from '../helpers/server';

const BREAK = 'Our assistant is taking a short break. You can still choose a question below or ask for a member of our team.';

/**
 * A per-store ceiling on AI questions (issue 25, fix 6): with a paid LLM provider, many client addresses (each
 * under its own limit) could run up a store's cost. Past the store's hourly or daily budget the customer gets a
 * clear answer with a machine-readable code and the questions, a 200, never a 5xx.
 */
describe('the AI agent\'s question budget per store', function () {
    this.timeout(30000);

    const ask = (t: TestServer, tenant: Tenant, sessionId: string, ip: string) => t.server.inject({
        method: 'POST', url: '/api/ai/chat', remoteAddress: ip,
        headers: { 'x-widget-key': tenant.bot.publicKey }, payload: { sessionId, message: 'What are your store hours?' }
    });
    const stored = async (t: TestServer, tenant: Tenant) => (await t.server.app.services.ai.history(tenant.organization.id, { limit: 500 })).length;

    describe('per hour', () => {
        let t: TestServer;
        let a: Tenant;
        let b: Tenant;

        before(async () => {
            t = await startTestServer({ env: { AI_QUESTIONS_PER_STORE_HOUR: '3', AI_QUESTIONS_PER_STORE_DAY: '1000' } });
            a = await createTenant(t.server, 'budgeta');
            b = await createTenant(t.server, 'budgetb');
        });
        after(async () => {
            await t?.close();
        });

        it('answers AI_QUESTIONS_PER_STORE_HOUR questions from any sessions and addresses, then a 200 with code ai.budget_reached and the questions', async () => {
            for (let i = 0; i < 3; i++) {
                const res = await ask(t, a, `widget_1_budget${i}`, `10.66.0.${i + 1}`);
                expect(res.statusCode, res.payload).to.equal(200);
                expect(JSON.parse(res.payload).code).to.equal(undefined);
            }
            const over = await ask(t, a, 'widget_1_budget9', '10.66.0.9');
            expect(over.statusCode).to.equal(200);
            expect(JSON.parse(over.payload)).to.deep.equal({ answer: BREAK, code: 'ai.budget_reached', fallbackAction: 'questions', historyId: null, sources: [] });
            expect(await stored(t, a), 'the refused question is not stored as an exchange').to.equal(3);
        });

        it('keeps each store\'s budget its own', async () => {
            const res = await ask(t, b, 'widget_1_budgetb', '10.66.0.20');
            expect(res.statusCode).to.equal(200);
            expect(JSON.parse(res.payload).code).to.equal(undefined);
        });

        it('does not count staff testing the agent (/api/ai/test), and lets staff test while customers are over the budget', async () => {
            for (let i = 0; i < 4; i++) {
                const res = await t.server.inject({ method: 'POST', url: '/api/ai/test', headers: bearer(b.admin.token), payload: { message: 'What are your store hours?' } });
                expect(res.statusCode, res.payload).to.equal(200);
                expect(JSON.parse(res.payload).answer).to.not.equal(BREAK);
            }
            // b asked once as a customer: two more customer questions still fit in its budget of 3.
            for (let i = 0; i < 2; i++) {
                expect(JSON.parse((await ask(t, b, `widget_1_budgetb${i}`, '10.66.0.21')).payload).code).to.equal(undefined);
            }
            expect(JSON.parse((await ask(t, b, 'widget_1_budgetbx', '10.66.0.21')).payload).code).to.equal('ai.budget_reached');
            const staff = await t.server.inject({ method: 'POST', url: '/api/ai/test', headers: bearer(a.admin.token), payload: { message: 'What are your store hours?' } });
            expect(staff.statusCode).to.equal(200);
            expect(JSON.parse(staff.payload).answer).to.not.equal(BREAK);
        });
    });

    describe('per day', () => {
        let t: TestServer;
        let a: Tenant;

        before(async () => {
            t = await startTestServer({ env: { AI_QUESTIONS_PER_STORE_HOUR: '1000', AI_QUESTIONS_PER_STORE_DAY: '2' } });
            a = await createTenant(t.server, 'budgetday');
        });
        after(async () => {
            await t?.close();
        });

        it('answers AI_QUESTIONS_PER_STORE_DAY questions a day, then the same break answer', async () => {
            for (let i = 0; i < 2; i++) {
                expect(JSON.parse((await ask(t, a, `widget_1_day${i}`, `10.67.0.${i + 1}`)).payload).code).to.equal(undefined);
            }
            const over = await ask(t, a, 'widget_1_day9', '10.67.0.9');
            expect(over.statusCode).to.equal(200);
            expect(JSON.parse(over.payload)).to.include({ answer: BREAK, code: 'ai.budget_reached', fallbackAction: 'questions' });
        });

        it('refuses a budget outside its range at start, naming the variable', async () => {
            const { loadConfig } = await import('../../config');
            expect(() => loadConfig({ AI_QUESTIONS_PER_STORE_HOUR: '0', JWT_SECRET: t.config.jwtSecret })).to.throw(/AI_QUESTIONS_PER_STORE_HOUR/);
            expect(() => loadConfig({ AI_QUESTIONS_PER_STORE_DAY: 'lots', JWT_SECRET: t.config.jwtSecret })).to.throw(/AI_QUESTIONS_PER_STORE_DAY/);
            expect(loadConfig({ JWT_SECRET: t.config.jwtSecret, DATA_DIR: t.config.dataDir }).ai).to.include({ questionsPerStoreHour: 600, questionsPerStoreDay: 5000 });
        });
    });
});
