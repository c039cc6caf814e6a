import type { Server } from '@hapi/hapi';
import type { FeaturePlugin } from '../../core/types/feature';
import { PUBLIC } from '../../core/http/access';

async function checkDatabase(server: Server): Promise<'ok' | 'error'> {
    try {
        await server.app.db.raw('select 1');
        return 'ok';
    }
    catch {
        return 'error';
    }
}

async function checkRedis(server: Server): Promise<'ok' | 'error' | 'disabled'> {
    if (!server.app.redis) {
        return 'disabled';
    }
    try {
        const answer = await Promise.race([
            server.app.redis.ping(),
            new Promise<string>((_, reject) => setTimeout(() => reject(new Error('timeout')), 1000))
        ]);
        return answer === 'PONG' ? 'ok' : 'error';
    }
    catch {
        return 'error';
    }
}

const feature: FeaturePlugin = {
    plugin: {
        name: 'health',
        register(server: Server) {
            server.route({
                method: 'GET',
                path: '/health',
                options: { id: 'health.status.get', auth: PUBLIC, description: 'Liveness and dependencies' },
                handler: async (request, h) => {
                    const [db, redis] = await Promise.all([checkDatabase(server), checkRedis(server)]);
                    const ok = db === 'ok' && redis !== 'error';
                    return h.response({
                        status: ok ? 'ok' : 'error',
                        database: server.app.dbClient,
                        databaseStatus: db,
                        redis,
                        jobs: server.app.jobs.backend,
                        version: server.app.version
                    }).code(ok ? 200 : 503);
                }
            });
        }
    }
};

export default feature;
