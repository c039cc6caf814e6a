import type { Services } from '../../../core/types';
import type { ChatMessageModel } from '../models';
import type { ChatMessage } from '../../../core/types/api';

/** What customers call an agent: the display name of their profile, else the first name of their name or email. */
export function agentName(user: { displayName?: string | null; name: string | null; email: string }): string {
    return user.displayName?.trim() || firstName(user.name, user.email);
}

/** 'Sam' from 'Sam Lee', else from 'sam.lee@store.test' the part before @ ('sam.lee'). */
export function firstName(name: string | null, email: string): string {
    const word = (name ?? '').trim().split(/\s+/)[0];
    return (word || email.split('@')[0]).slice(0, 40);
}

/**
 * The names customers see for the organization's agents by user id (their display name, else their first name),
 * kept a minute (the message hot path reads it); the node where a profile changes forgets them at once.
 */
export class AgentNames {
    private readonly byOrganization = new Map<number, { names: Map<number, string>; named: Set<number>; at: number }>();

    constructor(private readonly users: Pick<Services['users'], 'list'>) {}

    /** A profile changed (services.users tells): this node reads the organization's agent names again. */
    forget(organizationId: number | null): void {
        if (organizationId === null) {
            this.byOrganization.clear();
        }
        else {
            this.byOrganization.delete(organizationId);
        }
    }

    async nameOf(organizationId: number, userId: number | null): Promise<string | undefined> {
        if (userId === null) {
            return undefined;
        }
        let entry = this.byOrganization.get(organizationId);
        if (!entry || Date.now() - entry.at > 60_000 || !entry.names.has(userId)) {
            const users = await this.users.list({ organizationId });
            entry = {
                names: new Map(users.map((u) => [u.id, agentName(u)])),
                named: new Set(users.filter((u) => u.displayName?.trim() || u.name?.trim()).map((u) => u.id)),
                at: Date.now()
            };
            this.byOrganization.set(organizationId, entry);
        }
        return entry.names.get(userId);
    }

    /**
     * The name the customer reads when the agent joins ("Sam has joined the chat."): only a name a person gave (the
     * profile's display name, or the account's name), never one made from an email address.
     */
    async joinName(organizationId: number, userId: number): Promise<string | undefined> {
        const name = await this.nameOf(organizationId, userId);
        return this.byOrganization.get(organizationId)?.named.has(userId) ? name : undefined;
    }

    /** The agents' messages of a list, each with its agent's name (rows: the stored messages, in the same order). */
    async withNames(organizationId: number, messages: ChatMessage[], rows: ChatMessageModel[]): Promise<ChatMessage[]> {
        for (let i = 0; i < messages.length; i += 1) {
            if (messages[i].sender === 'agent') {
                const name = await this.nameOf(organizationId, rows[i].senderUserId);
                if (name) {
                    messages[i].agentName = name;
                }
            }
        }
        return messages;
    }
}
