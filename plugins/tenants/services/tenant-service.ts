import * as Crypto from 'crypto';
import Boom from '@hapi/boom';
import type { Db } from '../../../core/db';
import { iso } from '../../../core/db/model';
import type { BotInstance, BotLook, Organization, StoreLanguages } from '../../../core/types/api';
import { SHIPPED_LANGUAGES } from '../../../core/shared/languages';
import { BotInstanceModel, OrganizationModel } from '../models';
import type { BotInstanceCreate, BotInstanceUpdate, OrganizationCreate, OrganizationUpdate } from '../schemas';

export type { BotInstance, Organization };

export function toOrganization(row: OrganizationModel): Organization {
    return {
        id: row.id,
        name: row.name,
        domain: row.domain,
        subdomain: row.subdomain,
        subscriptionPlan: row.subscriptionPlan,
        isActive: row.isActive,
        extraDomains: row.extraDomains ?? [],
        storeName: String(row.settings?.storeName ?? row.name),
        country: row.country ?? 'US',
        languages: storeLanguages(row.settings?.languages),
        createdAt: iso(row.createdAt)
    };
}

/** A store's languages as saved, kept to the shipped ones; none saved: every shipped language, English the default. */
export function storeLanguages(saved: { enabled?: unknown; default?: unknown } | undefined | null): StoreLanguages {
    const shipped: readonly string[] = SHIPPED_LANGUAGES;
    const enabled = Array.isArray(saved?.enabled) ? saved.enabled.filter((l): l is string => shipped.includes(l)) : [];
    if (!enabled.length) {
        return { enabled: [...SHIPPED_LANGUAGES], default: 'en' };
    }
    const fallback = typeof saved?.default === 'string' && enabled.includes(saved.default) ? saved.default : enabled[0];
    return { enabled, default: fallback };
}

export function embedSnippet(baseUrl: string, subdomain: string): string {
    return `<script src="${baseUrl.replace(/\/+$/, '')}/widget-${subdomain}.js" async></script>`;
}

/** Run inside the transaction that creates an organization (TenantService.onOrganizationCreated). */
export type OrganizationCreatedHook = (trx: Db, organization: Organization) => Promise<unknown>;

export interface TenantServiceDeps {
    db: Db;
    /** PUBLIC_URL: the base of embed snippets when set. */
    publicUrl: string | null;
    /**
     * The server's own address (http://localhost:PORT) for embed snippets made with neither PUBLIC_URL nor a
     * request to take the origin from (the CLI, the demo seed at the first start).
     */
    localUrl: () => string;
    /**
     * Closes the open sockets of an organization's users and customers on every node (core/realtime), once a
     * deactivation has made their tokens invalid.
     */
    revoke: (who: { organizationId: number }) => Promise<void>;
}

/**
 * Organizations and their bot instances: the tenants of loyalty-chat. Used by the CLI, the super-admin and
 * organization APIs, auth (a user's organization, the widget key → organization) and the other features.
 * Input is validated by the caller (the route, or the CLI command with the same schema).
 */
export class TenantService {
    private readonly db: Db;
    private readonly createdHooks: OrganizationCreatedHook[] = [];

    constructor(private readonly deps: TenantServiceDeps) {
        this.db = deps.db;
    }

    baseUrl(fallback?: string): string {
        return this.deps.publicUrl ?? fallback ?? this.deps.localUrl();
    }

    // ---- organizations ----

    private async refuseTakenSubdomain(subdomain: string): Promise<void> {
        const taken = await OrganizationModel.query(this.db).findOne({ subdomain });
        if (taken) {
            throw Boom.conflict(`Subdomain "${subdomain}" is already taken by organization "${taken.name}"`);
        }
    }

    /**
     * Registers a function run for every new organization inside the transaction that creates it (e.g. the
     * questions plugin gives it the default questions): when it throws, the organization is not created either.
     */
    onOrganizationCreated(fn: OrganizationCreatedHook): void {
        this.createdHooks.push(fn);
    }

