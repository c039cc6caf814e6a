import type { FeaturePlugin } from '../../core/types/feature';
import { now } from '../../core/db/base-model';
import baseline from './migrations/20260101000006-ai';
import { DEMO_KNOWLEDGE } from './demo-data';

/**
 * The AI agent (SPEC §2 'AI question management', DESIGN §7). For now it owns its tables (knowledge entries,
 * chat history, tool calls, settings) and the demo store's knowledge; its routes and the agent follow.
 */
const feature: FeaturePlugin = {
    migrations: [baseline],
    async seedDemo(server, organizationId) {
        const db = server.app.db;
        if (await db('knowledge_entries').where('organization_id', organizationId).first()) {
            return [];
        }
        const t = now();
        await db('knowledge_entries').insert(DEMO_KNOWLEDGE.map((k) => ({
            organization_id: organizationId, title: k.title, content: k.content, is_active: true, created_at: t, updated_at: t
        })));
        return [`Created ${DEMO_KNOWLEDGE.length} knowledge entries`];
    },
    plugin: {
        name: 'ai',
        dependencies: ['tenants'],
        register() {
            // Routes and services come with the AI agent.
        }
    }
};

export default feature;
