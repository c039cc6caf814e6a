import * as Crypto from 'crypto';
import Boom from '@hapi/boom';
import type { Db } from '../../../core/db';
import { iso, now } from '../../../core/db/base-model';
import { validate } from '../../../core/http/validate';
import { hashPassword } from '../../../core/auth/passwords';
import { BotInstanceModel, OrganizationModel, UserModel } from '../models';
import * as Schemas from '../schemas';
import type { BotInstance, Organization, User } from '../../../core/types/api';

export type { BotInstance, Organization, User };

export function toOrganization(row: OrganizationModel): Organization {
    return {
        id: row.id,
        name: row.name,
        domain: row.domain,
        subdomain: row.subdomain,
        subscriptionPlan: row.subscription_plan,
        isActive: row.is_active,
        extraDomains: row.extra_domains ?? [],
        storeName: String(row.settings?.storeName ?? row.name),
        createdAt: iso(row.created_at)
    };
}

export function toUser(row: UserModel): User {
    return {
        id: row.id,
        email: row.email,
        name: row.name,
        role: row.role,
        organizationId: row.organization_id,
        isActive: row.is_active,
        lastLoginAt: iso(row.last_login_at),
        createdAt: iso(row.created_at)
    };
}

export function embedSnippet(baseUrl: string, subdomain: string): string {
    return `<script src="${baseUrl.replace(/\/+$/, '')}/widget-${subdomain}.js" async></script>`;
}

/**
 * Organizations, bot instances and users: the tenants of loyalty-chat. Used by the CLI, the super-admin
 * and organization APIs, auth and the widget (bot key → organization).
 */
export class TenantService {
    /**
     * `localUrl` gives the server's own address (http://localhost:PORT) for embed snippets made with neither
     * PUBLIC_URL nor a request to take the origin from (the CLI, the demo seed at the first start); `revoke`
     * closes the open sockets of a user or an organization on every node (core/realtime), after a deactivation
     * or a password change has made their tokens invalid.
     */
    constructor(private readonly db: Db, private readonly publicUrl: string | null, private readonly localUrl: () => string,
        private readonly revoke: (who: { userId?: number; organizationId?: number }) => Promise<void> = async () => undefined) {}

    baseUrl(fallback?: string): string {
        return this.publicUrl ?? fallback ?? this.localUrl();
    }

    // ---- organizations ----

    async createOrganization(input: unknown): Promise<Organization> {
        const v = validate<{ name: string; domain: string; subdomain: string; subscriptionPlan: string; extraDomains: string[]; storeName?: string }>(Schemas.organizationCreate, input);
        const taken = await OrganizationModel.query(this.db).findOne({ subdomain: v.subdomain });
        if (taken) {
            throw Boom.conflict(`Subdomain "${v.subdomain}" is already taken by organization "${taken.name}"`);
        }
        const t = now();
        const row = await OrganizationModel.query(this.db).insertAndFetch({
            name: v.name,
            domain: v.domain,
            subdomain: v.subdomain,
            subscription_plan: v.subscriptionPlan,
            is_active: true,
            extra_domains: v.extraDomains,
            settings: v.storeName ? { storeName: v.storeName } : {},
            created_at: t,
            updated_at: t
        });
        return toOrganization(row);
    }

    async listOrganizations(): Promise<Organization[]> {
        const rows = await OrganizationModel.query(this.db).orderBy('id');
        return rows.map(toOrganization);
    }

    async getOrganization(id: number): Promise<Organization | null> {
        const row = await OrganizationModel.query(this.db).findById(id);
        return row ? toOrganization(row) : null;
    }

    async getOrganizationBySubdomain(subdomain: string): Promise<Organization | null> {
        const row = await OrganizationModel.query(this.db).findOne({ subdomain: subdomain.toLowerCase() });
        return row ? toOrganization(row) : null;
    }

    async requireOrganizationBySubdomain(subdomain: string): Promise<Organization> {
        const org = await this.getOrganizationBySubdomain(subdomain);
        if (!org) {
            throw Boom.notFound(`No organization with subdomain "${subdomain}"`);
        }
        return org;
    }

