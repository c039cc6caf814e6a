import Boom from '@hapi/boom';
import Joi from 'joi';
import type { ReqRef, Request, Server } from '@hapi/hapi';
import { allow } from '../../../core/http/access';
import { staffOf } from '../../../core/http/callers';
import { fields } from '../../../core/http/fields';
import { csvLine } from '../../../core/shared/csv';
import type { PersonQuery, PrivacyService, RetentionPolicy } from '../services/privacy-service';
import { RETENTION_KINDS } from '../../../core/shared/retention';

interface PersonPayload extends PersonQuery {
    organizationId?: number;
    confirm?: boolean;
}

const person = {
    organizationId: fields.id.description('the store (super admins; an admin\'s is always their own)'),
    phone: fields.phone.allow(null, ''),
    email: Joi.string().trim().lowercase().email({ tlds: false }).max(320).allow(null, '')
        .messages({ 'string.email': 'Please enter a valid email address' })
};
const personPayload = Joi.object<PersonPayload>(person).or('phone', 'email')
    .messages({ 'object.missing': 'Give the customer\'s phone number or email address' });

/**
 * The store a request acts in: an admin's own (any other id: 404, as if it did not exist); a super admin names it.
 */
function storeOf<Refs extends ReqRef>(request: Request<Refs>, asked: number | undefined): number {
    const staff = staffOf(request);
    if (staff.role === 'super_admin') {
        if (asked === undefined) {
            throw Boom.badRequest('organizationId is required');
        }
        return asked;
    }
    if (staff.organizationId === null || (asked !== undefined && asked !== staff.organizationId)) {
        throw Boom.notFound('Organization not found');
    }
    return staff.organizationId;
}

const AUDIT_COLUMNS = ['id', 'createdAt', 'organizationId', 'actorUserId', 'actorEmail', 'actorRole', 'action', 'target', 'subjectHash', 'details', 'ip'] as const;

