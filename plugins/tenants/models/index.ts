import { BaseModel } from '../../../core/db/base-model';

export class OrganizationModel extends BaseModel {
    static override tableName = 'organizations';
    static override booleanColumns = ['is_active'];
    static override jsonColumnNames = ['extra_domains', 'settings'];
    id!: number;
    name!: string;
    domain!: string;
    subdomain!: string;
    subscription_plan!: string;
    is_active!: boolean;
    extra_domains!: string[] | null;
    settings!: Record<string, unknown> | null;
    created_at!: number;
    updated_at!: number;
}

export class BotInstanceModel extends BaseModel {
    static override tableName = 'bot_instances';
    static override booleanColumns = ['is_active'];
    id!: number;
    organization_id!: number;
    name!: string;
    description!: string | null;
    public_key!: string;
    is_active!: boolean;
    created_at!: number;
    updated_at!: number;
}

export class UserModel extends BaseModel {
    static override tableName = 'users';
    static override booleanColumns = ['is_active'];
    id!: number;
    organization_id!: number | null;
    email!: string;
    name!: string | null;
    password_hash!: string;
    role!: 'super_admin' | 'admin' | 'org_user';
    is_active!: boolean;
    token_version!: number;
    last_login_at!: number | null;
    created_at!: number;
    updated_at!: number;
}
