import Boom from '@hapi/boom';
import Joi from 'joi';
import type { ReqRef, Request } from '@hapi/hapi';
import { fields } from './fields';
import { staffOf } from './callers';

/**
 * The query of the organization API (SPEC §7: `?organizationId={id}` with an org token): optional, and only ever
 * the caller's own organization. Extend it with `.keys({...})` for further parameters.
 */
export const organizationQuery = Joi.object({
    organizationId: fields.id
        .description('must be the caller\'s own organization; defaults to it')
});

/**
 * The organization a staff request may see: its own. Any other id answers 404, as if it did not exist (DESIGN §5),
 * and so does a caller of no organization.
 */
export function ownOrganizationId<Refs extends ReqRef>(request: Request<Refs>): number {
    const own = staffOf(request).organizationId;
    const asked = request.query.organizationId;      // a number or absent: the route validated it with organizationQuery
    if (own === null || (asked !== undefined && asked !== own)) {
        throw Boom.notFound('Organization not found');
    }
    return own;
}
