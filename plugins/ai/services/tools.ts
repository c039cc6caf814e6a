import type { Services } from '../../../core/types';
import type { AiTurn } from '../../../core/types/api';
import type { Db } from '../../../core/db';
import { AiFunctionCallModel } from '../models';
import { aiText } from '../texts';

/** What a tool answers: text for the customer (or the model), or that the customer must verify a phone first. */
export type ToolResult =
    | { ok: true; text: string; data?: unknown }
    | { ok: false; needs: 'verify_phone' | 'live_chat_unavailable'; text: string };

export type ToolName = 'points' | 'orders' | 'recommendations' | 'transfer';

export interface ToolContext {
    organizationId: number;
    botInstanceId: number | null;
    /** The widget session; null for staff testing the agent (no tier-2 data then). */
    sessionId: string | null;
    /**
     * The phone the customer's token names (a successful SMS code check in this widget session, within
     * CUSTOMER_VERIFIED_MINUTES), or null: the only phone tier-2 tools ever read.
     */
    verifiedPhone: string | null;
    domain: string | null;
    /** The question the customer asked first in this hand-off, and the conversation so far (transfer). */
    originalQuestion: string;
    conversation: AiTurn[];
    /** The customer's language (issue 27): the tools' texts are written in it (English when absent). */
    lang?: string | null;
}

/**
 * What the AI agent asks of live support (the livechat plugin plugs it in with `services.ai.useLiveSupport`; ai
 * does not depend on livechat, which depends on ai): whether an agent is there, and the hand-off itself.
 */
export interface LiveSupport {
    agentsAvailable(organizationId: number): Promise<boolean>;
    handOff(input: {
        organizationId: number;
        botInstanceId: number | null;
        sessionId: string;
        phoneNumber: string | null;
        domain: string | null;
        originalQuestion: string;
        aiConversation: AiTurn[];
    }): Promise<unknown>;
}

/** The English texts (plugins/ai/locales/en.json); a customer reads them in their language (ToolContext.lang). */
export const VERIFY_TEXT = aiText('en', 'verifyPhone');
export const UNAVAILABLE_TEXT = aiText('en', 'unavailable');
export const TRANSFER_TEXT = aiText('en', 'transfer');

/**
 * The tier-2 tools (issue 13). Each reads the phone the customer's token proves (ToolContext.verifiedPhone: the
 * token the SMS code check gave, for this store and widget session, before its deadline; issue 25) and nothing
 * else: not the widget session id alone, no phone from the question or from a model, so no tool can answer
 * another phone's data. Every call is counted in ai_function_calls.
 */
export class ToolBox {
    readonly used: ToolName[] = [];

    constructor(private readonly db: Db, private readonly services: () => Services, private readonly ctx: ToolContext,
        /** Live support when a plugin plugged it in (AiService.useLiveSupport), else null: no hand-off. */
        private readonly liveSupport: () => LiveSupport | null = () => null) {}

    /** What asks the customer to verify their phone, in their language. */
    get verifyText(): string {
        return this.text('verifyPhone');
    }

    private text(key: Parameters<typeof aiText>[1], args?: Record<string, unknown>): string {
        return aiText(this.ctx.lang, key, args);
    }

    private async record(name: ToolName, success: boolean): Promise<void> {
        this.used.push(name);
        await AiFunctionCallModel.query(this.db).insert({ organizationId: this.ctx.organizationId, sessionId: this.ctx.sessionId, functionName: name, success });
    }

    /** The phone the customer's token proves, or null. */
    async verifiedPhone(): Promise<string | null> {
        return this.ctx.sessionId ? this.ctx.verifiedPhone : null;
    }

    async run(name: ToolName): Promise<ToolResult> {
        switch (name) {
            case 'points': return this.points();
            case 'orders': return this.orders();
            case 'recommendations': return this.recommendations();
            case 'transfer': return this.transfer();
        }
    }

    async points(): Promise<ToolResult> {
        const phone = await this.verifiedPhone();
        if (!phone) {
            await this.record('points', false);
            return { ok: false, needs: 'verify_phone', text: this.verifyText };
        }
        const customer = await this.services().loyalty.customer(this.ctx.organizationId, phone);
        await this.record('points', !!customer);
        if (!customer) {
            return { ok: true, text: this.text('noAccount') };
        }
        return { ok: true, text: this.text('points', { points: customer.points }), data: { points: customer.points } };
    }

    async orders(): Promise<ToolResult> {
        const phone = await this.verifiedPhone();
        if (!phone) {
            await this.record('orders', false);
            return { ok: false, needs: 'verify_phone', text: this.verifyText };
        }
        const history = await this.services().loyalty.orderHistory(this.ctx.organizationId, phone, 5);
        await this.record('orders', history.found);
        if (!history.found || !history.orders.length) {
            return { ok: true, text: this.text('noOrders') };
        }
        const lines = history.orders.map((o) => `${o.orderDate.slice(0, 10)}: ${o.quantity} × ${o.productName} ($${o.price.toFixed(2)})`);
        return { ok: true, text: `${this.text('lastOrders', { count: history.orders.length })}\n${lines.join('\n')}`, data: { orders: history.orders } };
    }

    /** From the customer's own orders: what they buy most, to buy again. */
    async recommendations(): Promise<ToolResult> {
        const phone = await this.verifiedPhone();
        if (!phone) {
            await this.record('recommendations', false);
            return { ok: false, needs: 'verify_phone', text: this.verifyText };
        }
        const history = await this.services().loyalty.orderHistory(this.ctx.organizationId, phone, 20);
        await this.record('recommendations', history.found);
        const counts = new Map<string, number>();
        for (const order of history.orders) {
            counts.set(order.productName, (counts.get(order.productName) ?? 0) + order.quantity);
        }
        const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([name]) => name);
        if (!top.length) {
            return { ok: true, text: this.text('noRecommendations') };
        }
        return { ok: true, text: this.text('recommendations', { products: top.join(', ') }), data: { products: top } };
    }

    /** Hands the customer to a live agent with the conversation (through the live-support port, when one is plugged in). */
    async transfer(): Promise<ToolResult> {
        const livechat = this.liveSupport();
        if (!this.ctx.sessionId || !livechat || !await livechat.agentsAvailable(this.ctx.organizationId)) {
            await this.record('transfer', false);
            return { ok: false, needs: 'live_chat_unavailable', text: this.text('unavailable') };
        }
        const phone = await this.verifiedPhone();
        await livechat.handOff({
            organizationId: this.ctx.organizationId,
            botInstanceId: this.ctx.botInstanceId,
            sessionId: this.ctx.sessionId,
            phoneNumber: phone,
            domain: this.ctx.domain,
            originalQuestion: this.ctx.originalQuestion,
            aiConversation: this.ctx.conversation
        });
        await this.record('transfer', true);
        return { ok: true, text: this.text('transfer') };
    }
}
