/**
 * Who may call each route: the security review's table, written by hand (route id → caller kinds), and
 * compared with what every route declares and what hapi enforces (test/integration/access-matrix.test.ts).
 * A new route fails that test until it is listed here.
 *
 * - 'public': no credentials needed (and not reachable over a socket);
 * - 'customer': a customer token of the chat session named by the route's {sessionId} (any other session: refused).
 */
export type Kind = 'super_admin' | 'admin' | 'org_user' | 'widget' | 'customer';

export const EXPECTED: Record<string, 'public' | Kind[]> = {
    // ---- public pages, files and logins ----
    'health.status.get': 'public',
    'web.app.get': 'public',
    'web.assets.get': 'public',
    'web.favicon.get': 'public',
    'widget.script.get': 'public',
    'widget.chunk.get': 'public',
    'widget.storefront.get': 'public',
    'widget.storefront.demo': 'public',
    'widget.storefront.css': 'public',
    'auth.cors.preflight': 'public',
    'auth.admin.login': 'public',
    'auth.super-admin.login': 'public',
    'auth.org.login': 'public',
    'auth.demo-credentials.get': 'public',

    // ---- token checks ----
    'auth.admin.verify': ['admin'],
    'auth.super-admin.verify': ['super_admin'],
    'auth.org.verify': ['org_user'],

    // ---- super admin: every tenant ----
    'tenants.organizations.list': ['super_admin'],
    'tenants.organizations.create': ['super_admin'],
    'tenants.organizations.update': ['super_admin'],
    'tenants.organizations.deactivate': ['super_admin'],
    'loyalty.provider-settings.get': ['super_admin'],
    'loyalty.provider-settings.update': ['super_admin'],
    'loyalty.provider-settings.check': ['super_admin'],
    'tenants.bot-instances.list': ['super_admin'],
    'tenants.bot-instances.create': ['super_admin'],
    'tenants.bot-instances.update': ['super_admin'],
    'tenants.bot-instances.deactivate': ['super_admin'],
    'auth.users.list': ['super_admin'],
    'auth.users.create': ['super_admin'],
    'auth.users.update': ['super_admin'],
    'auth.users.deactivate': ['super_admin'],

    // ---- organization users: their own organization ----
    'tenants.org-bot-instances.list': ['org_user'],
    'analytics.org-totals.get': ['org_user'],

    // ---- the widget (public key of a bot instance) ----
    'analytics.event.track': ['widget'],
    'loyalty.code.send': ['widget'],
    'loyalty.points.view': ['widget'],
    'livechat.availability.check': ['widget'],
    'livechat.session.create': ['widget'],
    'livechat.offline.create': ['widget'],
    'questions.question.list': ['admin', 'widget'],
    'ai.chat.ask': ['widget'],
    'conversation.message.decide': ['widget'],
    'ai.chat.feedback': ['widget'],
    'ai.agent.status': ['admin', 'widget'],

    // ---- staff of one organization ----
    'questions.question.create': ['admin'],
    'ai.knowledge.list': ['admin'],
    'ai.knowledge.create': ['admin'],
    'ai.knowledge.import': ['admin'],
    'ai.knowledge.update': ['admin'],
    'ai.knowledge.delete': ['admin'],
    'ai.history.list': ['admin'],
    'ai.history.unresolved': ['admin'],
    'ai.history.update': ['admin'],
    'ai.history.resolve': ['admin'],
    'ai.agent.config': ['admin'],
    'ai.agent.sessions': ['admin'],
    'ai.agent.test': ['admin'],
    'questions.question.update': ['admin'],
    'widget.bot-look.update': ['admin'],
    'widget.bots.list': ['admin'],
    'widget.languages.get': ['admin'],
    'widget.languages.update': ['admin'],
    'questions.question.delete': ['admin'],
    'questions.order.save': ['admin'],
    'livechat.waiting.list': ['admin'],
    'livechat.session.list': ['admin'],
    'livechat.session.accept': ['admin'],
    'livechat.session.star': ['admin'],
    'livechat.session.archive': ['admin'],
    'livechat.agent.status': ['admin'],
    'livechat.agent.availability': ['admin'],
    'livechat.agent.activity': ['admin'],
    'livechat.agent.logout': ['admin'],
    'auth.profile.get': ['admin'],
    'auth.profile.update': ['admin'],
    'livechat.email-settings.get': ['admin'],
    'livechat.email-settings.update': ['admin'],
    'livechat.email.test': ['admin'],
    'livechat.session.read': ['admin'],
    'livechat.session.context': ['admin'],
    'livechat.history.list': ['admin'],
    'livechat.canned-replies.list': ['admin'],
    'livechat.left-message.list': ['admin'],
    'livechat.left-message.reply': ['admin'],
    'livechat.left-message.update': ['admin'],
    'system-test.organization.get': ['admin'],
    'system-test.analytics.run': ['admin'],
    'system-test.availability.get': ['admin'],
    'system-test.loyalty.run': ['admin'],
    'system-test.summary.get': ['admin'],

    // ---- analytics dashboard: an admin's own organization, a super admin's any (organizationId) ----
    'analytics.summary.get': ['admin', 'super_admin'],
    'analytics.hourly.get': ['admin', 'super_admin'],
    'analytics.daily.get': ['admin', 'super_admin'],
    'analytics.timeline.get': ['admin', 'super_admin'],
    'analytics.domains.list': ['admin', 'super_admin'],
    'analytics.domain.get': ['admin', 'super_admin'],
    'analytics.questions.get': ['admin', 'super_admin'],
    'analytics.phones.list': ['admin', 'super_admin'],
    'analytics.phone.activity': ['admin', 'super_admin'],
    'analytics.phone.details': ['admin', 'super_admin'],
    'analytics.customer.lookup': ['admin', 'super_admin'],
    'analytics.failed-verifications.list': ['admin', 'super_admin'],
    'analytics.chat.get': ['admin', 'super_admin'],
    'analytics.chat-durations.get': ['admin', 'super_admin'],
    'analytics.chat-status.get': ['admin', 'super_admin'],
    'analytics.chat-sessions.list': ['admin', 'super_admin'],
    'analytics.chat-messages.list': ['admin', 'super_admin'],
    'analytics.order-history.list': ['admin', 'super_admin'],
    'analytics.websocket.get': ['admin', 'super_admin'],
    'analytics.export.get': ['admin', 'super_admin'],

    // ---- one live chat: its agents and its own customer ----
    'livechat.session.get': ['admin', 'customer'],
    'livechat.message.list': ['admin', 'customer'],
    'livechat.message.send': ['admin', 'customer'],
    'livechat.session.typing': ['admin', 'customer'],
    'livechat.session.end': ['admin', 'customer']
};
