import Redis from 'ioredis';

/**
 * Deletes every key that starts with `prefix` (what one test file or one benchmark run left behind), with
 * SCAN rather than KEYS so a shared Redis is never blocked. Returns how many keys were deleted.
 */
export async function deleteKeysWithPrefix(url: string, prefix: string): Promise<number> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
    try {
        await redis.connect();
        let deleted = 0;
        let cursor = '0';
        do {
            const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
            cursor = next;
            if (keys.length) {
                deleted += await redis.del(...keys);
            }
        } while (cursor !== '0');
        return deleted;
    }
    finally {
        redis.disconnect();
    }
}
