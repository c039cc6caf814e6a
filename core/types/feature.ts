import type { Plugin, Server } from '@hapi/hapi';
import type { MigrationEntry } from '../db/migration-source';

/**
 * A feature of loyalty-chat: one hapi plugin, the migrations it owns, and optionally what it adds to the
 * demo tenant (`loyalty-chat seed --demo` and the first `serve` on an empty embedded database).
 */
export interface FeaturePlugin {
    plugin: Plugin<any>;
    migrations?: MigrationEntry[];
    /** Adds this feature's demo data to the demo organization; returns lines to print. Must be idempotent. */
    seedDemo?: (server: Server, organizationId: number) => Promise<string[] | void>;
}
