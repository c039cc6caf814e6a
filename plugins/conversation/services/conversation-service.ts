import type { KnowledgeRetrieval } from '../../../core/types/knowledge';
import { decide, Decision, DecisionStep, QuickQuestion, topicOf } from './decide';
import { tokens, hasLetter } from './text';

/** What the decision reads about a store, through the services the plugin declares (tenants, questions, ai). */
export interface ConversationDeps {
    countryOf(organizationId: number): Promise<string | null>;
    quickQuestions(organizationId: number): Promise<QuickQuestion[]>;
    /** The AI plugin's retrieval with its confidence (DESIGN §10). */
    knowledge: KnowledgeRetrieval;
}

/**
 * The widget's one decision about a customer message, with what it needs from the store: its country, its quick
 * questions and what its AI knowledge says about the message (asked only when the message has words to ask about).
 */
export class ConversationService {
    constructor(private readonly deps: ConversationDeps) {}

    async decide(organizationId: number, input: { step: DecisionStep; text: string; lang?: string | null }): Promise<Decision> {
        const topic = topicOf(input.text, input.lang);
        const [country, questions, knowledge] = await Promise.all([
            this.deps.countryOf(organizationId),
            this.deps.quickQuestions(organizationId),
            tokens(topic).some(hasLetter) ? this.deps.knowledge.retrieve(organizationId, topic) : Promise.resolve(null)
        ]);
        return decide({ step: input.step, text: input.text, lang: input.lang, country, questions, knowledge });
    }
}
