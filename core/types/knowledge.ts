/**
 * What the AI plugin offers the widget's message decision (plugins/conversation) through `server.app.services.ai`
 * (DESIGN §10: "retrieval and its confidence belong to the AI plugin, which the decision calls").
 */

/** The store's best answer source for a customer's text, as the AI agent's own retrieval ranks it. */
export interface KnowledgeMatch {
    /** A knowledge entry, a pre-made question, or the store's own information. */
    kind: 'knowledge' | 'question' | 'store';
    id: number;
    title: string;
    /** Share (0..1) of the text's weighted content terms that the source covers. */
    confidence: number;
    /**
     * The agent would answer from it: the confidence reaches the agent's own threshold and the source matches a term
     * more specific than the words every store uses ("points", "store", "member"): "when do my points expire" is
     * confident about 'Points expiration', "points" alone about nothing.
     */
    confident: boolean;
}

export interface KnowledgeRetrieval {
    /** null when the store's AI agent is off (its knowledge is then not used to answer customers). */
    retrieve(organizationId: number, text: string): Promise<KnowledgeMatch | null>;
}