    async updateOrganization(id: number, input: unknown): Promise<Organization> {
        const v = validate<Record<string, any>>(Schemas.organizationUpdate, input);
        const row = await OrganizationModel.query(this.db).findById(id);
        if (!row) {
            throw Boom.notFound('Organization not found');
        }
        if (v.subdomain && v.subdomain !== row.subdomain) {
            const taken = await OrganizationModel.query(this.db).findOne({ subdomain: v.subdomain });
            if (taken) {
                throw Boom.conflict(`Subdomain "${v.subdomain}" is already taken by organization "${taken.name}"`);
            }
        }
        const patch: Partial<OrganizationModel> = { updated_at: now() };
        if (v.name !== undefined) patch.name = v.name;
        if (v.domain !== undefined) patch.domain = v.domain;
        if (v.subdomain !== undefined) patch.subdomain = v.subdomain;
        if (v.subscriptionPlan !== undefined) patch.subscription_plan = v.subscriptionPlan;
        if (v.extraDomains !== undefined) patch.extra_domains = v.extraDomains;
        if (v.isActive !== undefined) patch.is_active = v.isActive;
        if (v.storeName !== undefined) patch.settings = { ...(row.settings ?? {}), storeName: v.storeName };
        const updated = await OrganizationModel.query(this.db).patchAndFetchById(id, patch);
        if (v.isActive === false) {
            await this.revoke({ organizationId: id });
        }
        return toOrganization(updated);
    }

    // ---- bot instances ----

    private async toBot(row: BotInstanceModel, baseUrl?: string, org?: Organization | null): Promise<BotInstance> {
        const organization = org ?? await this.getOrganization(row.organization_id);
        return {
            id: row.id,
            name: row.name,
            description: row.description,
            organizationId: row.organization_id,
            organizationName: organization?.name,
            subdomain: organization?.subdomain,
            isActive: row.is_active,
            publicKey: row.public_key,
            embedSnippet: organization ? embedSnippet(this.baseUrl(baseUrl), organization.subdomain) : '',
            createdAt: iso(row.created_at)
        };
    }

    async createBotInstance(input: unknown, baseUrl?: string): Promise<BotInstance> {
        const v = validate<{ organizationId: number; name: string; description: string | null }>(Schemas.botCreate, input);
        const org = await this.getOrganization(v.organizationId);
        if (!org) {
            throw Boom.notFound('Organization not found');
        }
        const t = now();
        const row = await BotInstanceModel.query(this.db).insertAndFetch({
            organization_id: org.id,
            name: v.name,
            description: v.description || null,
            public_key: 'pk_' + Crypto.randomBytes(18).toString('base64url'),
            is_active: true,
            created_at: t,
            updated_at: t
        });
        return this.toBot(row, baseUrl, org);
    }

    async listBotInstances(filter: { organizationId?: number } = {}, baseUrl?: string): Promise<BotInstance[]> {
        const query = BotInstanceModel.query(this.db).orderBy('id');
        if (filter.organizationId !== undefined) {
            query.where('organization_id', filter.organizationId);
        }
        const rows = await query;
        const orgs = new Map((await this.listOrganizations()).map((o) => [o.id, o]));
        return Promise.all(rows.map((row) => this.toBot(row, baseUrl, orgs.get(row.organization_id) ?? null)));
    }

    async getBotInstance(id: number, baseUrl?: string): Promise<BotInstance | null> {
        const row = await BotInstanceModel.query(this.db).findById(id);
        return row ? this.toBot(row, baseUrl) : null;
    }

    async updateBotInstance(id: number, input: unknown, baseUrl?: string): Promise<BotInstance> {
        const v = validate<Record<string, any>>(Schemas.botUpdate, input);
        const row = await BotInstanceModel.query(this.db).findById(id);
        if (!row) {
            throw Boom.notFound('Bot instance not found');
        }
        const patch: Partial<BotInstanceModel> = { updated_at: now() };
        if (v.name !== undefined) patch.name = v.name;
        if (v.description !== undefined) patch.description = v.description || null;
        if (v.isActive !== undefined) patch.is_active = v.isActive;
        return this.toBot(await BotInstanceModel.query(this.db).patchAndFetchById(id, patch), baseUrl);
    }