    async createOrganization(input: OrganizationCreate): Promise<Organization> {
        await this.refuseTakenSubdomain(input.subdomain);
        const { storeName, ...organization } = input;
        return this.db.transaction(async (trx) => {
            const row = await OrganizationModel.query(trx).insertAndFetch({
                subscriptionPlan: 'free',
                extraDomains: [],
                ...organization,
                isActive: true,
                settings: storeName ? { storeName } : {}
            });
            const created = toOrganization(row);
            for (const hook of this.createdHooks) {
                await hook(trx, created);
            }
            return created;
        });
    }

    async listOrganizations(): Promise<Organization[]> {
        const rows = await OrganizationModel.query(this.db).orderBy('id');
        return rows.map(toOrganization);
    }

    async getOrganization(id: number): Promise<Organization | null> {
        const row = await OrganizationModel.query(this.db).findById(id);
        return row ? toOrganization(row) : null;
    }

    /** Which of these organizations exist and are active (the sockets' periodic credentials check). */
    async activeOrganizationIds(ids: number[]): Promise<Set<number>> {
        const active = new Set<number>();
        for (let i = 0; i < ids.length; i += 500) {
            const rows = await OrganizationModel.query(this.db).select('id').whereIn('id', ids.slice(i, i + 500)).where('is_active', true);
            rows.forEach((row) => active.add(row.id));
        }
        return active;
    }

    /** The IANA time zone of an organization's day and hour buckets (DESIGN §5); null when there is no such organization. */
    async timeZoneOf(id: number): Promise<string | null> {
        const row = await OrganizationModel.query(this.db).select('time_zone').findById(id);
        return row ? row.timeZone : null;
    }

    /** The store's country (ISO 3166-1 alpha-2) for phone numbers typed without a country code; null when there is no such organization. */
    async countryOf(id: number): Promise<string | null> {
        const row = await OrganizationModel.query(this.db).select('country').findById(id);
        return row ? row.country : null;
    }

    async getOrganizationBySubdomain(subdomain: string): Promise<Organization | null> {
        const row = await OrganizationModel.query(this.db).findOne({ subdomain: subdomain.toLowerCase() });
        return row ? toOrganization(row) : null;
    }

    async requireOrganizationBySubdomain(subdomain: string): Promise<Organization> {
        const row = await OrganizationModel.query(this.db).findOne({ subdomain: subdomain.toLowerCase() })
            .throwIfNotFound({ message: `No organization with subdomain "${subdomain}"` });
        return toOrganization(row);
    }

    async updateOrganization(id: number, input: OrganizationUpdate): Promise<Organization> {
        const row = await OrganizationModel.query(this.db).findById(id).throwIfNotFound({ message: 'Organization not found' });
        if (input.subdomain && input.subdomain !== row.subdomain) {
            await this.refuseTakenSubdomain(input.subdomain);
        }
        const { storeName, ...changes } = input;
        const updated = await OrganizationModel.query(this.db).patchAndFetchById(id, {
            ...changes,
            ...(storeName !== undefined ? { settings: { ...row.settings, storeName } } : {})
        });
        if (input.isActive === false) {
            await this.deps.revoke({ organizationId: id });
        }
        return toOrganization(updated);
    }

    async isEmpty(): Promise<boolean> {
        return await OrganizationModel.query(this.db).resultSize() === 0;
    }

    // ---- bot instances ----

    /** The API shape of a bot instance, with its organization (the relation, fetched with the bot). */
    private toBot(row: BotInstanceModel, baseUrl?: string): BotInstance {
        const organization = row.organization;
        return {
            id: row.id,
            name: row.name,
            description: row.description,
            organizationId: row.organizationId,
            organizationName: organization?.name,
            subdomain: organization?.subdomain,
            isActive: row.isActive,
            publicKey: row.publicKey,
            embedSnippet: organization ? embedSnippet(this.baseUrl(baseUrl), organization.subdomain) : '',
            look: {
                color: row.lookColor ?? null, position: row.lookPosition === 'left' ? 'left' : 'right', title: row.lookTitle ?? null, greeting: row.lookGreeting ?? null,
                texts: row.lookTexts ?? {},
                privacy: row.lookPrivacy ?? null,
                privacyUrl: row.lookPrivacyUrl ?? null
            },
            createdAt: iso(row.createdAt)
        };
    }