export function registerPrivacyRoutes(server: Server, service: PrivacyService): void {
    const audit = server.app.audit;

    server.route<{ Payload: PersonPayload }>({
        method: 'POST',
        path: '/api/privacy/customers/find',
        options: {
            id: 'privacy.customer.find',
            auth: allow('admin', 'super_admin'),
            description: 'What the store keeps about one customer (by phone and/or email): rows by table, and what lives outside',
            validate: { payload: personPayload },
            handler: async (request) => {
                const organizationId = storeOf(request, request.payload.organizationId);
                return service.find(organizationId, request.payload);
            }
        }
    });

    server.route<{ Payload: PersonPayload }>({
        method: 'POST',
        path: '/api/privacy/customers/export',
        options: {
            id: 'privacy.customer.export',
            auth: allow('admin', 'super_admin'),
            description: 'Everything the store keeps about one customer, as one JSON file (right of access); audited',
            validate: { payload: personPayload },
            handler: async (request, h) => {
                const organizationId = storeOf(request, request.payload.organizationId);
                const document = await service.export(organizationId, request.payload);
                const rows = Object.values(document.data).reduce((n, r) => n + r.length, 0);
                await audit.fromRequest(request, {
                    organizationId, action: 'customers.export', subject: document.person, details: { rows, tables: Object.values(document.data).filter((r) => r.length).length }
                });
                const day = document.exportedAt.slice(0, 10);
                return h.response(JSON.stringify(document, null, 2))
                    .type('application/json; charset=utf-8')
                    .header('content-disposition', `attachment; filename="customer-export-${day}.json"`)
                    .header('cache-control', 'no-store');
            }
        }
    });

    server.route<{ Payload: PersonPayload }>({
        method: 'POST',
        path: '/api/privacy/customers/erase',
        options: {
            id: 'privacy.customer.erase',
            auth: allow('admin', 'super_admin'),
            description: 'Erases everything the store keeps about one customer (right to erasure), all or nothing; audited',
            validate: {
                payload: personPayload.keys({
                    confirm: Joi.boolean().valid(true).required()
                        .messages({ 'any.required': 'Erasing cannot be undone: confirm it (confirm: true)', 'any.only': 'Erasing cannot be undone: confirm it (confirm: true)' })
                })
            },
            handler: async (request) => {
                const organizationId = storeOf(request, request.payload.organizationId);
                const found = await service.person(organizationId, request.payload);
                const result = await service.erase(found);
                await audit.fromRequest(request, {
                    organizationId, action: 'customers.erase', subject: found, details: { rows: result.total, tables: Object.keys(result.erased).length }
                });
                return result;
            }
        }
    });

    server.route<{ Query: { organizationId?: number; action?: string; subject?: string; actorUserId?: number; from?: string; to?: string; limit: number; offset: number; format: 'json' | 'csv' } }>({
        method: 'GET',
        path: '/api/privacy/audit',
        options: {
            id: 'privacy.audit.list',
            auth: allow('admin', 'super_admin'),
            description: 'The audit trail, newest first: a store\'s admins read their store\'s, super admins every store\'s; CSV with format=csv',
            validate: {
                query: Joi.object({
                    organizationId: fields.id,
                    action: Joi.string().trim().max(60).pattern(/^[a-z_.]+$/).messages({ 'string.pattern.base': 'action must be like customers.erase or customers' }),
                    subject: Joi.string().trim().hex().max(64),
                    actorUserId: fields.id,
                    from: Joi.date().iso(),
                    to: Joi.date().iso(),
                    limit: Joi.number().integer().min(1).max(1000).default(100),
                    offset: Joi.number().integer().min(0).max(1_000_000).default(0),
                    format: Joi.string().valid('json', 'csv').default('json')
                })
            },
            handler: async (request, h) => {
                const staff = staffOf(request);
                const q = request.query;
                const organizationId = staff.role === 'super_admin' ? q.organizationId : storeOf(request, q.organizationId);
                const result = await service.auditLog({
                    organizationId, action: q.action, subject: q.subject, actorUserId: q.actorUserId,
                    from: q.from ? new Date(q.from).getTime() : undefined, to: q.to ? new Date(q.to).getTime() : undefined,
                    limit: q.format === 'csv' ? 100_000 : q.limit, offset: q.format === 'csv' ? 0 : q.offset
                });
                if (q.format === 'csv') {
                    const lines = [csvLine([...AUDIT_COLUMNS]), ...result.rows.map((r) => csvLine(AUDIT_COLUMNS.map((c) => r[c])))];
                    return h.response(lines.join(''))
                        .type('text/csv; charset=utf-8')
                        .header('content-disposition', 'attachment; filename="audit-log.csv"');
                }
                return result;
            }
        }
    });

    const days = Joi.number().integer().min(1).max(36500).allow(null)
        .messages({ 'number.base': '{{#label}} must be a number of days, or null for forever', 'number.min': '{{#label}} must be at least 1 day' });
    server.route({
        method: 'GET',
        path: '/api/privacy/retention',
        options: {
            id: 'privacy.retention.get',
            auth: allow('admin'),
            description: 'How many days the store keeps each kind of data (null: forever), and the defaults',
            handler: (request) => service.retention(storeOf(request, undefined))
        }
    });
    server.route<{ Payload: Partial<RetentionPolicy> }>({
        method: 'PUT',
        path: '/api/privacy/retention',
        options: {
            id: 'privacy.retention.update',
            auth: allow('admin'),
            plugins: { audit: { action: 'settings.retention.update' } },
            description: 'Sets how many days the store keeps each kind of data (null: forever); the daily job deletes what is older',
            validate: { payload: Joi.object(Object.fromEntries(RETENTION_KINDS.map((k) => [k, days]))).min(1).required() },
            handler: (request) => service.setRetention(storeOf(request, undefined), request.payload)
        }
    });
}