    /** The active bot instance and active organization behind a widget's public key, or null. */
    async resolveWidgetKey(publicKey: string): Promise<{ bot: BotInstance; organization: Organization } | null> {
        const row = await BotInstanceModel.query(this.db).findOne({ public_key: publicKey });
        if (!row || !row.is_active) {
            return null;
        }
        const organization = await this.getOrganization(row.organization_id);
        if (!organization || !organization.isActive) {
            return null;
        }
        return { bot: await this.toBot(row, undefined, organization), organization };
    }

    // ---- users ----

    async createUser(input: unknown): Promise<User> {
        const v = validate<{ email: string; password: string; role: User['role']; name?: string | null; organizationId: number | null }>(Schemas.userCreate, input);
        if (v.role === 'super_admin' && v.organizationId) {
            throw Boom.badRequest('A super_admin belongs to no organization');
        }
        if (v.role !== 'super_admin') {
            if (!v.organizationId) {
                throw Boom.badRequest(`A ${v.role} needs an organization`);
            }
            if (!await this.getOrganization(v.organizationId)) {
                throw Boom.notFound('Organization not found');
            }
        }
        if (await UserModel.query(this.db).findOne({ email: v.email })) {
            throw Boom.conflict(`A user with email ${v.email} already exists`);
        }
        const t = now();
        const row = await UserModel.query(this.db).insertAndFetch({
            email: v.email,
            name: v.name || null,
            password_hash: await hashPassword(v.password),
            role: v.role,
            organization_id: v.role === 'super_admin' ? null : v.organizationId,
            is_active: true,
            token_version: 0,
            created_at: t,
            updated_at: t
        });
        return toUser(row);
    }

    async listUsers(filter: { organizationId?: number } = {}): Promise<User[]> {
        const query = UserModel.query(this.db).orderBy('id');
        if (filter.organizationId !== undefined) {
            query.where('organization_id', filter.organizationId);
        }
        return (await query).map(toUser);
    }

    async getUser(id: number): Promise<User | null> {
        const row = await UserModel.query(this.db).findById(id);
        return row ? toUser(row) : null;
    }

    /** The stored row with the password hash and token version: for auth only. */
    async findUserRecordByEmail(email: string): Promise<UserModel | undefined> {
        return UserModel.query(this.db).findOne({ email: email.trim().toLowerCase() });
    }

    async findUserRecordById(id: number): Promise<UserModel | undefined> {
        return UserModel.query(this.db).findById(id);
    }

    async touchLogin(id: number): Promise<void> {
        await UserModel.query(this.db).patch({ last_login_at: now() }).where('id', id);
    }

    /** Changing the password or disabling a user bumps token_version, which revokes every token at once. */
    async updateUser(id: number, input: unknown): Promise<User> {
        const v = validate<{ name?: string | null; password?: string; isActive?: boolean }>(Schemas.userUpdate, input);
        const row = await UserModel.query(this.db).findById(id);
        if (!row) {
            throw Boom.notFound('User not found');
        }
        const patch: Partial<UserModel> = { updated_at: now() };
        let revoke = false;
        if (v.name !== undefined) patch.name = v.name || null;
        if (v.password !== undefined) {
            patch.password_hash = await hashPassword(v.password);
            revoke = true;
        }
        if (v.isActive !== undefined) {
            patch.is_active = v.isActive;
            revoke = revoke || !v.isActive;
        }
        if (revoke) {
            patch.token_version = row.token_version + 1;
        }
        const updated = await UserModel.query(this.db).patchAndFetchById(id, patch);
        if (revoke) {
            await this.revoke({ userId: id });
        }
        return toUser(updated);
    }

    async isEmpty(): Promise<boolean> {
        const row = await this.db('organizations').count({ n: '*' }).first();
        return Number(row?.n ?? 0) === 0;
    }
}
