import { expect } from 'chai';
import * as Crypto from 'crypto';
import * as Fs from 'fs';
import * as Os from 'os';
import * as Path from 'path';
import Knex, { Knex as KnexTypes } from 'knex';
import { Migrator } from '../../core/db';
import { hashPassword } from '../../core/auth/passwords';
import v010 from '../fixtures/v0.1.0-initial-migration';
import { runCli } from '../helpers/cli';
import { usingPostgres } from '../helpers/server';

/** Every table of 0.1.0 with one row (or two), as a 0.1.0 server would have stored them. */
async function fill(knex: KnexTypes, passwordHash: string): Promise<Record<string, number>> {
    const t = Date.now();
    const [org] = await knex('organizations').insert({ name: 'Old Store', domain: 'old.test', subdomain: 'oldstore', subscription_plan: 'pro', is_active: true, extra_domains: '[]', settings: '{"storeName":"Old Store"}', created_at: t, updated_at: t }, ['id']);
    const organizationId = org.id;
    const [bot] = await knex('bot_instances').insert({ organization_id: organizationId, name: 'Old widget', description: null, public_key: 'pk_old_store_key', is_active: true, created_at: t, updated_at: t }, ['id']);
    const [user] = await knex('users').insert({ organization_id: organizationId, email: 'agent@old.test', name: 'Old Agent', password_hash: passwordHash, role: 'admin', is_active: true, token_version: 0, created_at: t, updated_at: t }, ['id']);
    const [customer] = await knex('loyalty_customers').insert({ organization_id: organizationId, phone: '+15555550123', name: 'Old Member', email: 'm@old.test', loyalty_id: 'OLD-1', points: 777, created_at: t, updated_at: t }, ['id']);
    await knex('loyalty_orders').insert({ organization_id: organizationId, customer_id: customer.id, order_ref: 'OLD-1-1', product_name: 'Lamp', quantity: 1, price_cents: 1999, order_date: t });
    await knex('verification_codes').insert({ organization_id: organizationId, phone: '+15555550123', code_hash: 'x'.repeat(64), session_id: 'widget_old', ip: '10.0.0.1', attempts: 0, expires_at: t, consumed_at: t, created_at: t });
    await knex('widget_sessions').insert({ organization_id: organizationId, bot_instance_id: bot.id, session_id: 'widget_old', domain: 'old.test', verified_phone: '+15555550123', verified_at: t, created_at: t, last_seen_at: t });
    await knex('analytics_events').insert({ organization_id: organizationId, bot_instance_id: bot.id, session_id: 'widget_old', action: 'points_retrieved', phone_number: '+15555550123', success: true, points_retrieved: 777, domain: 'old.test', created_at: t });
    const chats = await knex('chat_sessions').insert([
        { organization_id: organizationId, bot_instance_id: bot.id, session_id: 'widget_old', phone_number: '+15555550123', status: 'completed', customer_message: 'first chat', domain: 'old.test', agent_user_id: user.id, last_seq: 1, is_starred: true, is_archived: false, created_at: t, updated_at: t },
        { organization_id: organizationId, bot_instance_id: bot.id, session_id: 'widget_old~2', phone_number: '+15555550123', status: 'agent_connected', customer_message: 'second chat', domain: 'old.test', agent_user_id: user.id, last_seq: 2, is_starred: false, is_archived: false, created_at: t, updated_at: t }
    ], ['id']);
    await knex('chat_messages').insert([
        { organization_id: organizationId, chat_session_id: chats[0].id, seq: 1, sender: 'customer', sender_user_id: null, message: 'first chat', client_message_id: 'initial', created_at: t },
        { organization_id: organizationId, chat_session_id: chats[1].id, seq: 1, sender: 'customer', sender_user_id: null, message: 'second chat', client_message_id: 'initial', created_at: t },
        { organization_id: organizationId, chat_session_id: chats[1].id, seq: 2, sender: 'agent', sender_user_id: user.id, message: 'hello again', client_message_id: 'a1', created_at: t }
    ]);
    await knex('agent_presence').insert({ user_id: user.id, organization_id: organizationId, available: true, connections: 0, last_seen_at: t });
    await knex('premade_questions').insert({ organization_id: organizationId, question: 'Old question?', answer: 'Old answer.', is_active: true, sort_order: 1, created_at: t, updated_at: t });
    await knex('knowledge_entries').insert({ organization_id: organizationId, title: 'Old entry', content: 'Old content', is_active: true, created_at: t, updated_at: t });
    await knex('ai_chat_history').insert({ organization_id: organizationId, session_id: 'widget_old', user_question: 'q', ai_response: 'a', is_resolved: false, created_at: t });
    await knex('ai_function_calls').insert({ organization_id: organizationId, session_id: 'widget_old', function_name: 'points', success: true, created_at: t });
    await knex('ai_agent_settings').insert({ organization_id: organizationId, is_enabled: true, updated_at: t });
    await knex('email_settings').insert({ organization_id: organizationId, email_notifications_enabled: true, email_recipient: 'boss@old.test', updated_at: t });
    await knex('sms_outbox').insert({ organization_id: organizationId, to_phone: '+15555550123', body: 'Your code', provider: 'outbox', status: 'stored', created_at: t });
    await knex('email_outbox').insert({ organization_id: organizationId, to_address: 'boss@old.test', subject: 'Transcript', body_text: 'text', transport: 'outbox', status: 'stored', created_at: t });
    return counts(knex);
}

