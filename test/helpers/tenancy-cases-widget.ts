import type { TenancyCase } from './tenancy-cases-questions';

/** The widget plugin's organization-scoped routes: A's admin changing B's bot instance look. */
export const cases: Record<string, TenancyCase> = {
    'widget.bot-look.update': async ({ b, a }) => ({
        method: 'PUT',
        url: `/api/widget/bots/${b.bot.id}/look`,
        payload: { color: '#7f1d1d', position: 'left', title: 'Changed by A' },
        headers: { authorization: 'Bearer ' + a.admin.token }
    })
};
