import type { FeaturePlugin } from '../../core/types/feature';
import { KnowledgeEntryModel } from './models';
import { DEMO_KNOWLEDGE } from './demo-data';
import { migrations } from './migrations';

/**
 * The AI agent (SPEC §2 'AI question management', DESIGN §7). For now it owns its tables (knowledge entries,
 * chat history, tool calls, settings) and the demo store's knowledge; its routes and the agent follow.
 */
const feature: FeaturePlugin = {
    migrations,
    async seedDemo(server, organizationId) {
        const db = server.app.db;
        if (await KnowledgeEntryModel.query(db).where('organization_id', organizationId).first()) {
            return [];
        }
        await db.transaction(async (trx) => {
            for (const entry of DEMO_KNOWLEDGE) {
                await KnowledgeEntryModel.query(trx).insert({ organizationId, title: entry.title, content: entry.content, isActive: true });
            }
        });
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
