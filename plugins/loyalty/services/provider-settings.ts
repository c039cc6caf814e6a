import Boom from '@hapi/boom';
import Joi from 'joi';
import type { Logger } from 'pino';
import type { Db } from '../../../core/db';
import { SecretBox } from '../../../core/crypto/secret-box';
import type { Config } from '../../../config';
import { LoyaltyProviderSettingsModel } from '../models';
import { AlpineIqClient, AlpineIqLoyaltyProvider, AlpineIqSettings } from '../providers/alpineiq';
import { BuiltinLoyaltyProvider } from '../providers/builtin';
import { ProviderError } from '../providers/types';
import type { ResolvedProvider } from './loyalty-service';
import type { ProviderCheck, ProviderChoice, ProviderSettingsUpdate, ProviderSettingsView } from '../../../core/types/loyalty';

export type { ProviderCheck, ProviderChoice, ProviderSettingsUpdate, ProviderSettingsView };

/** PUT /api/super-admin/organizations/{id}/loyalty-provider. */
export const providerSettingsUpdate = Joi.object<ProviderSettingsUpdate>({
    provider: Joi.string().valid('default', 'builtin', 'alpineiq').required(),
    uid: Joi.string().trim().max(100).pattern(/^[A-Za-z0-9_.:-]+$/).allow(null, '')
        .messages({ 'string.pattern.base': 'The UID may hold letters, digits, and . _ : - only' }),
    baseUrl: Joi.string().trim().max(300).uri({ scheme: ['http', 'https'] }).allow(null, '')
        .messages({ 'string.uri': 'The base URL must be an http:// or https:// URL', 'string.uriCustomScheme': 'The base URL must be an http:// or https:// URL' }),
    apiKey: Joi.string().trim().min(8).max(500).pattern(/^[\x21-\x7e]+$/)
        .messages({ 'string.min': 'The API key must be at least 8 characters', 'string.pattern.base': 'The API key must be printable characters without spaces' })
}).label('loyalty provider settings');

const PURPOSE = 'loyalty-provider-api-key';

/**
 * Each organization's loyalty provider (loyalty_provider_settings): the built-in tables, or its own Alpine IQ
 * account (key, UID, base URL), else the server's variables. The key is sealed with a key derived from
 * JWT_SECRET and the organization id as additional data, and never leaves the server.
 */
export class ProviderSettingsService {
    private readonly box: SecretBox;
    private readonly builtin: ResolvedProvider;

    constructor(private readonly db: Db, private readonly config: Config, private readonly log: Logger) {
        this.box = new SecretBox(config.jwtSecret, PURPOSE);
        this.builtin = { provider: new BuiltinLoyaltyProvider(db), cacheKey: null };
    }

    private row(organizationId: number) {
        return LoyaltyProviderSettingsModel.query(this.db).findById(organizationId);
    }

    private serverAlpine(): AlpineIqSettings {
        return this.config.loyalty.alpineiq;
    }

    /** The organization's Alpine IQ account, from its row or the server's variables (the key opened). */
    private alpineOf(row: LoyaltyProviderSettingsModel | undefined): AlpineIqSettings {
        if (!row) {
            return this.serverAlpine();
        }
        let apiKey: string | null = null;
        if (row.apiKeySealed) {
            apiKey = this.box.open(row.apiKeySealed, String(row.organizationId));
            if (apiKey === null) {
                this.log.error({ organizationId: row.organizationId }, 'the stored loyalty provider key does not open (JWT_SECRET changed?)');
            }
        }
        return { apiKey, uid: row.uid, baseUrl: row.baseUrl ?? this.serverAlpine().baseUrl };
    }

    /** The provider of an organization now (read on every lookup, so every node sees a change at once). */
    async resolve(organizationId: number): Promise<ResolvedProvider> {
        const row = await this.row(organizationId);
        const provider = row?.provider ?? this.config.loyalty.provider;
        if (provider !== 'alpineiq') {
            return this.builtin;
        }
        const settings = this.alpineOf(row);
        return {
            provider: new AlpineIqLoyaltyProvider(async () => settings, this.config.loyalty.alpineiq.timeoutMs),
            cacheKey: row ? `org${row.updatedAt}` : 'env'
        };
    }

