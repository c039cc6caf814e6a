import type Redis from 'ioredis';

export interface NodeCount { organizationId: number; count: number; last: number | null }

/** How long a node's published counts live: a node that stops refreshing drops out of the sums. */
export const NODE_TTL_SECONDS = 30;
export const REFRESH_MS = 10_000;

/**
 * Customer WebSocket counts across nodes (SPEC §3 'Websocket stats'): each node writes its own counts to one
 * Redis key with a 30 s TTL (and its id to a set of nodes); a reader sums the live keys. Without Redis there
 * is one node, and its counts are the answer.
 */
export class SocketCounts {
    constructor(private readonly redis: Redis | null, private readonly prefix: string, private readonly nodeId: string,
        private readonly local: () => NodeCount[]) {}

    private key(node: string): string {
        return `${this.prefix}:ws-counts:${node}`;
    }

    private get nodesKey(): string {
        return `${this.prefix}:ws-counts-nodes`;
    }

    /** Publishes this node's counts (every REFRESH_MS, and before each read). */
    async publish(): Promise<void> {
        if (!this.redis) {
            return;
        }
        const value = JSON.stringify(this.local());
        await this.redis.multi().set(this.key(this.nodeId), value, 'EX', NODE_TTL_SECONDS).sadd(this.nodesKey, this.nodeId).exec();
    }

    /** Removes this node's counts (shutdown). */
    async withdraw(): Promise<void> {
        if (this.redis) {
            await this.redis.multi().del(this.key(this.nodeId)).srem(this.nodesKey, this.nodeId).exec();
        }
    }

    /** The organization's customer sockets on every live node, and the latest connection time among them. */
    async total(organizationId: number): Promise<{ count: number; last: number | null }> {
        let lists: NodeCount[][] = [this.local()];
        if (this.redis) {
            try {
                await this.publish();
                const nodes = await this.redis.smembers(this.nodesKey);
                const values = nodes.length ? await this.redis.mget(...nodes.map((n) => this.key(n))) : [];
                const gone = nodes.filter((_, i) => values[i] === null);
                if (gone.length) {
                    await this.redis.srem(this.nodesKey, ...gone);
                }
                lists = values.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as NodeCount[]);
            }
            catch {
                // Redis down: this node's own counts (health says Redis is in error).
            }
        }
        let count = 0;
        let last: number | null = null;
        for (const entry of lists.flat().filter((e) => e.organizationId === organizationId)) {
            count += entry.count;
            last = entry.last !== null && (last === null || entry.last > last) ? entry.last : last;
        }
        return { count, last };
    }
}
