/**
 * What a store keeps for a chosen number of days (issue 25): the kinds of its retention settings, read by the server
 * (core/privacy, the privacy plugin) and the admin app's form alike.
 */
export const RETENTION_KINDS = ['chats', 'ai', 'verifications', 'analytics', 'mail', 'audit'] as const;
export type RetentionKind = typeof RETENTION_KINDS[number];

/** Days each kind is kept (null: forever). */
export type RetentionPolicy = Record<RetentionKind, number | null>;