    private bots() {
        return BotInstanceModel.query(this.db).withGraphFetched('organization');
    }

    async createBotInstance(input: BotInstanceCreate, baseUrl?: string): Promise<BotInstance> {
        await OrganizationModel.query(this.db).findById(input.organizationId).throwIfNotFound({ message: 'Organization not found' });
        const row = await BotInstanceModel.query(this.db).insertAndFetch({
            organizationId: input.organizationId,
            name: input.name,
            description: input.description || null,
            publicKey: 'pk_' + Crypto.randomBytes(18).toString('base64url'),
            isActive: true
        });
        return this.toBot(await row.$fetchGraph('organization', { transaction: this.db }), baseUrl);
    }

    async listBotInstances(filter: { organizationId?: number } = {}, baseUrl?: string): Promise<BotInstance[]> {
        const query = this.bots().orderBy('id');
        if (filter.organizationId !== undefined) {
            query.where('organization_id', filter.organizationId);
        }
        return (await query).map((row) => this.toBot(row, baseUrl));
    }

    async getBotInstance(id: number, baseUrl?: string): Promise<BotInstance | null> {
        const row = await this.bots().findById(id);
        return row ? this.toBot(row, baseUrl) : null;
    }

    async updateBotInstance(id: number, input: BotInstanceUpdate, baseUrl?: string): Promise<BotInstance> {
        const row = await BotInstanceModel.query(this.db)
            .patchAndFetchById(id, {
                ...input,
                ...(input.description !== undefined ? { description: input.description || null } : {})
            })
            .throwIfNotFound({ message: 'Bot instance not found' });
        return this.toBot(await row.$fetchGraph('organization', { transaction: this.db }), baseUrl);
    }

    /** Sets the widget look of one of the organization's bot instances; another organization's answers 404. */
    async updateBotLook(organizationId: number, id: number, look: BotLook): Promise<BotInstance> {
        const row = await BotInstanceModel.query(this.db)
            .where('organization_id', organizationId)
            .patchAndFetchById(id, {
                lookColor: look.color, lookPosition: look.position, lookTitle: look.title, lookGreeting: look.greeting,
                lookTexts: look.texts && Object.keys(look.texts).length ? look.texts : null,
                lookPrivacy: look.privacy ?? null, lookPrivacyUrl: look.privacyUrl ?? null
            })
            .throwIfNotFound({ message: 'Bot instance not found' });
        return this.toBot(await row.$fetchGraph('organization', { transaction: this.db }));
    }

    /** Sets the languages the store's widget speaks and its default (checked by the route: shipped, default enabled). */
    async updateLanguages(organizationId: number, languages: StoreLanguages): Promise<StoreLanguages> {
        const row = await OrganizationModel.query(this.db).findById(organizationId).throwIfNotFound({ message: 'Organization not found' });
        const updated = await OrganizationModel.query(this.db).patchAndFetchById(organizationId, {
            settings: { ...row.settings, languages: { enabled: [...languages.enabled], default: languages.default } }
        });
        return storeLanguages(updated.settings?.languages);
    }

    /** The active bot instance and active organization behind a widget's public key, or null. */
    async resolveWidgetKey(publicKey: string): Promise<{ bot: BotInstance; organization: Organization } | null> {
        const row = await this.bots().findOne({ public_key: publicKey });
        if (!row || !row.isActive || !row.organization || !row.organization.isActive) {
            return null;
        }
        return { bot: this.toBot(row), organization: toOrganization(row.organization) };
    }
}
