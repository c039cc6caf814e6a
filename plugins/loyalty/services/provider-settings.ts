import Boom from '@hapi/boom';
import Joi from 'joi';
import type { Logger } from 'pino';
import type { Db } from '../../../core/db';
import { SecretBox } from '../../../core/crypto/secret-box';
import { refusedHost } from '../../../core/http/outbound';
import type { Config } from '../../../config';
import type { Services } from '../../../core/types';
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

/** The check's one answer for every failure (issue 25): it must not tell what is at an address. Details: the log. */
export const CHECK_FAILED = 'The connection check failed. Check the base URL, the account UID and the API key; the server log has the details.';

/** The origin (scheme, host, port) a base URL sends to: what a stored key is bound to. */
export function originOf(baseUrl: string): string {
    return new URL(baseUrl).origin;
}

/**
 * The additional data a key is sealed with: its organization and the origin it may be sent to, so a sealed key
 * opens only for that host. (Keys stored before this binding were sealed with the organization alone: see
 * ProviderSettingsService.openKey.)
 */
function sealedFor(organizationId: number, origin: string): string {
    return `${organizationId} ${origin}`;
}

/**
 * Each organization's loyalty provider (loyalty_provider_settings): the built-in tables, or its own Alpine IQ
 * account (key, UID, base URL), else the server's variables. The key is sealed with a key derived from
 * JWT_SECRET, with the organization id and the origin of the base URL it was given for as additional data: it
 * opens only for that host, never leaves the server, and a base URL pointing elsewhere needs the key again.
 */
export class ProviderSettingsService {
    private readonly box: SecretBox;
    private readonly builtin: ResolvedProvider;

    constructor(private readonly db: Db, private readonly config: Config, private readonly log: Logger,
        /** The tenants plugin's organizations (a declared dependency): whether one exists. */
        private readonly organizations: Pick<Services['tenants'], 'getOrganization'>) {
        this.box = new SecretBox(config.jwtSecret, PURPOSE);
        this.builtin = { provider: new BuiltinLoyaltyProvider(db), cacheKey: null };
    }

    private row(organizationId: number) {
        return LoyaltyProviderSettingsModel.query(this.db).findById(organizationId);
    }

    private serverAlpine(): AlpineIqSettings {
        return this.config.loyalty.alpineiq;
    }

    /** Where a row's calls go: its base URL, else the server's ALPINEIQ_BASE_URL. */
    private baseUrlOf(row: Pick<LoyaltyProviderSettingsModel, 'baseUrl'> | undefined): string {
        return row?.baseUrl ?? this.serverAlpine().baseUrl;
    }

    /**
     * The stored key of an organization, for calls to `origin` only: null when it was sealed for another host (or
     * under another JWT_SECRET). A key sealed before keys were bound to hosts (the organization alone as additional
     * data) opens for the host the row points to now, and for no other: since then, changing the host needs the key.
     */
    private openKey(organizationId: number, sealed: string, origin: string, storedOrigin: string): string | null {
        return this.box.open(sealed, sealedFor(organizationId, origin))
            ?? (origin === storedOrigin ? this.box.open(sealed, String(organizationId)) : null);
    }

    /** The organization's Alpine IQ account, from its row or the server's variables (the key opened for its host). */
    private alpineOf(row: LoyaltyProviderSettingsModel | undefined): AlpineIqSettings {
        if (!row) {
            return this.serverAlpine();
        }
        const baseUrl = this.baseUrlOf(row);
        let apiKey: string | null = null;
        if (row.apiKeySealed) {
            const origin = originOf(baseUrl);
            apiKey = this.openKey(row.organizationId, row.apiKeySealed, origin, origin);
            if (apiKey === null) {
                this.log.error({ organizationId: row.organizationId, host: origin },
                    'the stored loyalty provider key does not open for this host (sealed for another host, or JWT_SECRET changed): it is not sent');
            }
        }
        return { apiKey, uid: row.uid, baseUrl };
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
            provider: new AlpineIqLoyaltyProvider(async () => settings, this.config.loyalty.alpineiq.timeoutMs, this.config.outbound),
            cacheKey: row ? `org${row.updatedAt}` : 'env'
        };
    }

    private async requireOrganization(organizationId: number): Promise<void> {
        const org = await this.organizations.getOrganization(organizationId);
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
        const uid = input.uid || null;
        const baseUrl = input.baseUrl ? input.baseUrl.replace(/\/+$/, '') : null;
        if (input.provider === 'alpineiq') {
            // The key travels in a header: in production only over TLS.
            if (baseUrl && this.config.env === 'production' && !baseUrl.startsWith('https://')) {
                throw Boom.badRequest('The base URL must be an https:// URL in production');
            }
            if (!uid) {
                throw Boom.badRequest('Alpine IQ needs the account UID');
            }
            // Checked at save too (and again on the address connected to, at every call): never a private host.
            const refused = baseUrl && this.config.outbound.refusePrivate ? await refusedHost(baseUrl) : null;
            if (refused) {
                throw Boom.badRequest(`The base URL must be a public address: ${refused}`);
            }
        }
        return this.db.transaction(async (trx) => {
            const existing = await LoyaltyProviderSettingsModel.query(trx).findById(organizationId);
            if (input.provider === 'default') {
                await LoyaltyProviderSettingsModel.query(trx).deleteById(organizationId);
                return this.view(organizationId, undefined);
            }
            // A key belongs to the host it was entered for (issue 25): a new host needs the key again.
            const origin = originOf(this.baseUrlOf({ baseUrl }));
            let apiKeySealed: string | null = null;
            if (input.apiKey) {
                apiKeySealed = this.box.seal(input.apiKey, sealedFor(organizationId, origin));
            }
            else if (existing?.apiKeySealed) {
                const storedOrigin = originOf(this.baseUrlOf(existing));
                const kept = this.openKey(organizationId, existing.apiKeySealed, origin, storedOrigin);
                if (kept !== null) {
                    // Sealed again for its host (a key stored before the binding gets it now).
                    apiKeySealed = this.box.seal(kept, sealedFor(organizationId, origin));
                }
                else if (input.provider === 'alpineiq') {
                    throw Boom.badRequest(`Enter the API key again: the base URL now points to ${origin}, not to ${storedOrigin} where the stored key belongs`);
                }
                // The built-in provider uses no key: one bound to another host is dropped.
            }
            if (input.provider === 'alpineiq' && !apiKeySealed) {
                throw Boom.badRequest('Alpine IQ needs an API key');
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
        // One answer for every failure (unreachable, refused address, timeout, wrong key...): the check must not
        // become a probe of what answers where. What happened goes to the log (never the key).
        const failed = (reason: string): ProviderCheck => {
            this.log.warn({ organizationId, host: originOf(settings.baseUrl), reason }, 'loyalty provider check failed');
            return { ok: false, provider, message: CHECK_FAILED };
        };
        const settings = this.alpineOf(row);
        if (!settings.apiKey || !settings.uid) {
            return failed('no API key (or none that opens for this host) or no account UID');
        }
        try {
            const refused = this.config.outbound.refusePrivate ? await refusedHost(settings.baseUrl) : null;
            if (refused) {
                return failed(`refused: ${refused}`);
            }
            await new AlpineIqClient(settings, this.config.loyalty.alpineiq.timeoutMs, this.config.outbound).check();
            return { ok: true, provider, message: 'Alpine IQ accepted the API key' };
        }
        catch (err) {
            if (err instanceof ProviderError) {
                return failed(err.message);
            }
            throw err;
        }
    }
}