const TABLES = [
    'organizations', 'bot_instances', 'users', 'loyalty_customers', 'loyalty_orders', 'verification_codes', 'widget_sessions',
    'analytics_events', 'chat_sessions', 'chat_messages', 'agent_presence', 'premade_questions', 'knowledge_entries',
    'ai_chat_history', 'ai_function_calls', 'ai_agent_settings', 'email_settings', 'sms_outbox', 'email_outbox'
];

async function counts(knex: KnexTypes): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const table of TABLES) {
        const row = await knex(table).count({ n: '*' }).first();
        out[table] = Number(row?.n ?? 0);
    }
    return out;
}

/**
 * A database made by loyalty-chat 0.1.0 (every table in core's one migration, '20260101000000-initial')
 * upgrades to the layout where each plugin owns its tables, with `loyalty-chat migrate latest`, keeping every
 * row; then it works like any other.
 */
describe('upgrading a 0.1.0 database to plugin-owned migrations', function () {
    this.timeout(120000);
    const dataDir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'lc-upgrade-'));
    const schema = `t_upgrade_${Crypto.randomBytes(4).toString('hex')}`;
    const env: Record<string, string> = {
        NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, SEED_DEMO_ON_EMPTY: 'false',
        JWT_SECRET: Crypto.randomBytes(32).toString('hex')
    };
    let knex: KnexTypes;
    let original: Record<string, number>;

    before(async () => {
        if (usingPostgres) {
            const admin = Knex({ client: 'pg', connection: process.env.DATABASE_URL });
            await admin.raw(`create schema "${schema}"`);
            await admin.destroy();
            env.DATABASE_URL = process.env.DATABASE_URL!;
            env.DATABASE_SCHEMA = schema;
            knex = Knex({ client: 'pg', connection: process.env.DATABASE_URL, searchPath: [schema] });
        }
        else {
            const file = Path.join(dataDir, 'old.sqlite');
            env.DATABASE_URL = `sqlite:${file}`;
            knex = Knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
        }
        await new Migrator(knex, [v010]).latest();
        original = await fill(knex, await hashPassword('old-password-1'));
    });
    after(async () => {
        await knex?.destroy();
        if (usingPostgres) {
            const admin = Knex({ client: 'pg', connection: process.env.DATABASE_URL });
            await admin.raw(`drop schema if exists "${schema}" cascade`);
            await admin.destroy();
        }
        Fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('starts from a real 0.1.0 database: one migration recorded, a row in every table', async () => {
        expect((await knex('knex_migrations').select('name')).map((r: { name: string }) => r.name)).to.deep.equal(['20260101000000-initial']);
        expect(Object.entries(original).filter(([, n]) => n === 0)).to.deep.equal([]);
    });

    it('upgrades with `migrate latest`: each plugin\'s migration is adopted, later ones run, every row is kept', async () => {
        const run = await runCli(['migrate', 'latest', '--json'], env);
        expect(run.code, run.stderr).to.equal(0);
        const applied = JSON.parse(run.stdout).applied as string[];
        expect(applied, 'only the migrations newer than 0.1.0 run').to.include('20261123000000-chat-widget-session');
        expect(applied.filter((name) => name.startsWith('20260101'))).to.deep.equal([]);

        const names = (await knex('knex_migrations').select('name').orderBy('name')).map((r: { name: string }) => r.name);
        expect(names).to.not.include('20260101000000-initial');
        for (const plugin of ['tenants', 'auth', 'loyalty', 'analytics', 'livechat', 'questions', 'ai']) {
            expect(names.some((name: string) => name.endsWith(`-${plugin}`)), plugin).to.equal(true);
        }
        expect(await counts(knex)).to.deep.equal(original);
        const chats = await knex('chat_sessions').select('session_id', 'widget_session_id').orderBy('session_id');
        expect(chats).to.deep.equal([
            { session_id: 'widget_old', widget_session_id: 'widget_old' },
            { session_id: 'widget_old~2', widget_session_id: 'widget_old' }
        ]);

        const status = await runCli(['migrate', 'status', '--json'], env);
        expect(JSON.parse(status.stdout).pending).to.deep.equal([]);
        const again = await runCli(['migrate', 'latest', '--json'], env);
        expect(JSON.parse(again.stdout).applied).to.deep.equal([]);
    });

    it('works like any database afterwards: the old agent signs in and finds the open chat of the old widget session', async () => {
        const users = await runCli(['user', 'list', '--json'], env);
        expect(JSON.parse(users.stdout).map((u: { email: string }) => u.email)).to.include('agent@old.test');
        const bots = await runCli(['bot', 'list', '--json'], env);
        expect(JSON.parse(bots.stdout).map((b: { publicKey: string }) => b.publicKey)).to.include('pk_old_store_key');
        const show = await runCli(['customers', 'show', '--org', 'oldstore', '+15555550123', '--json'], env);
        expect(show.code, show.stderr).to.equal(0);
        expect(JSON.parse(show.stdout)).to.include({ found: true, name: 'Old Member' });
    });

    it('rolls every migration back and forward again on the upgraded database', async () => {
        const rollback = await runCli(['migrate', 'rollback', '--json'], env);
        expect(rollback.code, rollback.stderr).to.equal(0);
        expect(JSON.parse(rollback.stdout).rolledBack).to.include('20261123000000-chat-widget-session');
        const latest = await runCli(['migrate', 'latest', '--json'], env);
        expect(latest.code, latest.stderr).to.equal(0);
        expect(await counts(knex)).to.deep.equal(original);
    });
});
