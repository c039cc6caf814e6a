import type { MigrationEntry } from '../../../core/db/migration-source';
import baseline from './20260101000004-livechat';
import chatWidgetSession from './20261123000000-chat-widget-session';
import chatConsole from './20261126000000-chat-console';
import chatMessageSearch from './20261126010000-chat-message-search';
import chatCustomerGone from './20261126020000-chat-customer-gone';
import phonesOnly from './20261201010002-livechat-phones-only';
import leftMessages from './20261202000000-left-messages';
import agentConnections from './20261202000000-agent-connections';
import supportHours from './20261203000000-support-hours';
import routing from './20261203010000-routing';
import chatAttachments from './20261204000000-chat-attachments';
import chatRatings from './20261204010000-chat-ratings';
import chatMessageFulltext from './20261204020000-chat-message-fulltext';
import chatAttachmentThumbs from './20261207000000-chat-attachment-thumbs';

/** The livechat plugin's migrations, oldest first: a schema change is a new file here and one line in this list. */
export const migrations: MigrationEntry[] = [
    baseline,
    chatWidgetSession,
    chatConsole,
    chatMessageSearch,
    chatCustomerGone,
    phonesOnly,
    leftMessages,
    agentConnections,
    supportHours,
    routing,
    chatAttachments,
    chatRatings,
    chatMessageFulltext,
    chatAttachmentThumbs
];
