import { Model } from '../../../core/db/model';
import type { Role } from '../../../core/types/api';

/** A staff login (table `users`): a super admin (no organization), or an admin or org user of one organization. */
export class UserModel extends Model {
    static override tableName = 'users';
    static override booleanAttributes = ['isActive'];
    static override timestamps = { created: true, updated: true };

    id!: number;
    organizationId!: number | null;
    email!: string;
    name!: string | null;
    /** What customers call this agent (issue 23); null: the first name. */
    displayName!: string | null;
    language!: string | null;
    passwordHash!: string;
    role!: Role;
    isActive!: boolean;
    /** Bumped by a password change or a deactivation: every token signed with an earlier value is revoked. */
    tokenVersion!: number;
    lastLoginAt!: number | null;
    createdAt!: number;
    updatedAt!: number;
}
