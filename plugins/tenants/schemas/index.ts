import Joi from 'joi';
import { fields } from '../../../core/http/fields';

export const subdomain = Joi.string().lowercase().trim().pattern(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/)
    .messages({ 'string.pattern.base': '{{#label}} must be lowercase letters, digits and dashes (1-63 characters)' });
export const domain = Joi.string().lowercase().trim().hostname().max(253);
export const plan = Joi.string().trim().valid('free', 'basic', 'pro', 'enterprise');

export const organizationCreate = Joi.object({
    name: Joi.string().trim().min(1).max(200).required(),
    domain: domain.required(),
    subdomain: subdomain.required(),
    subscriptionPlan: plan.default('free'),
    extraDomains: Joi.array().items(domain).max(20).default([]),
    storeName: Joi.string().trim().max(100)
});

export const organizationUpdate = Joi.object({
    name: Joi.string().trim().min(1).max(200),
    domain,
    subdomain,
    subscriptionPlan: plan,
    extraDomains: Joi.array().items(domain).max(20),
    storeName: Joi.string().trim().max(100),
    isActive: Joi.boolean()
}).min(1);

export const botCreate = Joi.object({
    organizationId: fields.id.required(),
    name: Joi.string().trim().min(1).max(200).required(),
    description: Joi.string().trim().max(2000).allow('', null).default(null)
});

export const botUpdate = Joi.object({
    name: Joi.string().trim().min(1).max(200),
    description: Joi.string().trim().max(2000).allow('', null),
    isActive: Joi.boolean()
}).min(1);

export const role = Joi.string().valid('super_admin', 'admin', 'org_user');
export const email = Joi.string().trim().lowercase().email({ tlds: false }).max(320);
export const password = Joi.string().min(8).max(200)
    .messages({ 'string.min': '{{#label}} must be at least 8 characters' });

export const userCreate = Joi.object({
    email: email.required(),
    password: password.required(),
    role: role.required(),
    name: Joi.string().trim().max(200).allow('', null),
    organizationId: fields.id.allow(null).default(null)
});

export const userUpdate = Joi.object({
    name: Joi.string().trim().max(200).allow('', null),
    password,
    isActive: Joi.boolean()
}).min(1);
