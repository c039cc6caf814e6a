import Joi from 'joi';
import { fields } from '../../core/http/fields';
import type { Role } from '../../core/types/api';

/** A new staff login: the role's organization is required for admin and org_user, none for a super admin. */
export interface UserCreate {
    email: string;
    password: string;
    role: Role;
    name?: string | null;
    organizationId?: number | null;
}

/** A change to a staff login: a new password or isActive false revokes every token of that user. */
export interface UserUpdate {
    name?: string | null;
    password?: string;
    isActive?: boolean;
}

export const role = Joi.string().valid('super_admin', 'admin', 'org_user');
export const email = Joi.string().trim().lowercase().email({ tlds: false }).max(320);
export const password = Joi.string().min(8).max(200)
    .messages({ 'string.min': '{{#label}} must be at least 8 characters' });

/** POST /api/super-admin/users and `loyalty-chat user create`. */
export const userCreate = Joi.object<UserCreate>({
    email: email.required(),
    password: password.required(),
    role: role.required(),
    name: Joi.string().trim().max(200).allow('', null),
    organizationId: fields.id.allow(null).default(null)
});

/** PATCH /api/super-admin/users/{id}. */
export const userUpdate = Joi.object<UserUpdate>({
    name: Joi.string().trim().max(200).allow('', null),
    password,
    isActive: Joi.boolean()
}).min(1);

/** The three login routes' payload. */
export const loginPayload = Joi.object<{ email: string; password: string }>({
    email: Joi.string().trim().email({ tlds: false }).max(320).required(),
    password: Joi.string().min(1).max(200).required()
});
