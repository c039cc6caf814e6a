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

/** A hung Redis (connection open, nothing answered) is an error after this long. */
const REDIS_PING_TIMEOUT_MS = 500;

async function checkRedis(server: Server): Promise<'ok' | 'error' | 'disabled'> {
    const redis = server.app.redis;
    if (!redis) {
        return 'disabled';
    }
    if (['close', 'reconnecting', 'end'].includes(redis.status)) {
        return 'error';             // the connection is down: no need to wait for a PING to say so
    }
    let timer: NodeJS.Timeout | undefined;
    try {
        const answer = await Promise.race([
            redis.ping(),
            new Promise<string>((_, reject) => {
                timer = setTimeout(() => reject(new Error('timeout')), REDIS_PING_TIMEOUT_MS);
            })
        ]);
        return answer === 'PONG' ? 'ok' : 'error';
    }
    catch {
        return 'error';
    }
    finally {
        clearTimeout(timer);
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
