import type { Logger } from 'pino';
import type { Config } from '../../../config';
import type { AiSource } from '../../../core/types/api';
import { ABSTAIN_BELOW } from '../services/retrieval';
import type { ToolName, ToolResult } from '../services/tools';
import type { AgentInput, AgentReply, AiProvider } from './types';
import { abstainReply, BuiltinProvider } from './builtin';
import { intentOf } from '../services/intents';

type OpenAiConfig = Config['ai']['openai'];

interface ToolCall {
    id: string;
    type: 'function';
    function: { name: string; arguments: string };
}

type Message =
    | { role: 'system' | 'user'; content: string }
    | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
    | { role: 'tool'; tool_call_id: string; content: string };

interface Completion {
    choices?: Array<{ message?: { content?: string | null; tool_calls?: ToolCall[] }; finish_reason?: string }>;
}

/** The tier-2 tools as OpenAI function definitions: none takes a phone, the server knows the verified one. */
const TOOLS: Array<{ name: string; tool: ToolName; description: string }> = [
    { name: 'get_loyalty_points', tool: 'points', description: 'The loyalty points balance of the customer in this chat (needs their phone verified by SMS code).' },
    { name: 'get_order_history', tool: 'orders', description: 'The last 5 orders of the customer in this chat (needs their phone verified by SMS code).' },
    { name: 'get_recommendations', tool: 'recommendations', description: 'Product recommendations from the orders of the customer in this chat (needs their phone verified).' },
    { name: 'transfer_to_live_agent', tool: 'transfer', description: 'Hand the customer to a human agent of the store, with this conversation. Use when they ask for a person, or when you cannot help: then the customer is first asked whether they want a person.' }
];

export class ProviderFailure extends Error {}

/**
 * Any OpenAI-compatible chat/completions endpoint (OpenAI, Ollama, vLLM, llama.cpp server): a
 * retrieval-augmented prompt with the store's persona and best sources, tool calling for the tier-2 tools
 * (run by the ToolBox, which enforces the verified phone in code), a timeout per call, and the built-in
 * provider's answer when the endpoint fails, times out or loops past OPENAI_MAX_TOOL_ROUNDS.
 */
export class OpenAiProvider implements AiProvider {
    readonly name = 'openai' as const;
    private readonly fallback = new BuiltinProvider();

    constructor(private readonly config: OpenAiConfig, private readonly log: Logger) {}

    persona(storeName: string, lang?: string | null): string {
        return [
            `You are the friendly customer support assistant of ${storeName}. Answer in one to three short sentences${lang ? `, in the customer's language (${lang})` : ''}.`,
            'Answer questions about the store only from the store information below. If it does not contain the answer, call transfer_to_live_agent (the customer is asked first whether they want a person); never invent prices, dates or policies.',
            'For the customer\'s own points, orders or recommendations call the tools; never ask for or accept a phone number in the chat, the tools know the verified one.',
            'If the customer asks for a human, call transfer_to_live_agent.'
        ].join(' ');
    }

    private async complete(messages: Message[]): Promise<NonNullable<Completion['choices']>[number]['message']> {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (this.config.apiKey) {
            headers.authorization = `Bearer ${this.config.apiKey}`;
        }
        let res: Response;
        try {
            res = await fetch(`${this.config.baseUrl}/chat/completions`, {
                method: 'POST',
                headers,
                body: JSON.stringify({
                    model: this.config.model,
                    messages,
                    temperature: 0.2,
                    tools: TOOLS.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: { type: 'object', properties: {}, additionalProperties: false } } })),
                    tool_choice: 'auto'
                }),
                signal: AbortSignal.timeout(this.config.timeoutMs)
            });
        }
        catch (err) {
            throw new ProviderFailure(`request failed: ${(err as Error).message}`);
        }
        if (!res.ok) {
            throw new ProviderFailure(`status ${res.status}`);
        }
        let body: Completion;
        try {
            body = await res.json() as Completion;
        }
        catch {
            throw new ProviderFailure('not JSON');
        }
        const message = body.choices?.[0]?.message;
        if (!message) {
            throw new ProviderFailure('no choice in the answer');
        }
        return message;
    }

    async answer(input: AgentInput): Promise<AgentReply> {
        try {
            return await this.converse(input);
        }
        catch (err) {
            this.log.warn({ err: (err as Error).message, baseUrl: this.config.baseUrl }, 'AI provider failed; answering with the built-in provider');
            return this.fallback.answer(input);
        }
    }

    private async converse(input: AgentInput): Promise<AgentReply> {
        const confident = input.retrieval.hits.filter((h) => h.confidence >= ABSTAIN_BELOW / 2);
        const context = confident.length
            ? confident.map((h) => `## ${h.source.title}\n${h.source.answer}`).join('\n\n')
            : '(nothing in the store information matches this question)';
        const messages: Message[] = [
            { role: 'system', content: `${this.persona(input.storeName, input.lang)}\n\nStore information:\n${context}` }
        ];
        for (const turn of input.history.slice(-6)) {
            messages.push({ role: 'user', content: turn.question }, { role: 'assistant', content: turn.answer });
        }
        messages.push({ role: 'user', content: input.question });

        let fallbackAction: AgentReply['fallbackAction'] = null;
        const sources: AiSource[] = [];
        for (let round = 0; round <= this.config.maxToolRounds; round++) {
            const message = await this.complete(messages);
            const calls = message?.tool_calls ?? [];
            if (!calls.length) {
                const text = message?.content?.trim();
                if (!text) {
                    throw new ProviderFailure('empty answer');
                }
                const top = input.retrieval.hits[0];
                if (!sources.length && top && input.retrieval.confidence >= ABSTAIN_BELOW) {
                    sources.push({ id: top.source.id, title: top.source.title, kind: top.source.kind });
                }
                return { answer: text, fallbackAction, sources, confidence: input.retrieval.confidence, provider: this.name };
            }
            if (round === this.config.maxToolRounds) {
                break;
            }
            messages.push({ role: 'assistant', content: message?.content ?? null, tool_calls: calls });
            for (const call of calls) {
                const tool = TOOLS.find((t) => t.name === call.function.name);
                let result: ToolResult;
                if (!tool) {
                    result = { ok: false, needs: 'live_chat_unavailable', text: `There is no tool named ${call.function.name}.` };
                }
                else if (tool.tool === 'transfer' && intentOf(input.question) !== 'human') {
                    // The model wants to hand over, but the customer did not ask for a person: like the built-in agent,
                    // ask first (issue 30): "Talk to a person" when someone is available, else the leave-a-message form.
                    // Nothing is handed over; the widget opens the live chat only on the customer's yes.
                    return abstainReply(input, this.name);
                }
                else {
                    result = await input.tools.run(tool.tool);
                    if (!result.ok && result.needs === 'verify_phone') {
                        fallbackAction = 'verify_phone';
                    }
                    else if (tool.tool === 'transfer') {
                        fallbackAction = result.ok ? 'live_chat' : 'questions';
                    }
                    else if (result.ok && !sources.length) {
                        sources.push({ id: 0, title: 'Your loyalty account', kind: 'tool' });
                    }
                }
                messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
            }
        }
        throw new ProviderFailure(`more than ${this.config.maxToolRounds} tool rounds`);
    }
}
