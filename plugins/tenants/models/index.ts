import { Model } from '../../../core/db/model';

/** A tenant: one retail brand, with its store's domains (CORS, analytics) and the subdomain of its widget script. */
export class OrganizationModel extends Model {
    static override tableName = 'organizations';
    static override booleanAttributes = ['isActive'];
    static override jsonAttributes = ['extraDomains', 'settings'];
    static override timestamps = { created: true, updated: true };

    id!: number;
    name!: string;
    domain!: string;
    subdomain!: string;
    subscriptionPlan!: string;
    isActive!: boolean;
    /** Further registered domains of the store's pages (JSON array). */
    extraDomains!: string[] | null;
    /** JSON: the store name the widget shows, branding. */
    settings!: { storeName?: string; languages?: { enabled: string[]; default: string } } | null;
    /** IANA time zone of the store's day and hour buckets (default America/New_York). */
    timeZone!: string;
    /** ISO 3166-1 alpha-2 country of the store (default US): phone numbers typed without a country code are read in it. */
    country!: string;
    createdAt!: number;
    updatedAt!: number;
}

/** An embedded widget of an organization, known to the widget by its public key. */
export class BotInstanceModel extends Model {
    static override tableName = 'bot_instances';
    static override booleanAttributes = ['isActive'];
    static override timestamps = { created: true, updated: true };
    static override jsonAttributes = ['lookTexts'];

    id!: number;
    organizationId!: number;
    name!: string;
    description!: string | null;
    publicKey!: string;
    isActive!: boolean;
    lookColor!: string | null;
    lookPosition!: 'left' | 'right';
    lookTitle!: string | null;
    lookGreeting!: string | null;
    lookTexts!: Record<string, { title: string | null; greeting: string | null; privacy?: string | null }> | null;
    lookPrivacy!: string | null;
    lookPrivacyUrl!: string | null;
    createdAt!: number;
    updatedAt!: number;
    organization?: OrganizationModel;

    static override get relationMappings() {
        return {
            organization: {
                relation: Model.BelongsToOneRelation,
                modelClass: OrganizationModel,
                join: { from: 'bot_instances.organization_id', to: 'organizations.id' }
            }
        };
    }
}
