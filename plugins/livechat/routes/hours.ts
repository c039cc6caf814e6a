import Joi from 'joi';
import type { ServerRoute } from '@hapi/hapi';
import { allow } from '../../../core/http/access';
import { adminOf } from '../../../core/http/callers';
import { CLOSING_TIME, isLocalDate, SupportHours, TIME_OF_DAY, WHEN_CLOSED } from '../../../core/shared/support-hours';
import type { HoursService } from '../services/hours-service';

const time = (pattern: RegExp, example: string) => Joi.string().pattern(pattern)
    .messages({ 'string.pattern.base': `{{#label}} must be a time of day such as ${example}` });

const localDate = Joi.string().custom((value: string, helpers) => (isLocalDate(value) ? value : helpers.error('date.local')))
    .messages({ 'date.local': '{{#label}} must be a calendar date YYYY-MM-DD' });

const DAY_RANGE = '{{#label}} must be 0 (Sunday) to 6 (Saturday)';

/** PUT /api/chat/business-hours (issue 26): the whole schedule, replaced at once. */
export const supportHoursPayload = Joi.object({
    weekly: Joi.array().max(70).items(Joi.object({
        day: Joi.number().integer().min(0).max(6).required()
            .messages({ 'number.base': DAY_RANGE, 'number.min': DAY_RANGE, 'number.max': DAY_RANGE, 'number.integer': DAY_RANGE }),
        open: time(TIME_OF_DAY, '09:00').required(),
        close: time(CLOSING_TIME, '17:30 (or 24:00)').required()
    })).required(),
    exceptions: Joi.array().max(400).items(Joi.object({
        date: localDate.required(),
        closed: Joi.boolean().valid(true).messages({ 'any.only': '{{#label}} must be true (or leave it out and give open and close)' }),
        open: time(TIME_OF_DAY, '09:00'),
        close: time(CLOSING_TIME, '17:30 (or 24:00)')
    }).xor('closed', 'open').and('open', 'close').messages({
        'object.xor': '{{#label}} is either closed: true, or open and close times, not both',
        'object.missing': '{{#label}} needs closed: true, or open and close times',
        'object.and': '{{#label}} needs both open and close'
    })).default([]),
    whenClosed: Joi.string().valid(...WHEN_CLOSED).default('offline_form')
}).required();

/** Support hours (issue 26): the store's admins read and replace them; the store's zone comes from the tenants service. */
export function hoursRoutes(hours: HoursService): ServerRoute[] {
    return [
        {
            method: 'GET',
            path: '/api/chat/business-hours',
            options: {
                id: 'livechat.business-hours.get',
                auth: allow('admin'),
                description: 'The store\'s support hours (no weekly ranges: always open), its zone, and open now / next opening',
                handler: async (request) => hours.get(adminOf(request).organizationId)
            }
        },
        {
            method: 'PUT',
            path: '/api/chat/business-hours',
            options: {
                id: 'livechat.business-hours.update',
                plugins: { audit: { action: 'settings.support-hours.update' } },
                auth: allow('admin'),
                description: 'Replaces the store\'s support hours (weekly ranges, dated exceptions, what the widget does when closed)',
                validate: { payload: supportHoursPayload },
                handler: async (request) => hours.set(adminOf(request).organizationId, request.payload as SupportHours)
            }
        }
    ];
}
