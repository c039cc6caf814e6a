import type { AiFallbackAction, AiSource, AiTurn } from '../../../core/types/api';
import type { RetrievalResult } from '../services/retrieval';
import type { ToolBox } from '../services/tools';

/** What a provider answers from: the question, the best sources of the store, the conversation, the tools. */
export interface AgentInput {
    question: string;
    storeName: string;
    retrieval: RetrievalResult;
    /** This widget session's earlier exchanges, oldest first. */
    history: AiTurn[];
    tools: ToolBox;
    /** The customer's language (issue 27, a BCP 47 tag): the agent's own texts are written in it; null: English. */
    lang?: string | null;
    /** True when a live agent is available (the abstain fallback offers live chat then, else the questions). */
    agentsAvailable: () => Promise<boolean>;
}

export interface AgentReply {
    answer: string;
    fallbackAction: AiFallbackAction | null;
    sources: AiSource[];
    confidence: number;
    provider: 'builtin' | 'openai';
    /** True when the agent did not know and offered the team or the questions instead (an unresolved answer). */
    abstained?: boolean;
    /** The widget shows the answer in the customer's language (AiChatAnswer.code). */
    code?: 'ai.offer_person' | 'ai.offer_message';
}

/** One provider interface (DESIGN §7): the built-in retrieval agent, or an OpenAI-compatible endpoint. */
export interface AiProvider {
    readonly name: 'builtin' | 'openai';
    answer(input: AgentInput): Promise<AgentReply>;
}
