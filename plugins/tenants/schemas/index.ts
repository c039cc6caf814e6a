import Joi from 'joi';
import { isSupportedCountry } from 'libphonenumber-js';
import { fields } from '../../../core/http/fields';

/** A new organization (POST /api/super-admin/organizations, `loyalty-chat org create`). */
export interface OrganizationCreate {
    name: string;
    domain: string;
    subdomain: string;
    subscriptionPlan?: string;
    extraDomains?: string[];
    storeName?: string;
    country?: string;
}

/** A change to an organization; isActive false revokes its users' tokens and closes their sockets. */
export interface OrganizationUpdate {
    name?: string;
    domain?: string;
    subdomain?: string;
    subscriptionPlan?: string;
    extraDomains?: string[];
    storeName?: string;
    country?: string;
    isActive?: boolean;
}

/** A new bot instance (POST /api/super-admin/bot-instances, `loyalty-chat bot create`). */
export interface BotInstanceCreate {
    organizationId: number;
    name: string;
    description?: string | null;
}

export interface BotInstanceUpdate {
    name?: string;
    description?: string | null;
    isActive?: boolean;
}

export const subdomain = Joi.string().lowercase().trim().pattern(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/)
    .messages({ 'string.pattern.base': '{{#label}} must be lowercase letters, digits and dashes (1-63 characters)' });
export const domain = fields.domain;
/** A country whose phone numbers libphonenumber knows (ISO 3166-1 alpha-2, e.g. US, ES, GB). */
export const country = Joi.string().trim().uppercase().length(2)
    .custom((value: string, helpers) => (isSupportedCountry(value) ? value : helpers.error('country.unknown')))
    .messages({ 'country.unknown': '{{#label}} must be a country code such as US, ES or GB', 'string.length': '{{#label}} must be a country code such as US, ES or GB' });
export const plan = Joi.string().trim().valid('free', 'basic', 'pro', 'enterprise');

export const organizationCreate = Joi.object<OrganizationCreate>({
    name: Joi.string().trim().min(1).max(200).required(),
    domain: domain.required(),
    subdomain: subdomain.required(),
    subscriptionPlan: plan.default('free'),
    extraDomains: Joi.array().items(domain).max(20).default([]),
    storeName: Joi.string().trim().max(100),
    country: country.default('US')
});

export const organizationUpdate = Joi.object<OrganizationUpdate>({
    name: Joi.string().trim().min(1).max(200),
    domain,
    subdomain,
    subscriptionPlan: plan,
    extraDomains: Joi.array().items(domain).max(20),
    storeName: Joi.string().trim().max(100),
    country,
    isActive: Joi.boolean()
}).min(1);

export const botCreate = Joi.object<BotInstanceCreate>({
    organizationId: fields.id.required(),
    name: Joi.string().trim().min(1).max(200).required(),
    description: Joi.string().trim().max(2000).allow('', null).default(null)
});

export const botUpdate = Joi.object<BotInstanceUpdate>({
    name: Joi.string().trim().min(1).max(200),
    description: Joi.string().trim().max(2000).allow('', null),
    isActive: Joi.boolean()
}).min(1);