    private async requireOrganization(organizationId: number): Promise<void> {
        const org = await this.db('organizations').where({ id: organizationId }).first('id');
        if (!org) {
            throw Boom.notFound('Organization not found');
        }
    }

    private view(organizationId: number, row: LoyaltyProviderSettingsModel | undefined): ProviderSettingsView {
        const server = this.serverAlpine();
        return {
            organizationId,
            provider: row?.provider ?? 'default',
            effectiveProvider: row?.provider ?? this.config.loyalty.provider,
            uid: row?.uid ?? null,
            baseUrl: row?.baseUrl ?? null,
            hasApiKey: !!row?.apiKeySealed,
            serverDefault: { provider: this.config.loyalty.provider, uid: server.uid, baseUrl: server.baseUrl, hasApiKey: !!server.apiKey },
            updatedAt: row ? new Date(row.updatedAt).toISOString() : null
        };
    }

    async get(organizationId: number): Promise<ProviderSettingsView> {
        await this.requireOrganization(organizationId);
        return this.view(organizationId, await this.row(organizationId));
    }

    async update(organizationId: number, input: ProviderSettingsUpdate, updatedBy: number | null): Promise<ProviderSettingsView> {
        await this.requireOrganization(organizationId);
        return this.db.transaction(async (trx) => {
            const existing = await LoyaltyProviderSettingsModel.query(trx).findById(organizationId);
            if (input.provider === 'default') {
                await LoyaltyProviderSettingsModel.query(trx).deleteById(organizationId);
                return this.view(organizationId, undefined);
            }
            const uid = input.uid || null;
            const baseUrl = input.baseUrl ? input.baseUrl.replace(/\/+$/, '') : null;
            const apiKeySealed = input.apiKey ? this.box.seal(input.apiKey, String(organizationId)) : existing?.apiKeySealed ?? null;
            if (input.provider === 'alpineiq') {
                // The key travels in a header: in production only over TLS.
                if (baseUrl && this.config.env === 'production' && !baseUrl.startsWith('https://')) {
                    throw Boom.badRequest('The base URL must be an https:// URL in production');
                }
                if (!uid) {
                    throw Boom.badRequest('Alpine IQ needs the account UID');
                }
                if (!apiKeySealed) {
                    throw Boom.badRequest('Alpine IQ needs an API key');
                }
            }
            // A new updatedAt also names new cache keys: answers cached under the old settings are not used.
            const values = { provider: input.provider, uid, baseUrl, apiKeySealed, updatedBy, updatedAt: Math.max(Date.now(), (existing?.updatedAt ?? 0) + 1) };
            await LoyaltyProviderSettingsModel.query(trx).insert({ organizationId, ...values }).onConflict('organization_id').merge();
            return this.view(organizationId, await LoyaltyProviderSettingsModel.query(trx).findById(organizationId));
        });
    }

    /** Asks the organization's provider whether it accepts the settings (the built-in one always does). */
    async check(organizationId: number): Promise<ProviderCheck> {
        await this.requireOrganization(organizationId);
        const row = await this.row(organizationId);
        const provider = row?.provider ?? this.config.loyalty.provider;
        if (provider !== 'alpineiq') {
            return { ok: true, provider, message: 'The built-in provider needs no connection' };
        }
        const settings = this.alpineOf(row);
        if (!settings.apiKey || !settings.uid) {
            return { ok: false, provider, message: 'Alpine IQ needs an API key and the account UID' };
        }
        try {
            await new AlpineIqClient(settings, this.config.loyalty.alpineiq.timeoutMs).check();
            return { ok: true, provider, message: 'Alpine IQ accepted the API key' };
        }
        catch (err) {
            if (err instanceof ProviderError) {
                return { ok: false, provider, message: err.message };
            }
            throw err;
        }
    }
}
