import Boom from '@hapi/boom';
import type { Db } from '../../../core/db';
import { iso } from '../../../core/db/model';
import { hashPassword } from '../../../core/auth/passwords';
import type { BotInstance, Organization, StaffProfile, User } from '../../../core/types/api';
import { UserModel } from '../models/user';
import type { UserCreate, UserUpdate } from '../schemas';

export type { User };

/**
 * What the auth plugin asks of the organizations while serving: does one exist and is it active, which of
 * several are, and whose is a widget key. The tenants plugin plugs its service in (`users.useOrganizations`)
 * when it registers: it depends on auth (its routes use auth's strategies), so auth cannot depend on it.
 */
export interface OrganizationDirectory {
    getOrganization(id: number): Promise<Organization | null>;
    activeOrganizationIds(ids: number[]): Promise<Set<number>>;
    resolveWidgetKey(publicKey: string): Promise<{ bot: BotInstance; organization: Organization } | null>;
}

export interface UserServiceDeps {
    db: Db;
    /** Closes the open sockets of a user on every node (core/realtime), once their tokens are revoked. */
    revoke: (who: { userId: number }) => Promise<void>;
}

export function toUser(row: UserModel): User {
    return {
        id: row.id,
        email: row.email,
        name: row.name,
        displayName: row.displayName ?? null,
        role: row.role,
        organizationId: row.organizationId,
        isActive: row.isActive,
        lastLoginAt: iso(row.lastLoginAt),
        createdAt: iso(row.createdAt)
    };
}

/** 'Sam' from 'Sam Lee', else from 'sam.lee@store.test' the part before @ ('sam.lee'). */
export function firstName(name: string | null, email: string): string {
    const word = (name ?? '').trim().split(/\s+/)[0];
    return (word || email.split('@')[0]).slice(0, 40);
}

export function toProfile(row: UserModel): StaffProfile {
    return {
        id: row.id, email: row.email, name: row.name, displayName: row.displayName ?? null,
        shownName: row.displayName?.trim() || firstName(row.name, row.email),
        language: row.language ?? null
    };
}

/**
 * Staff logins (super admins, admins, organization users): created and changed by the super-admin API and the
 * CLI, read by the logins and the token checks. Input is validated by the caller (the route, or the CLI
 * command with the same schema).
 */
export class UserService {
    private readonly db: Db;

    private directory: OrganizationDirectory | null = null;

    constructor(private readonly deps: UserServiceDeps) {
        this.db = deps.db;
    }

    /** The tenants plugin plugs the organizations in while it registers (see OrganizationDirectory). */
    useOrganizations(directory: OrganizationDirectory): void {
        this.directory = directory;
    }

    /** The organizations (the auth plugin checks at start-up that a plugin plugged them in). */
    organizations(): OrganizationDirectory {
        if (!this.directory) {
            throw new Error('No plugin provided the organizations: register the tenants plugin too');
        }
        return this.directory;
    }

    async create(input: UserCreate): Promise<User> {
        const organizationId = input.organizationId ?? null;
        if (input.role === 'super_admin' && organizationId) {
            throw Boom.badRequest('A super_admin belongs to no organization');
        }
        if (input.role !== 'super_admin') {
            if (!organizationId) {
                throw Boom.badRequest(`A ${input.role} needs an organization`);
            }
            if (!await this.organizations().getOrganization(organizationId)) {
                throw Boom.notFound('Organization not found');
            }
        }
        if (await UserModel.query(this.db).findOne({ email: input.email })) {
            throw Boom.conflict(`A user with email ${input.email} already exists`);
        }
        const row = await UserModel.query(this.db).insertAndFetch({
            email: input.email,
            name: input.name || null,
            passwordHash: await hashPassword(input.password),
            role: input.role,
            organizationId,
            isActive: true,
            tokenVersion: 0
        });
        return toUser(row);
    }

    async list(filter: { organizationId?: number } = {}): Promise<User[]> {
        const query = UserModel.query(this.db).orderBy('id');
        if (filter.organizationId !== undefined) {
            query.where('organization_id', filter.organizationId);
        }
        return (await query).map(toUser);
    }

    async get(id: number): Promise<User> {
        return toUser(await UserModel.query(this.db).findById(id).throwIfNotFound({ message: 'User not found' }));
    }

    /** Changing the password or disabling a user bumps token_version, which revokes every token at once. */
    async update(id: number, input: UserUpdate): Promise<User> {
        const row = await UserModel.query(this.db).findById(id).throwIfNotFound({ message: 'User not found' });
        const { password, ...changes } = input;
        const revoke = password !== undefined || input.isActive === false;
        const updated = await UserModel.query(this.db).patchAndFetchById(id, {
            ...changes,
            ...(changes.name !== undefined ? { name: changes.name || null } : {}),
            ...(password !== undefined ? { passwordHash: await hashPassword(password) } : {}),
            ...(revoke ? { tokenVersion: row.tokenVersion + 1 } : {})
        });
        if (revoke) {
            await this.deps.revoke({ userId: id });
        }
        return toUser(updated);
    }

    /** The stored row with the password hash and token version: for the logins and the token checks only. */
    async findRecordByEmail(email: string): Promise<UserModel | undefined> {
        return UserModel.query(this.db).findOne({ email: email.trim().toLowerCase() });
    }

    async findRecordById(id: number): Promise<UserModel | undefined> {
        return UserModel.query(this.db).findById(id);
    }

    /** The stored rows of these users (token versions included), for the sockets' periodic credentials check. */
    async findRecordsByIds(ids: number[]): Promise<UserModel[]> {
        const rows: UserModel[] = [];
        for (let i = 0; i < ids.length; i += 500) {
            rows.push(...await UserModel.query(this.db).whereIn('id', ids.slice(i, i + 500)));
        }
        return rows;
    }

    /** Stores the same password hashed with today's parameters (after a successful login; tokens stay valid). */
    async rehashPassword(id: number, password: string): Promise<void> {
        await UserModel.query(this.db).findById(id).patch({ passwordHash: await hashPassword(password) });
    }

    /** Told after a user's profile changed (the live chat forgets the agent names it keeps). */
    private readonly profileListeners: Array<(user: User) => void> = [];

    onProfileChange(listener: (user: User) => void): void {
        this.profileListeners.push(listener);
    }

    /** The signed-in user's own profile: the name customers see is the display name, else the first name. */
    async profile(id: number): Promise<StaffProfile> {
        const row = await UserModel.query(this.db).findById(id).throwIfNotFound({ message: 'User not found' });
        return toProfile(row);
    }

    /** Sets (or, with an empty text, clears) the display name, and the language when given. Validated by the route. */
    async updateProfile(id: number, input: { displayName: string | null; language?: string | null }): Promise<StaffProfile> {
        const row = await UserModel.query(this.db).patchAndFetchById(id, {
            displayName: input.displayName?.trim() || null,
            ...(input.language !== undefined ? { language: input.language } : {})
        });
        if (!row) {
            throw Boom.notFound('User not found');
        }
        for (const listener of this.profileListeners) {
            listener(toUser(row));
        }
        return toProfile(row);
    }

    async touchLogin(id: number): Promise<void> {
        await UserModel.query(this.db).findById(id).patch({ lastLoginAt: Date.now() });
    }
}
